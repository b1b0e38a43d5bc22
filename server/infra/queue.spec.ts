import { describe, expect, it } from 'vitest';
import { JOB_NAMES, JobQueue, MissingJobHandlerError, WORKER_DEAD_BEATS, type JobHandlers, type JobRun } from './queue';
import { DB_KINDS, useApp } from '../../tests/support/app';
import { until } from '../../tests/support/wait';

describe.each(DB_KINDS)('job queue on the same database (%s)', (kind) => {
  const t = useApp(kind);

  it('refuses to start workers when a job has no handler', async () => {
    await expect(t.app.ctx.queue.work({})).rejects.toThrow(MissingJobHandlerError);
    expect(JOB_NAMES.length).toBeGreaterThan(0);
  });

  it('runs the session sweep job: sessions that ended over a week ago are removed', async () => {
    await t.createUser('13500000000', 'abc123');
    const live = await t.login('13500000000', 'abc123');
    const old = await t.login('13500000000', 'abc123');
    const db = t.app.ctx.db;
    await db.query(`UPDATE sessions SET expires_at = now() - interval '8 days' WHERE id = (SELECT max(id) FROM sessions)`);
    expect(old.token).not.toBe(live.token);
    await t.app.ctx.queue.send('session-sweep', {});
    const deadline = Date.now() + 20_000;
    let count = 2;
    while (Date.now() < deadline) {
      count = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions')).rows[0]!.n;
      if (count === 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(count).toBe(1);
  });

  it("retries a job whose worker stopped beating, and never a live worker's", { timeout: 60_000 }, async () => {
    const db = t.app.ctx.db;
    const noop = Object.fromEntries(JOB_NAMES.map((n) => [n, async () => undefined])) as unknown as JobHandlers;
    await t.withJobsPaused(async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const runs: JobRun[] = [];
      const victim = new JobQueue(db, { pollSeconds: 0.5, heartbeatSeconds: 1, retryDelaySeconds: 0 });
      const rescuer = new JobQueue(db, { pollSeconds: 0.5, heartbeatSeconds: 1, retryDelaySeconds: 0 });
      try {
        await victim.start();
        await victim.work({ ...noop, 'session-sweep': async (_p, job) => (runs.push(job), held) });
        const id = await victim.send('session-sweep', {});
        await until(async () => runs.length, (n) => n === 1, 20_000);
        // A second worker beats beside the live one for several dead-worker spans: the running job stays its own.
        await rescuer.start();
        await rescuer.work({ ...noop, 'session-sweep': async (_p, job) => void runs.push(job) });
        await new Promise((r) => setTimeout(r, 1000 * 1 * WORKER_DEAD_BEATS * 1.5));
        expect(runs).toHaveLength(1);
        // The victim falls silent (as a killed process does): the rescuer retries its job.
        clearInterval((victim as unknown as { heartbeat: NodeJS.Timeout }).heartbeat);
        await until(async () => runs.length, (n) => n === 2, 30_000);
        expect(runs[1]).toMatchObject({ id, retryCount: 1 });
      } finally {
        release();
        await victim.stop();
        await rescuer.stop();
      }
      expect((await db.query('SELECT 1 FROM queue_running')).rows).toEqual([]);
    });
  });
});
