/**
 * Batch creation: check the rows, submit them whole (each row an ordinary work, reserved together: one short balance
 * or one bad row refuses everything), list and read batches, cancel the rows not started, retry the failed ones.
 */
import { API, BatchRowStatus, MSG, type BatchCounts } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { cancelQueuedWork } from '../works';
import { BatchRepository, rowStatus } from './batch.repository';
import { checkRow, checkRows, queueRow } from './batch.service';
import { zipBatch } from './batch.zip';

const countsOf = (statuses: readonly number[]): BatchCounts => {
  const n = (s: number) => statuses.filter((x) => x === s).length;
  return { queued: n(BatchRowStatus.Queued), running: n(BatchRowStatus.Rendering), done: n(BatchRowStatus.Done), failed: n(BatchRowStatus.Failed), cancelled: n(BatchRowStatus.Cancelled) };
};

export function registerBatchRoutes(ctx: FeatureContext): void {
  const { router, db } = ctx;
  const batches = new BatchRepository(db);

  const ownBatch = async (id: number, userId: number) => {
    const batch = await batches.own(id, userId);
    if (!batch) throw new ApiError(MSG.batchMissing);
    return batch;
  };

  router.handle(API.batch.check, async ({ params, user }) => {
    const rows = (await checkRows(ctx, db, user.id, params.rows)).map((r) => ('error' in r ? { index: r.index, error: r.error, credits: 0 } : { index: r.index, credits: r.plan.reserved }));
    return { rows, total: rows.reduce((sum, r) => sum + r.credits, 0) };
  });

  router.handle(API.batch.create, async ({ params, user }) => {
    const rows = await checkRows(ctx, db, user.id, params.rows);
    const bad = rows.flatMap((r) => ('error' in r ? [{ index: r.index, error: r.error }] : []));
    if (bad.length) throw new ApiError(MSG.batchRejected(bad));
    // One transaction: every row's reservation fits, or 积分不足 and nothing is queued.
    return db.tx(async (q) => {
      const repo = new BatchRepository(q);
      const id = await repo.add(user.id, params.name);
      for (const row of rows) await repo.addRow(id, row.index, row.name, row.fields, await queueRow(ctx, q, user.id, row));
      return { id };
    });
  });

  router.handle(API.batch.list, async ({ params, user }) => {
    const { limit, offset } = requestedPage(params, 20, 100);
    const { total, list } = await batches.list(user.id, limit, offset);
    return {
      total,
      list: list.map((b) => ({
        id: b.id, name: b.name, create_time: formatDateTime(b.created_at), total: Number(b.total),
        counts: { queued: Number(b.queued), running: Number(b.running), done: Number(b.done), failed: Number(b.failed), cancelled: Number(b.cancelled) },
      })),
    };
  });

  router.handle(API.batch.detail, async ({ params, user }) => {
    const batch = await ownBatch(params.id, user.id);
    const rows = (await batches.rows(batch.id)).map((r) => ({
      index: r.idx, name: r.name, status: rowStatus(r), work_id: r.work_id ?? 0, ...(r.reason && rowStatus(r) !== BatchRowStatus.Done ? { reason: r.reason } : {}),
    }));
    return { id: batch.id, name: batch.name, create_time: formatDateTime(batch.created_at), rows, counts: countsOf(rows.map((r) => r.status)) };
  });

  router.handle(API.batch.cancel, async ({ params, user }) => {
    const batch = await ownBatch(params.id, user.id);
    let cancelled = 0;
    for (const row of await batches.rows(batch.id)) {
      if (rowStatus(row) !== BatchRowStatus.Queued || !row.work_id) continue;
      // Only a work still queued is cancelled: one its render took meanwhile runs on.
      if (await cancelQueuedWork(ctx, row.work_id, user.id, MSG.batchRowCancelled)) {
        await batches.markCancelled(batch.id, row.idx);
        cancelled += 1;
      }
    }
    if (!cancelled) throw new ApiError(MSG.batchNothingToCancel);
    return { cancelled };
  });

  router.handle(API.batch.zip, async ({ params, user }) => {
    const batch = await ownBatch(params.id, user.id);
    const key = await zipBatch(ctx, user.id, batch.id);
    if (!key) throw new ApiError(MSG.batchNothingDone);
    return { url: ctx.urls.url(key, { download: true }) };
  });

  router.handle(API.batch.retry, async ({ params, user }) => {
    const batch = await ownBatch(params.id, user.id);
    const failed = (await batches.rows(batch.id)).filter((r) => rowStatus(r) === BatchRowStatus.Failed);
    if (!failed.length) throw new ApiError(MSG.batchNothingToRetry);
    const checked = await Promise.all(failed.map((r) => checkRow(ctx, db, user.id, r.fields, r.idx)));
    const bad = checked.flatMap((r) => ('error' in r ? [{ index: r.index, error: r.error }] : []));
    if (bad.length) throw new ApiError(MSG.batchRejected(bad));
    await db.tx(async (q) => {
      const repo = new BatchRepository(q);
      for (const row of checked) await repo.setWork(batch.id, row.index, await queueRow(ctx, q, user.id, row));
    });
    return { retried: checked.length };
  });
}
