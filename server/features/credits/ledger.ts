/**
 * The credits ledger. Grants are immutable batches with an expiry. Spends and refunds are append-only entries;
 * their allocations say which batches they drew from (refunds allocate negative amounts back to the same batches).
 *
 *   batch remainder = amount − Σ allocations;  balance = Σ remainders of batches not yet expired.
 *
 * Every spend locks the user's row, so concurrent spends of one user run one after another and the balance
 * can never go below zero; an idempotency key makes a repeated spend charge once.
 */
import { MSG } from '../../../src/contract';
import type { Db, Queryable } from '../../infra/db';
import { ApiError } from '../../infra/http';

export class InsufficientCreditsError extends Error {
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(`needs ${needed} credits, has ${available}`);
  }
}

export interface SpendResult {
  entryId: number;
  /** false when the idempotency key had already been charged (nothing new was spent). */
  charged: boolean;
}

export async function grantCredits(
  q: Queryable,
  grant: { userId: number; amount: number; expiresAt: Date; source: string; sourceRef?: string },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO credit_batches (user_id, amount, expires_at, source, source_ref) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [grant.userId, grant.amount, grant.expiresAt, grant.source, grant.sourceRef ?? ''],
  );
  return rows[0]!.id;
}

export interface LiveBatch {
  id: number;
  remaining: number;
  expiresAt: Date;
}

/** Live batches with something left, earliest expiry first (the order spends draw in). */
export async function liveBatches(q: Queryable, userId: number): Promise<LiveBatch[]> {
  const { rows } = await q.query<{ id: number; remaining: number; expires_at: Date }>(
    `SELECT b.id, (b.amount - COALESCE(SUM(a.amount), 0))::int AS remaining, b.expires_at
       FROM credit_batches b LEFT JOIN credit_allocations a ON a.batch_id = b.id
      WHERE b.user_id = $1 AND b.expires_at > now()
      GROUP BY b.id
     HAVING b.amount - COALESCE(SUM(a.amount), 0) > 0
      ORDER BY b.expires_at, b.id`,
    [userId],
  );
  return rows.map((r) => ({ id: r.id, remaining: Number(r.remaining), expiresAt: r.expires_at }));
}

export async function creditBalance(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ balance: number }>(
    `SELECT COALESCE(SUM(b.amount - COALESCE(a.used, 0)), 0)::int AS balance
       FROM credit_batches b
       LEFT JOIN (SELECT batch_id, SUM(amount) AS used FROM credit_allocations GROUP BY batch_id) a ON a.batch_id = b.id
      WHERE b.user_id = $1 AND b.expires_at > now()`,
    [userId],
  );
  return Number(rows[0]?.balance ?? 0);
}

async function lockUser(q: Queryable, userId: number): Promise<void> {
  const { rowCount } = await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  if (rowCount === 0) throw new Error(`no user ${userId}`);
}

/** Spends inside the caller's transaction (so a spend and what it pays for commit together). */
export async function spendIn(q: Queryable, spend: { userId: number; amount: number; action: string; key: string }): Promise<SpendResult> {
  if (!Number.isInteger(spend.amount) || spend.amount <= 0) throw new Error(`spend amount must be a positive integer, got ${spend.amount}`);
  await lockUser(q, spend.userId);
  const { rows: done } = await q.query<{ id: number }>(
    `SELECT id FROM credit_entries WHERE user_id = $1 AND idempotency_key = $2 AND kind = 'spend'`,
    [spend.userId, spend.key],
  );
  if (done[0]) return { entryId: done[0].id, charged: false };

  const batches = await liveBatches(q, spend.userId);
  const available = batches.reduce((s, b) => s + b.remaining, 0);
  if (available < spend.amount) throw new InsufficientCreditsError(spend.amount, available);

  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO credit_entries (user_id, kind, amount, action_name, idempotency_key) VALUES ($1, 'spend', $2, $3, $4) RETURNING id`,
    [spend.userId, spend.amount, spend.action, spend.key],
  );
  const entryId = rows[0]!.id;
  let left = spend.amount;
  for (const batch of batches) {
    if (left === 0) break;
    const take = Math.min(left, batch.remaining);
    await q.query('INSERT INTO credit_allocations (entry_id, batch_id, amount) VALUES ($1, $2, $3)', [entryId, batch.id, take]);
    left -= take;
  }
  return { entryId, charged: true };
}

/** spendIn for a user's request: a balance that does not cover the spend answers them MSG.insufficientCredits. */
export async function spendOrRefuse(q: Queryable, spend: { userId: number; amount: number; action: string; key: string }): Promise<SpendResult> {
  try {
    return await spendIn(q, spend);
  } catch (err) {
    if (err instanceof InsufficientCreditsError) throw new ApiError(MSG.insufficientCredits);
    throw err;
  }
}

export function spendCredits(db: Db, spend: { userId: number; amount: number; action: string; key: string }): Promise<SpendResult> {
  return db.tx((q) => spendIn(q, spend));
}

/**
 * Returns up to `amount` of a spend to the batches it drew from (latest drawn first), once per key.
 * Returns what was actually refunded (never more than the spend has left).
 */
export async function refundIn(q: Queryable, refund: { userId: number; spendEntryId: number; amount: number; action: string; key: string }): Promise<number> {
  await lockUser(q, refund.userId);
  const { rows: done } = await q.query<{ amount: number }>(
    `SELECT amount FROM credit_entries WHERE user_id = $1 AND idempotency_key = $2 AND kind = 'refund'`,
    [refund.userId, refund.key],
  );
  if (done[0]) return Number(done[0].amount);

  // What each batch still holds of this spend: its allocation minus earlier refunds of it.
  const { rows: held } = await q.query<{ batch_id: number; held: number }>(
    `SELECT a.batch_id, SUM(a.amount)::int AS held
       FROM credit_allocations a JOIN credit_entries e ON e.id = a.entry_id
      WHERE e.user_id = $1 AND (e.id = $2 OR e.refund_of = $2)
      GROUP BY a.batch_id
     HAVING SUM(a.amount) > 0
      ORDER BY a.batch_id DESC`,
    [refund.userId, refund.spendEntryId],
  );
  const refundable = held.reduce((s, h) => s + Number(h.held), 0);
  const amount = Math.min(refund.amount, refundable);
  if (amount <= 0) return 0;

  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO credit_entries (user_id, kind, amount, action_name, idempotency_key, refund_of) VALUES ($1, 'refund', $2, $3, $4, $5) RETURNING id`,
    [refund.userId, amount, refund.action, refund.key, refund.spendEntryId],
  );
  let left = amount;
  for (const h of held) {
    if (left === 0) break;
    const give = Math.min(left, Number(h.held));
    await q.query('INSERT INTO credit_allocations (entry_id, batch_id, amount) VALUES ($1, $2, $3)', [rows[0]!.id, h.batch_id, -give]);
    left -= give;
  }
  return amount;
}

export function refundCredits(db: Db, refund: { userId: number; spendEntryId: number; amount: number; action: string; key: string }): Promise<number> {
  return db.tx((q) => refundIn(q, refund));
}

export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);
