/**
 * A batch's rows checked exactly as works.create checks a submission (its request schema, then planWork), so the
 * preview grid (batch.check), the whole-batch refusal (batch.create) and a retry agree on every row.
 */
import { API, MSG, type BatchRowFields } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { planWork, queueWork, type Submission, type WorkPlan } from '../works';

export type CheckedRow = { index: number; fields: BatchRowFields; name: string } & ({ error: string } | { submission: Submission; plan: WorkPlan });

/** One row (1-based `index`): its own Chinese error, or the submission and plan its work will have. */
export async function checkRow(ctx: FeatureContext, q: Queryable, userId: number, fields: BatchRowFields, index: number): Promise<CheckedRow> {
  const parsed = API.works.create.request.safeParse({ ...fields });
  const base = { index, fields, name: fields.name?.trim() ?? '' };
  if (!parsed.success) return { ...base, error: parsed.error.issues[0]?.message ?? MSG.batchRowsInvalid };
  try {
    return { ...base, name: parsed.data.name, submission: parsed.data, plan: await planWork(ctx, q, userId, parsed.data) };
  } catch (err) {
    if (err instanceof ApiError) return { ...base, error: err.message };
    throw err;
  }
}

export const checkRows = (ctx: FeatureContext, q: Queryable, userId: number, rows: readonly BatchRowFields[]) =>
  Promise.all(rows.map((fields, i) => checkRow(ctx, q, userId, fields, i + 1)));

/** Inside the submitting transaction: the checked row's work added, reserved and queued (its id). */
export function queueRow(ctx: FeatureContext, q: Queryable, userId: number, row: CheckedRow): Promise<number> {
  if ('error' in row) throw new ApiError(MSG.batchRejected([row]));
  return queueWork(ctx, q, userId, row.submission, row.plan);
}
