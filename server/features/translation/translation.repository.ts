/** Every SQL statement of video translation records. */
import { WorkStatus, WORK_IN_PROGRESS } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { JobRecords } from '../../infra/paid-records';
import type { Transcript } from '../../engines/asr';
import type { EngineVoice } from '../../engines/speech';

/** A temporary voice cloned for one record's dub, on voice channel `api`. */
export interface DubClone {
  api: string;
  voice: EngineVoice;
}

export interface TranslationRow {
  id: number;
  user_id: number;
  file_id: number | null;
  name: string;
  source_lang: string;
  target_lang: string;
  mode: number;
  status: number;
  reason: string;
  source_seconds: number;
  duration: number;
  reserved: number;
  charged: number;
  spend_entry_id: number | null;
  transcript: Transcript | null;
  lines: string[] | null;
  dub_key: string;
  voice: string;
  clone: DubClone | null;
  video_key: string;
  srt_key: string;
  cover_key: string;
  created_at: Date;
}

/** The objects a record owns (deleted with it). */
export const ownedKeys = (r: Pick<TranslationRow, 'dub_key' | 'video_key' | 'srt_key' | 'cover_key'>) => [r.dub_key, r.video_key, r.srt_key, r.cover_key].filter(Boolean);

export class TranslationRepository extends JobRecords<TranslationRow> {
  constructor(q: Queryable) {
    super(q, 'translations', { failed: WorkStatus.Failed, open: WORK_IN_PROGRESS }, (r) => r.reserved);
  }

  /** The user's uploaded video (registered by the upload calls, checked by content there), its length and material name. */
  async ownVideoFile(fileId: number, userId: number): Promise<{ key: string; seconds: number; name: string } | undefined> {
    const { rows } = await this.q.query<{ key: string; seconds: number; name: string | null }>(
      `SELECT f.object_key AS key, f.duration AS seconds, (SELECT m.name FROM materials m WHERE m.file_id = f.id ORDER BY m.id LIMIT 1) AS name
         FROM files f WHERE f.id = $1 AND f.user_id = $2 AND f.kind = 'video'`,
      [fileId, userId],
    );
    return rows[0] && { key: rows[0].key, seconds: Number(rows[0].seconds), name: rows[0].name ?? '' };
  }

  async add(r: { userId: number; fileId: number; name: string; sourceLang: string; targetLang: string; mode: number; sourceSeconds: number; reserved: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO translations (user_id, file_id, name, source_lang, target_lang, mode, status, source_seconds, reserved)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [r.userId, r.fileId, r.name, r.sourceLang, r.targetLang, r.mode, WorkStatus.Queued, r.sourceSeconds, r.reserved],
    );
    return rows[0]!.id;
  }

  /** Newest first; `generate` counts the user's records still in progress. */
  async list(userId: number, f: { limit: number; offset: number }): Promise<{ rows: TranslationRow[]; total: number; generate: number }> {
    const { rows } = await this.q.query<TranslationRow>(`SELECT * FROM translations WHERE user_id = $1 ORDER BY id DESC LIMIT ${f.limit} OFFSET ${f.offset}`, [userId]);
    const count = await this.q.query<{ total: number; generate: number }>(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = ANY($2)))::int AS generate FROM translations WHERE user_id = $1',
      [userId, [...WORK_IN_PROGRESS]],
    );
    return { rows, total: Number(count.rows[0]!.total), generate: Number(count.rows[0]!.generate) };
  }

  /** Queued → rendering, when the job first takes it. */
  async start(id: number): Promise<void> {
    await this.q.query('UPDATE translations SET status = $2 WHERE id = $1 AND status = $3', [id, WorkStatus.Rendering, WorkStatus.Queued]);
  }

  async saveTranscript(id: number, transcript: Transcript): Promise<void> {
    await this.q.query('UPDATE translations SET transcript = $2 WHERE id = $1', [id, JSON.stringify(transcript)]);
  }

  async saveLines(id: number, lines: string[]): Promise<void> {
    await this.q.query('UPDATE translations SET lines = $2 WHERE id = $1', [id, JSON.stringify(lines)]);
  }

  /** The dub's voice once chosen: what the record shows, and the clone to speak with (null: the offline engine). */
  async saveVoice(id: number, voice: string, clone: DubClone | null): Promise<void> {
    await this.q.query('UPDATE translations SET voice = $2, clone = $3 WHERE id = $1', [id, voice, clone && JSON.stringify(clone)]);
  }

  /** Forgets the clone once it was discarded. */
  async dropClone(id: number): Promise<void> {
    await this.q.query('UPDATE translations SET clone = NULL WHERE id = $1', [id]);
  }

  async saveDub(id: number, dubKey: string, srtKey: string): Promise<void> {
    await this.q.query('UPDATE translations SET dub_key = $2, srt_key = $3 WHERE id = $1', [id, dubKey, srtKey]);
  }

  /** Finishes an in-progress record; false when it was no longer in progress (a repeated job). */
  async succeed(id: number, r: { videoKey: string; coverKey: string; duration: number; charged: number; reason: string }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE translations SET status = $2, video_key = $3, cover_key = $4, duration = $5, charged = $6, reason = $7, dub_key = '', finished_at = now()
        WHERE id = $1 AND status = ANY($8)`,
      [id, WorkStatus.Success, r.videoKey, r.coverKey, r.duration, r.charged, r.reason, [...WORK_IN_PROGRESS]],
    );
    return rowCount > 0;
  }
}
