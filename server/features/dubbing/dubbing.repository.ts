/** Every SQL statement of the dubbing studio: dubs, the voices and channels they speak with, the music under them. */
import { DUBBING_IN_PROGRESS, DubbingStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { JobRecords } from '../../infra/paid-records';

/** A line as the job speaks it: what was submitted, with the voice's name and channel at submit (for the history). */
export interface StoredLine {
  voice_id: number;
  text: string;
  rate?: number;
  volume?: number;
  pitch?: number;
  emotion?: string;
  pause_after?: number;
  role?: string;
  /** The voice's name and channel when the dub was submitted. */
  voice_name: string;
  api: string;
  /** Counted characters and the channel's price per unit at submit. */
  chars: number;
  per_unit: number;
}

/** Where a line is heard in the result. */
export interface StoredCue {
  start: number;
  end: number;
}

export interface DubbingRow {
  id: number;
  user_id: number;
  name: string;
  status: number;
  reason: string;
  lines: StoredLine[];
  gap: number;
  bgm_file_id: number | null;
  bgm_volume: number;
  chars: number;
  reserved: number;
  charged: number;
  spend_entry_id: number | null;
  audio_key: string;
  srt_key: string;
  duration: number;
  cues: StoredCue[] | null;
  created_at: Date;
}

/** The objects a dub owns (deleted with it). */
export const ownedKeys = (r: Pick<DubbingRow, 'audio_key' | 'srt_key'>) => [r.audio_key, r.srt_key].filter(Boolean);

export interface DubbingVoiceRow {
  id: number;
  name: string;
  api: string;
  engine: string;
  dub_credits: number;
}

export class DubbingRepository extends JobRecords<DubbingRow> {
  constructor(q: Queryable) {
    super(q, 'dubbings', { failed: DubbingStatus.Failed, open: DUBBING_IN_PROGRESS }, (r) => r.reserved);
  }

  /** The voices' names, channels, engines and channel dubbing prices (own or public voices only). */
  async voices(ids: number[], userId: number): Promise<Map<number, DubbingVoiceRow>> {
    const { rows } = await this.q.query<DubbingVoiceRow>(
      `SELECT v.id, v.name, v.api, COALESCE(c.engine, 'none') AS engine, COALESCE(c.dub_credits, 0) AS dub_credits
         FROM voices v LEFT JOIN channels c ON c.kind = 'voice' AND c.api = v.api
        WHERE v.id = ANY($1) AND (v.user_id = $2 OR v.user_id IS NULL)`,
      [ids, userId],
    );
    return new Map(rows.map((r) => [r.id, { ...r, dub_credits: Number(r.dub_credits) }]));
  }

  /** Each enabled voice channel's dubbing price and engine. */
  async channelPrices(): Promise<{ api: string; name: string; engine: string; dub_credits: number }[]> {
    const { rows } = await this.q.query<{ api: string; name: string; engine: string; dub_credits: number }>(
      `SELECT api, name, engine, dub_credits FROM channels WHERE kind = 'voice' AND enabled ORDER BY sort, api`,
    );
    return rows.map((r) => ({ ...r, dub_credits: Number(r.dub_credits) }));
  }

  /** A material-library audio of the user's, as the music under a dub: its file. */
  async ownMusic(materialId: number, userId: number): Promise<{ fileId: number; key: string } | undefined> {
    const { rows } = await this.q.query<{ file_id: number; object_key: string }>(
      `SELECT f.id AS file_id, f.object_key FROM materials m JOIN files f ON f.id = m.file_id
        WHERE m.id = $1 AND m.user_id = $2 AND m.type = 'audio' AND f.kind = 'voice'`,
      [materialId, userId],
    );
    return rows[0] && { fileId: rows[0].file_id, key: rows[0].object_key };
  }

  /** The music's stored key (undefined once its file was deleted). */
  async musicKey(fileId: number | null): Promise<string | undefined> {
    if (fileId === null) return undefined;
    const { rows } = await this.q.query<{ object_key: string }>('SELECT object_key FROM files WHERE id = $1', [fileId]);
    return rows[0]?.object_key;
  }

  async add(r: { userId: number; name: string; lines: StoredLine[]; gap: number; bgmFileId: number | null; bgmVolume: number; chars: number; reserved: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO dubbings (user_id, name, status, lines, gap, bgm_file_id, bgm_volume, chars, reserved)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [r.userId, r.name, DubbingStatus.Queued, JSON.stringify(r.lines), r.gap, r.bgmFileId, r.bgmVolume, r.chars, r.reserved],
    );
    return rows[0]!.id;
  }

  /** Newest first; `generate` counts the user's dubs still in progress; `id` narrows both to that one dub (when it is theirs). */
  async list(userId: number, page: { limit: number; offset: number; id?: number }): Promise<{ rows: DubbingRow[]; total: number; generate: number }> {
    const only = page.id ?? null;
    const { rows } = await this.q.query<DubbingRow>(
      'SELECT * FROM dubbings WHERE user_id = $1 AND ($4::int IS NULL OR id = $4) ORDER BY id DESC LIMIT $2 OFFSET $3',
      [userId, page.limit, page.offset, only],
    );
    const count = await this.q.query<{ total: number; generate: number }>(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = ANY($2)))::int AS generate FROM dubbings WHERE user_id = $1 AND ($3::int IS NULL OR id = $3)',
      [userId, [...DUBBING_IN_PROGRESS], only],
    );
    return { rows, total: Number(count.rows[0]!.total), generate: Number(count.rows[0]!.generate) };
  }

  /** Queued → running, when the job first takes it. */
  async start(id: number): Promise<void> {
    await this.q.query('UPDATE dubbings SET status = $2 WHERE id = $1 AND status = $3', [id, DubbingStatus.Running, DubbingStatus.Queued]);
  }

  /** Finishes an in-progress dub; false when it was no longer in progress (a repeated job). */
  async succeed(id: number, r: { audioKey: string; srtKey: string; duration: number; cues: StoredCue[]; charged: number }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE dubbings SET status = $2, audio_key = $3, srt_key = $4, duration = $5, cues = $6, charged = $7, finished_at = now()
        WHERE id = $1 AND status = ANY($8)`,
      [id, DubbingStatus.Done, r.audioKey, r.srtKey, r.duration, JSON.stringify(r.cues), r.charged, [...DUBBING_IN_PROGRESS]],
    );
    return rowCount > 0;
  }

  async rename(id: number, userId: number, name: string): Promise<boolean> {
    return (await this.q.query('UPDATE dubbings SET name = $3 WHERE id = $1 AND user_id = $2', [id, userId, name])).rowCount > 0;
  }
}
