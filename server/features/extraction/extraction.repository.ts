/** Every SQL statement of video and audio extraction records, and of saving one to the material library. */
import { ExtractionStatus, MaterialSource } from '../../../src/contract';
import { pageOfUser, type Queryable } from '../../infra/db';
import { PaidRecords } from '../../infra/paid-records';
import { SQL_TODAY_CST } from '../../infra/time';

/** 1 video extraction, 2 audio extraction. */
export const ExtractionType = { Video: 1, Audio: 2 } as const;
export type ExtractionTypeValue = (typeof ExtractionType)[keyof typeof ExtractionType];

export interface ExtractionRow {
  id: number;
  user_id: number;
  kind: number;
  way: number;
  link: string;
  file_id: number | null;
  status: number;
  reason: string;
  description: string;
  media_key: string;
  cover_key: string;
  size: number;
  duration: number;
  free: boolean;
  spend_entry_id: number | null;
  created_at: Date;
}

/** A lock id of its own, so two submits of one user count the free extractions one after the other. */
const FREE_COUNT_LOCK = 7150;

export class ExtractionRepository extends PaidRecords<ExtractionRow> {
  constructor(q: Queryable) {
    super(q, 'analyses');
  }

  /** Free extractions of this kind used today (a failed one does not count: it was given back). */
  async freeUsedToday(userId: number, kind: ExtractionTypeValue, lock = false): Promise<number> {
    if (lock) await this.q.query('SELECT pg_advisory_xact_lock($1, $2)', [FREE_COUNT_LOCK, userId]);
    const { rows } = await this.q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM analyses WHERE user_id = $1 AND kind = $2 AND free AND status <> $3 AND created_at >= ${SQL_TODAY_CST}`,
      [userId, kind, ExtractionStatus.Failed],
    );
    return Number(rows[0]!.n);
  }

  async add(r: { userId: number; kind: ExtractionTypeValue; way: number; link: string; fileId: number | null; description: string; free: boolean }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO analyses (user_id, kind, way, link, file_id, status, description, free) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [r.userId, r.kind, r.way, r.link, r.fileId, ExtractionStatus.Processing, r.description, r.free],
    );
    return rows[0]!.id;
  }

  /** Newest first, by status when given. */
  list(userId: number, kind: ExtractionTypeValue, f: { status?: number; limit: number; offset: number }): Promise<{ rows: ExtractionRow[]; total: number }> {
    return pageOfUser<ExtractionRow>(this.q, 'analyses', userId, f, { kind, status: f.status });
  }

  /** Finishes a processing record with its media; false when it was no longer processing (a repeated job). */
  async succeed(id: number, r: { description: string; mediaKey: string; coverKey: string; size: number; duration: number }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE analyses SET status = $2, description = $3, media_key = $4, cover_key = $5, size = $6, duration = $7, finished_at = now()
        WHERE id = $1 AND status = $8`,
      [id, ExtractionStatus.Success, r.description, r.mediaKey, r.coverKey, r.size, r.duration, ExtractionStatus.Processing],
    );
    return rowCount > 0;
  }

  /**
   * Fails a processing record with its reason (worded for a free or a paid extraction); answers the row when this
   * call failed it (so it refunds once).
   */
  async fail(id: number, reason: { free: string; paid: string }): Promise<ExtractionRow | undefined> {
    const { rows } = await this.q.query<ExtractionRow>(
      'UPDATE analyses SET status = $2, reason = CASE WHEN free THEN $3 ELSE $4 END, finished_at = now() WHERE id = $1 AND status = $5 RETURNING *',
      [id, ExtractionStatus.Failed, reason.free, reason.paid, ExtractionStatus.Processing],
    );
    return rows[0];
  }

  /** A saved copy of a record's media in the material library (its own file row, so either may go alone). */
  async addMaterial(m: { userId: number; type: 'video' | 'audio'; name: string; fileId: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO materials (user_id, type, name, source, origin, file_id) VALUES ($1, $2, $3, ${MaterialSource.Saved}, 'analyse', $4) RETURNING id`,
      [m.userId, m.type, m.name, m.fileId],
    );
    return rows[0]!.id;
  }
}
