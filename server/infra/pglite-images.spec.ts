import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { pgliteImage } from '../../tests/support/pglite-template';
import { openPglite } from './db';
import { giveBack, openImage } from './pglite-images';

function runImage(): string {
  const image = pgliteImage();
  if (!image) throw new Error("no PGlite image: the server project's global set-up makes one");
  return image;
}

/** What a test could see of a database's data and session: seeded and written rows, sequences, a setting. */
async function seen(pg: PGlite) {
  const rows = async (sql: string) => (await pg.query(sql)).rows;
  return {
    themes: await rows('SELECT id, name, sort, created_at FROM writing_themes ORDER BY id'),
    topics: await rows('SELECT count(*)::int AS n FROM writing_topics'),
    users: await rows('SELECT id, username FROM users ORDER BY id'),
    sequences: await rows(`SELECT sequencename, last_value::text FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`),
    timeout: await rows('SHOW statement_timeout'),
  };
}

describe('in-memory test databases given back (pglite-images)', () => {
  // Every test gives back what it opened: a spare of this process serves the specs after it.
  const open = () => openImage(runImage());
  const back = (pg: PGlite) => giveBack(runImage(), pg);
  /** Gives `pg` back and says whether it was closed rather than kept. */
  const closedOnGivingBack = async (pg: PGlite) => {
    await back(pg);
    return pg.closed;
  };

  it('hands the next opener the same database in the state of the dump: rows, sequences and session as loaded', async () => {
    const first = await open();
    const fresh = await seen(first);
    expect(fresh.themes.length).toBeGreaterThan(0);
    expect(fresh.users).toEqual([]);

    await first.exec(`
      INSERT INTO users (username, password_hash) VALUES ('13800000000', 'x');
      INSERT INTO writing_themes (name) VALUES ('一个新主题');
      UPDATE writing_themes SET sort = 99 WHERE id = 2;
      DELETE FROM writing_themes WHERE id = 1;
      SET statement_timeout = 1234;
      PREPARE left_behind AS SELECT 1;
    `);
    expect(await seen(first)).not.toEqual(fresh);
    expect(await closedOnGivingBack(first)).toBe(false);

    const second = await open();
    expect(second).toBe(first);
    expect(await seen(second)).toEqual(fresh);
    // The statement name is free again, and ids start where a loaded dump's do.
    await second.exec('PREPARE left_behind AS SELECT 1');
    expect((await second.query<{ id: number }>(`INSERT INTO users (username, password_hash) VALUES ('13800000001', 'x') RETURNING id`)).rows).toEqual([{ id: 1 }]);
    await back(second);
  });

  it('closes a database whose schema a test changed, and loads a fresh one for the next opener', async () => {
    const changed = await open();
    await changed.exec('CREATE TABLE scratch (id int)');
    expect(await closedOnGivingBack(changed)).toBe(true);

    const next = await open();
    expect(next).not.toBe(changed);
    expect((await next.query('SELECT to_regclass($1) AS t', ['scratch'])).rows).toEqual([{ t: null }]);
    await back(next);
  });

  it('closes a database given back inside an open transaction', async () => {
    const busy = await open();
    await busy.exec('BEGIN');
    expect(await closedOnGivingBack(busy)).toBe(true);
  });

  it("refuses every query of a server's database once that server has closed it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-images-'));
    try {
      const db = await openPglite(dataDir, runImage());
      expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await db.close();
      await expect(db.query('SELECT 1')).rejects.toThrow('the database is closed');
      await expect(db.exec('SELECT 1')).rejects.toThrow('the database is closed');
      await expect(db.tx(async (q) => q.query('SELECT 1'))).rejects.toThrow('the database is closed');
      await expect(db.repeated('SELECT 1')).rejects.toThrow('the database is closed');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
