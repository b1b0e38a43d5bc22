import { beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, useApp } from '../../tests/support/app';
import { creditBalance, refundIn, spendIn } from '../features/credits';
import { JOB_RETRY_LIMIT } from './queue';
import { JobRefused, runPaidJob, type PaidJob } from './paid-job';

/** A paid record of the smallest kind: a reservation at submit, open until the job settles or fails it. */
interface ProbeRow {
  id: number;
  user_id: number;
  status: string;
  reason: string;
  spend_entry_id: number;
}

const RESERVED = 30;

describe.each(DB_KINDS)('paid-job runner (%s)', (kind) => {
  const t = useApp(kind);
  let n = 0;

  beforeAll(async () => {
    await t.app.ctx.db.query(
      `CREATE TABLE IF NOT EXISTS paid_job_probe (id serial PRIMARY KEY, user_id int NOT NULL, status text NOT NULL DEFAULT 'open', reason text NOT NULL DEFAULT '', spend_entry_id int NOT NULL)`,
    );
  });

  /** A user with 100 credits who submitted one record: 30 reserved. */
  async function submitted(): Promise<{ userId: number; id: number }> {
    const userId = await t.createUser(`1340000${String(++n).padStart(4, '0')}`, 'abc123', 100);
    const db = t.app.ctx.db;
    const { rows } = await db.query<{ id: number }>(`INSERT INTO paid_job_probe (user_id, spend_entry_id) VALUES ($1, 0) RETURNING id`, [userId]);
    const id = rows[0]!.id;
    const spend = await db.tx((q) => spendIn(q, { userId, amount: RESERVED, action: '探针', key: `probe:${id}` }));
    await db.query('UPDATE paid_job_probe SET spend_entry_id = $2 WHERE id = $1', [id, spend.entryId]);
    return { userId, id };
  }

  const row = async (id: number) => (await t.app.ctx.db.query<ProbeRow>('SELECT * FROM paid_job_probe WHERE id = $1', [id])).rows[0];

  /** The feature's part: steps given by the test, fail as every feature writes it (locked, once, refund by key). */
  function probeJob(id: number, run: PaidJob<ProbeRow>['run'], extra: Partial<PaidJob<ProbeRow>> = {}): PaidJob<ProbeRow> & { ran: number } {
    const spec = {
      ran: 0,
      load: () => row(id),
      isOpen: (r: ProbeRow) => r.status === 'open',
      run: async (r: ProbeRow, info: { lastAttempt: boolean }) => {
        spec.ran++;
        await run(r, info);
      },
      fail: (r: ProbeRow, reason: string) =>
        t.app.ctx.db.tx(async (q) => {
          const { rowCount } = await q.query(`UPDATE paid_job_probe SET status = 'failed', reason = $2 WHERE id = $1 AND status = 'open'`, [r.id, reason]);
          if (rowCount) await refundIn(q, { userId: r.user_id, spendEntryId: r.spend_entry_id, amount: RESERVED, action: '探针失败退回', key: `probe:${r.id}:failed` });
        }),
      lastReason: '处理失败，积分已退回',
      ...extra,
    };
    return spec;
  }

  const settle = (id: number) => async () => {
    await t.app.ctx.db.query(`UPDATE paid_job_probe SET status = 'done' WHERE id = $1 AND status = 'open'`, [id]);
  };

  it('a transient error before the last attempt is thrown back to the queue: the record stays open, the credits reserved', async () => {
    const { userId, id } = await submitted();
    const boom = new Error('disk hiccup');
    let sawLast: boolean | undefined;
    const job = probeJob(id, async (_r, info) => {
      sawLast = info.lastAttempt;
      throw boom;
    });
    await expect(runPaidJob({ retryCount: JOB_RETRY_LIMIT - 1 }, job)).rejects.toBe(boom);
    expect(sawLast).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'open', reason: '' });
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(100 - RESERVED);
  });

  it('the last attempt fails the record with its Chinese reason and refunds exactly what was reserved, once however often it runs', async () => {
    const { userId, id } = await submitted();
    const failing = () => probeJob(id, async () => {
      throw new Error('still down');
    });
    // Two runs of the last attempt at once (a worker thought dead, and its retry), then the one run past the limit.
    await Promise.all([runPaidJob({ retryCount: JOB_RETRY_LIMIT }, failing()), runPaidJob({ retryCount: JOB_RETRY_LIMIT }, failing())]);
    const late = failing();
    await runPaidJob({ retryCount: JOB_RETRY_LIMIT + 1 }, late);
    expect(late.ran).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'failed', reason: '处理失败，积分已退回' });
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(100);
    const { rows } = await t.app.ctx.db.query<{ n: number; total: number }>(
      `SELECT count(*)::int AS n, COALESCE(SUM(amount), 0)::int AS total FROM credit_entries WHERE user_id = $1 AND kind = 'refund'`,
      [userId],
    );
    expect(rows[0]).toEqual({ n: 1, total: RESERVED });
  });

  it('the last-attempt reason may come from the error', async () => {
    const { id } = await submitted();
    const job = probeJob(id, async () => {
      throw new Error('引擎繁忙');
    }, { lastReason: (err) => `${(err as Error).message}，积分已退回` });
    await runPaidJob({ retryCount: JOB_RETRY_LIMIT }, job);
    expect(await row(id)).toMatchObject({ status: 'failed', reason: '引擎繁忙，积分已退回' });
  });

  it('a permanent error (the feature says so, or a JobRefused) fails the record on the first attempt and refunds it', async () => {
    for (const [error, reason] of [[new RangeError('bad input'), '素材无法使用'], [new JobRefused('源视频已不存在'), '源视频已不存在']] as const) {
      const { userId, id } = await submitted();
      const job = probeJob(id, async () => {
        throw error;
      }, { permanent: (err) => (err instanceof RangeError ? '素材无法使用' : undefined) });
      await runPaidJob({ retryCount: 0 }, job);
      expect(await row(id)).toMatchObject({ status: 'failed', reason });
      expect(await creditBalance(t.app.ctx.db, userId)).toBe(100);
    }
  });

  it('a retried job that finds its work done does nothing, even on its last attempt; a record gone is left alone', async () => {
    const { userId, id } = await submitted();
    await runPaidJob({ retryCount: 0 }, probeJob(id, settle(id)));
    const retried = probeJob(id, async () => {
      throw new Error('must not run');
    });
    await runPaidJob({ retryCount: JOB_RETRY_LIMIT }, retried);
    expect(retried.ran).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'done', reason: '' });
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(100 - RESERVED);

    const gone = probeJob(-1, settle(-1));
    await runPaidJob({ retryCount: JOB_RETRY_LIMIT }, gone);
    expect(gone.ran).toBe(0);
  });

  it('work that ends after settling (its error comes too late) is not failed or refunded', async () => {
    const { userId, id } = await submitted();
    await runPaidJob({ retryCount: JOB_RETRY_LIMIT }, probeJob(id, async () => {
      await settle(id)();
      throw new Error('cleanup failed after the settle');
    }));
    expect(await row(id)).toMatchObject({ status: 'done', reason: '' });
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(100 - RESERVED);
  });
});
