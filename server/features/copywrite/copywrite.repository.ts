/** Every SQL statement of copy extraction records. */
import { CopywriteStatus, type CopySegment, type CopySource } from '../../../src/contract';
import { pageOfUser, type Queryable } from '../../infra/db';
import { PaidRecords } from '../../infra/paid-records';
import { SQL_TODAY_CST } from '../../infra/time';

/** A submitted video and the copy read from it: what a copy record and a super replica video analysis both hold. */
export interface VideoCopyRow {
  id: number;
  user_id: number;
  way: number;
  link: string;
  file_id: number | null;
  title: string;
  status: number;
  reason: string;
  text: string;
  segments: CopySegment[];
  cover_key: string;
  duration: number;
  spend_entry_id: number | null;
  created_at: Date;
}

export interface CopyRow extends VideoCopyRow {
  source: CopySource | '';
  free: boolean;
}

/** A lock id of its own, so two submits of one user count the free extractions one after the other. */
const FREE_COUNT_LOCK = 7151;
const OPEN = [CopywriteStatus.Queued, CopywriteStatus.Running];

export class CopywriteRepository extends PaidRecords<CopyRow> {
  constructor(q: Queryable) {
    super(q, 'copy_records');
  }

  /** Free extractions used today (a failed one does not count: it was given back). */
  async freeUsedToday(userId: number, lock = false): Promise<number> {
    if (lock) await this.q.query('SELECT pg_advisory_xact_lock($1, $2)', [FREE_COUNT_LOCK, userId]);
    const { rows } = await this.q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM copy_records WHERE user_id = $1 AND free AND status <> $2 AND created_at >= ${SQL_TODAY_CST}`,
      [userId, CopywriteStatus.Failed],
    );
    return Number(rows[0]!.n);
  }

  async add(r: { userId: number; way: number; link: string; fileId: number | null; title: string; free: boolean }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO copy_records (user_id, way, link, file_id, title, status, free) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
      [r.userId, r.way, r.link, r.fileId, r.title, CopywriteStatus.Queued, r.free],
    );
    return rows[0]!.id;
  }

  /** Newest first; only record `id` when given. */
  list(userId: number, p: { limit: number; offset: number; id?: number }): Promise<{ rows: CopyRow[]; total: number }> {
    return pageOfUser<CopyRow>(this.q, 'copy_records', userId, p, { id: p.id });
  }

  /** Queued → being read (a retried job finds it already so). */
  async start(id: number): Promise<void> {
    await this.q.query('UPDATE copy_records SET status = $2 WHERE id = $1 AND status = $3', [id, CopywriteStatus.Running, CopywriteStatus.Queued]);
  }

  /** Finishes an open record with its copy; false when it was no longer open (a repeated job, or deleted). */
  async succeed(id: number, r: { source: CopySource; text: string; segments: CopySegment[]; title: string; coverKey: string; duration: number }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE copy_records SET status = $2, source = $3, text = $4, segments = $5, title = CASE WHEN $6 = '' THEN title ELSE $6 END, cover_key = $7,
              duration = $8, finished_at = now()
        WHERE id = $1 AND status = ANY($9)`,
      [id, CopywriteStatus.Done, r.source, r.text, JSON.stringify(r.segments), r.title, r.coverKey, r.duration, OPEN],
    );
    return rowCount > 0;
  }

  /** Fails an open record with its reason (worded for a free or a paid one); answers the row when this call failed it. */
  async fail(id: number, reason: { free: string; paid: string }): Promise<CopyRow | undefined> {
    const { rows } = await this.q.query<CopyRow>(
      'UPDATE copy_records SET status = $2, reason = CASE WHEN free THEN $3 ELSE $4 END, finished_at = now() WHERE id = $1 AND status = ANY($5) RETURNING *',
      [id, CopywriteStatus.Failed, reason.free, reason.paid, OPEN],
    );
    return rows[0];
  }

  /** The user's edit of a finished record's copy; false when there is no such record. */
  async editText(id: number, userId: number, text: string): Promise<boolean> {
    const { rowCount } = await this.q.query('UPDATE copy_records SET text = $3 WHERE id = $1 AND user_id = $2 AND status = $4', [id, userId, text, CopywriteStatus.Done]);
    return rowCount > 0;
  }

  /** Deletes the user's record; answers it (for its cover) or undefined. */
  async remove(id: number, userId: number): Promise<CopyRow | undefined> {
    return (await this.q.query<CopyRow>('DELETE FROM copy_records WHERE id = $1 AND user_id = $2 RETURNING *', [id, userId])).rows[0];
  }
}
