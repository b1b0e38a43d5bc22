/**
 * What every feature table of paid records shares (one row a request, with id, user_id and spend_entry_id): its
 * repository extends this with the table's own statements. Table names come from code, never from a request.
 */
import type { Queryable } from './db';

export class PaidRecords<Row> {
  constructor(
    protected readonly q: Queryable,
    private readonly table: string,
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
