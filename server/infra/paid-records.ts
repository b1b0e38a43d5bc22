/**
 * What every feature table of paid records shares (one row a request, with id, user_id and spend_entry_id): its
 * repository extends this with the table's own statements. Table names come from code, never from a request.
 */
import type { Queryable } from './db';
import { ApiError } from './http';

export class PaidRecords<Row> {
  constructor(
    protected readonly q: Queryable,
    protected readonly table: string,
  ) {}

  /** Links the record to the credit entry that paid for it (its refund goes back under that entry). */
  async setSpend(id: number, entryId: number): Promise<void> {
    await this.q.query(`UPDATE ${this.table} SET spend_entry_id = $2 WHERE id = $1`, [id, entryId]);
  }

  async get(id: number): Promise<Row | undefined> {
    return (await this.q.query<Row>(`SELECT * FROM ${this.table} WHERE id = $1`, [id])).rows[0];
  }

  /** The user's record, whatever its state; undefined for another user's. */
  async own(id: number, userId: number): Promise<Row | undefined> {
    return (await this.q.query<Row>(`SELECT * FROM ${this.table} WHERE id = $1 AND user_id = $2`, [id, userId])).rows[0];
  }
}

/** Which statuses a job's record goes through: in progress while one of `open`, then `failed` when it fails. */
export interface JobStatuses {
  failed: number;
  open: readonly number[];
}

/** What a failed record gives back: what it reserved, under the spend that paid for it. */
export interface FailedRefund {
  userId: number;
  spendEntryId: number;
  amount: number;
}

/** Paid records that a job works on: failing one in progress, and deleting one that is no longer. */
export class JobRecords<Row extends { user_id: number; spend_entry_id: number | null }> extends PaidRecords<Row> {
  constructor(
    q: Queryable,
    table: string,
    private readonly statuses: JobStatuses,
    /** What the record reserved at submit (and gives back when it fails). */
    private readonly reserved: (row: Row) => number,
  ) {
    super(q, table);
  }

  /** Fails an in-progress record with its reason; answers the row as it was (so it refunds once), or undefined. */
  async fail(id: number, reason: string): Promise<Row | undefined> {
    const { rows } = await this.q.query<Row>(
      `UPDATE ${this.table} t SET status = $2, reason = $3, finished_at = now() FROM ${this.table} old
        WHERE t.id = $1 AND old.id = t.id AND t.status = ANY($4) RETURNING old.*`,
      [id, this.statuses.failed, reason, [...this.statuses.open]],
    );
    return rows[0];
  }

  /**
   * Fails an in-progress paid record with the reason `reason` words (told whether what it reserved goes back); answers
   * the row as it was and its refund (null when it paid nothing), for the caller to make in the same transaction; or
   * undefined when it was no longer in progress.
   */
  async failPaid(id: number, reason: (refunded: boolean) => string): Promise<{ old: Row; refund: FailedRefund | null } | undefined> {
    const record = await this.get(id);
    if (!record) return undefined;
    const refunded = record.spend_entry_id !== null && Number(this.reserved(record)) > 0;
    const old = await this.fail(id, reason(refunded));
    if (!old) return undefined;
    return { old, refund: refunded ? { userId: old.user_id, spendEntryId: old.spend_entry_id!, amount: Number(this.reserved(old)) } : null };
  }

  /** Deletes a finished or failed record of the user's; answers it (for its objects), or undefined. */
  async remove(id: number, userId: number): Promise<Row | undefined> {
    const { rows } = await this.q.query<Row>(`DELETE FROM ${this.table} WHERE id = $1 AND user_id = $2 AND NOT (status = ANY($3)) RETURNING *`, [
      id, userId, [...this.statuses.open],
    ]);
    return rows[0];
  }

  /** Deletes the user's record for a delete call: refused with `missing` when it is not theirs, `busy` while in progress. */
  async removeFinished(id: number, userId: number, refusals: { missing: string; busy: string }): Promise<Row> {
    if (!(await this.own(id, userId))) throw new ApiError(refusals.missing);
    const removed = await this.remove(id, userId);
    if (!removed) throw new ApiError(refusals.busy);
    return removed;
  }
}
