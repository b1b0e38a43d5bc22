import { describe, expect, it } from 'vitest';
import { JOB_NAMES, MissingJobHandlerError } from './queue';
import { DB_KINDS, useApp } from '../../tests/support/app';

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
});
