/** Every SQL statement of batches: a batch, its rows and the state of each row's work. */
import { BatchRowStatus, WorkStatus, type BatchCounts, type BatchRowFields } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface BatchRowState {
  idx: number;
  name: string;
  fields: BatchRowFields;
  work_id: number | null;
  cancelled: boolean;
  work_status: number | null;
  reason: string | null;
  video_key: string | null;
  srt_key: string | null;
}

/** A row's state: its work's, unless it was cancelled before it started. */
export const rowStatus = (r: Pick<BatchRowState, 'cancelled' | 'work_status'>): number =>
  r.cancelled ? BatchRowStatus.Cancelled : Number(r.work_status ?? BatchRowStatus.Failed);

const COUNTS = `count(*) FILTER (WHERE NOT r.cancelled AND w.status = ${WorkStatus.Queued})::int AS queued,
  count(*) FILTER (WHERE NOT r.cancelled AND w.status = ${WorkStatus.Rendering})::int AS running,
  count(*) FILTER (WHERE NOT r.cancelled AND w.status = ${WorkStatus.Success})::int AS done,
  count(*) FILTER (WHERE NOT r.cancelled AND (w.status = ${WorkStatus.Failed} OR w.id IS NULL))::int AS failed,
  count(*) FILTER (WHERE r.cancelled)::int AS cancelled`;

export class BatchRepository {
  constructor(private readonly q: Queryable) {}

  async add(userId: number, name: string): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>('INSERT INTO batches (user_id, name) VALUES ($1, $2) RETURNING id', [userId, name]);
    return rows[0]!.id;
  }

  async addRow(batchId: number, idx: number, name: string, fields: BatchRowFields, workId: number): Promise<void> {
    await this.q.query('INSERT INTO batch_rows (batch_id, idx, name, fields, work_id) VALUES ($1, $2, $3, $4, $5)', [batchId, idx, name, JSON.stringify(fields), workId]);
  }

  /** The user's own batch; undefined for anyone else's. */
  async own(id: number, userId: number): Promise<{ id: number; name: string; created_at: Date } | undefined> {
    const { rows } = await this.q.query<{ id: number; name: string; created_at: Date }>('SELECT id, name, created_at FROM batches WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows[0];
  }

  async rows(batchId: number): Promise<BatchRowState[]> {
    const { rows } = await this.q.query<BatchRowState & { fields: string }>(
      `SELECT r.idx, r.name, r.fields, r.work_id, r.cancelled, w.status AS work_status, w.reason, w.video_key, w.srt_key
         FROM batch_rows r LEFT JOIN works w ON w.id = r.work_id WHERE r.batch_id = $1 ORDER BY r.idx`,
      [batchId],
    );
    return rows.map((r) => ({ ...r, idx: Number(r.idx), fields: JSON.parse(r.fields) as BatchRowFields }));
  }

  /** Keeps the batch's new zip; answers the one it replaces ('' when none). */
  async replaceZip(batchId: number, key: string): Promise<string> {
    const { rows } = await this.q.query<{ old: string }>('UPDATE batches b SET zip_key = $2 FROM batches o WHERE b.id = $1 AND o.id = b.id RETURNING o.zip_key AS old', [batchId, key]);
    return rows[0]?.old ?? '';
  }

  async markCancelled(batchId: number, idx: number): Promise<void> {
    await this.q.query('UPDATE batch_rows SET cancelled = true WHERE batch_id = $1 AND idx = $2', [batchId, idx]);
  }

  async setWork(batchId: number, idx: number, workId: number): Promise<void> {
    await this.q.query('UPDATE batch_rows SET work_id = $3 WHERE batch_id = $1 AND idx = $2', [batchId, idx, workId]);
  }

  async list(userId: number, limit: number, offset: number): Promise<{ total: number; list: ({ id: number; name: string; created_at: Date; total: number } & BatchCounts)[] }> {
    const total = (await this.q.query<{ n: number }>('SELECT count(*)::int AS n FROM batches WHERE user_id = $1', [userId])).rows[0]!.n;
    const { rows } = await this.q.query<{ id: number; name: string; created_at: Date; total: number } & BatchCounts>(
      `SELECT b.id, b.name, b.created_at, count(r.idx)::int AS total, ${COUNTS}
         FROM batches b LEFT JOIN batch_rows r ON r.batch_id = b.id LEFT JOIN works w ON w.id = r.work_id
        WHERE b.user_id = $1 GROUP BY b.id ORDER BY b.id DESC LIMIT ${limit} OFFSET ${offset}`,
      [userId],
    );
    return { total: Number(total), list: rows };
  }
}
