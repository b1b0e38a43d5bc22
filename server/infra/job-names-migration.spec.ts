/**
 * Migration 021: jobs queued under the names they had before one name per feature (`avatar-clone` …) move to the
 * feature's names at upgrade, keep their state and attempts, and run under the new names.
 * The earlier names are written here on purpose. names-codemod: keep old names
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useApp } from '../../tests/support/app';
import { until } from '../../tests/support/wait';
import { migrate, splitStatements } from './migrate';
import { JOB_NAMES, JobQueue, type JobHandlers } from './queue';

const MIGRATION = '021_feature_job_names.sql';
const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const RENAMED: [string, string][] = [
  ['session-sweep', 'account-sweep'],
  ['audition-sweep', 'voices-sweep'],
  ['avatar-clone', 'avatars-clone'],
  ['work-render', 'works-render'],
  ['voice-train', 'voices-train'],
  ['speech-synthesize', 'voices-synthesize'],
  ['image-generate', 'imagegen-run'],
  ['video-generate', 'videogen-run'],
];

describe('migration statements', () => {
  it('keeps a DO block whole and still splits plain statements at their semicolons', () => {
    const statements = splitStatements(fs.readFileSync(path.join(MIGRATIONS_DIR, MIGRATION), 'utf8'));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^DO \$\$[\s\S]*END\n\$\$$/);
    expect(splitStatements('-- two\nCREATE TABLE a (x int);\nCREATE INDEX b ON a (x);\n')).toEqual(['CREATE TABLE a (x int)', 'CREATE INDEX b ON a (x)']);
  });
});

describe.each(DB_KINDS)('jobs queued under the earlier names at upgrade (%s)', (kind) => {
  const t = useApp(kind, { runWorker: false });

  it('has run on a new database, before the queue made its schema', async () => {
    const applied = await t.app.ctx.db.query('SELECT 1 FROM schema_migrations WHERE name = $1', [MIGRATION]);
    expect(applied.rowCount).toBe(1);
  });

  it('move to their feature\'s names with their payloads, state and attempts, and run there', { timeout: 60_000 }, async () => {
    const db = t.app.ctx.db;
    await t.withJobsPaused(async () => {
      // The database as the previous version left it: its queues, a schedule, queued and retrying jobs, a running one.
      for (const [old, renamed] of RENAMED) {
        await db.query('SELECT pgboss.delete_queue($1)', [renamed]);
        await db.query(`SELECT pgboss.create_queue($1, '{"policy":"standard"}'::json)`, [old]);
      }
      await db.query(`INSERT INTO pgboss.schedule (name, cron, data, options) VALUES ('session-sweep', '17 * * * *', '{}', '{}')`);
      const insert = async (name: string, data: object, extra = '') =>
        (await db.query<{ id: string }>(`INSERT INTO pgboss.job (name, data${extra ? ', state, retry_count' : ''}) VALUES ($1, $2${extra}) RETURNING id::text AS id`, [name, JSON.stringify(data)])).rows[0]!.id;
      const clone = await insert('avatar-clone', { avatarId: 7 });
      const render = await insert('work-render', { workId: 3, step: 2 }, `, 'retry', 1`);
      const extraction = await insert('extraction-run', { analyseId: 5 });
      await db.query(`INSERT INTO queue_running (job_id, name, worker_id) VALUES (gen_random_uuid(), 'voice-train', 'gone')`);

      await db.query('DELETE FROM schema_migrations WHERE name = $1', [MIGRATION]);
      expect(await migrate(db)).toEqual([MIGRATION]);

      const queues = (await db.query<{ name: string }>('SELECT name FROM pgboss.queue')).rows.map((r) => r.name);
      for (const [old, renamed] of RENAMED) {
        expect(queues, old).not.toContain(old);
        expect(queues, renamed).toContain(renamed);
      }
      expect((await db.query(`SELECT 1 FROM pgboss.schedule WHERE name = 'session-sweep'`)).rowCount).toBe(0);
      const jobs = (await db.query<{ id: string; name: string; data: unknown; state: string; retry_count: number }>(
        'SELECT id::text AS id, name, data, state::text AS state, retry_count FROM pgboss.job WHERE id = ANY($1::uuid[]) ORDER BY name',
        [[clone, render, extraction]],
      )).rows;
      expect(jobs).toEqual([
        { id: clone, name: 'avatars-clone', data: { avatarId: 7 }, state: 'created', retry_count: 0 },
        { id: extraction, name: 'extraction-run', data: { extractionId: 5 }, state: 'created', retry_count: 0 },
        { id: render, name: 'works-render', data: { workId: 3, step: 2 }, state: 'retry', retry_count: 1 },
      ]);
      expect((await db.query(`DELETE FROM queue_running WHERE worker_id = 'gone' RETURNING name`)).rows).toEqual([{ name: 'voices-train' }]);

      // A worker of the new version runs them under the new names.
      const ran: [string, unknown][] = [];
      const handlers = Object.fromEntries(JOB_NAMES.map((name) => [name, async (payload: unknown) => void ran.push([name, payload])])) as unknown as JobHandlers;
      const queue = new JobQueue(db, { pollSeconds: 0.5, retryDelaySeconds: 0 });
      try {
        await queue.start();
        await queue.work(handlers);
        await until(async () => ran.length, (n) => n >= 3, 30_000);
      } finally {
        await queue.stop();
      }
      expect(ran.sort()).toEqual([
        ['avatars-clone', { avatarId: 7 }],
        ['extraction-run', { extractionId: 5 }],
        ['works-render', { workId: 3, step: 2 }],
      ]);
    });
  });
});
