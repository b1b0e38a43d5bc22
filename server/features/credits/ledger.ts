/**
 * The credits ledger: batches (grants with an expiry) and append-only spend/refund entries with their allocations.
 * A batch's live remainder = amount − what entries drew from it (refunds allocate negatively); expired batches count 0.
 */
import type { Queryable } from '../../infra/db';

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

export const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000);
