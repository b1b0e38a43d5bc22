/** Every SQL statement of AI music: the users' tasks and the operator's library. */
import { MUSIC_IN_PROGRESS, MusicStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { JobRecords } from '../../infra/paid-records';

export interface MusicRow {
  id: number;
  user_id: number;
  title: string;
  prompt: string;
  lyrics: string;
  instrumental: boolean;
  status: number;
  reason: string;
  credits: number;
  spend_entry_id: number | null;
  audio_key: string;
  duration: number;
  background: boolean;
  created_at: Date;
}

export interface LibraryRow {
  id: number;
  name: string;
  mood: string;
  audio_key: string;
  duration: number;
}

const OPEN = [...MUSIC_IN_PROGRESS];

export class MusicRepository extends JobRecords<MusicRow> {
  constructor(q: Queryable) {
    super(q, 'music_tasks', { failed: MusicStatus.Failed, open: OPEN }, (r) => r.credits);
  }

  async add(t: { userId: number; title: string; prompt: string; lyrics: string; instrumental: boolean; credits: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO music_tasks (user_id, title, prompt, lyrics, instrumental, status, credits) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [t.userId, t.title, t.prompt, t.lyrics, t.instrumental, MusicStatus.Queued, t.credits],
    );
    return rows[0]!.id;
  }

  /** Newest first; `generate` counts the user's tasks still in progress. */
  async list(userId: number, page: { limit: number; offset: number }): Promise<{ rows: MusicRow[]; total: number; generate: number }> {
    const { rows } = await this.q.query<MusicRow>('SELECT * FROM music_tasks WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3', [userId, page.limit, page.offset]);
    const count = await this.q.query<{ total: number; generate: number }>(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = ANY($2)))::int AS generate FROM music_tasks WHERE user_id = $1',
      [userId, OPEN],
    );
    return { rows, total: Number(count.rows[0]!.total), generate: Number(count.rows[0]!.generate) };
  }

  /** Queued → running, when the job first takes it. */
  async start(id: number): Promise<void> {
    await this.q.query('UPDATE music_tasks SET status = $2 WHERE id = $1 AND status = $3', [id, MusicStatus.Running, MusicStatus.Queued]);
  }

  /** Keeps the lyrics written from the description, so a retried job sings the same ones. */
  async setLyrics(id: number, lyrics: string): Promise<void> {
    await this.q.query('UPDATE music_tasks SET lyrics = $2 WHERE id = $1', [id, lyrics]);
  }

  /** Finishes an in-progress task; false when it was no longer in progress (a repeated job). */
  async succeed(id: number, r: { audioKey: string; duration: number }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      'UPDATE music_tasks SET status = $2, audio_key = $3, duration = $4, finished_at = now() WHERE id = $1 AND status = ANY($5)',
      [id, MusicStatus.Done, r.audioKey, r.duration, OPEN],
    );
    return rowCount > 0;
  }

  async rename(id: number, userId: number, title: string): Promise<boolean> {
    return (await this.q.query('UPDATE music_tasks SET title = $3 WHERE id = $1 AND user_id = $2', [id, userId, title])).rowCount > 0;
  }

  /** Marks or unmarks a finished task of the user's; false when there is none. */
  async setBackground(id: number, userId: number, on: boolean): Promise<boolean> {
    const { rowCount } = await this.q.query('UPDATE music_tasks SET background = $3 WHERE id = $1 AND user_id = $2 AND status = $4', [id, userId, on, MusicStatus.Done]);
    return rowCount > 0;
  }

  /** The user's done tracks marked as background music, newest first. */
  async backgrounds(userId: number): Promise<MusicRow[]> {
    return (await this.q.query<MusicRow>('SELECT * FROM music_tasks WHERE user_id = $1 AND background AND status = $2 ORDER BY id DESC', [userId, MusicStatus.Done])).rows;
  }

  // ---- the library

  async addLibrary(t: { name: string; mood: string; audioKey: string; duration: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>('INSERT INTO music_library (name, mood, audio_key, duration) VALUES ($1, $2, $3, $4) RETURNING id', [
      t.name, t.mood, t.audioKey, t.duration,
    ]);
    return rows[0]!.id;
  }

  async library(): Promise<LibraryRow[]> {
    return (await this.q.query<LibraryRow>('SELECT id, name, mood, audio_key, duration FROM music_library ORDER BY id')).rows;
  }

  async libraryNameTaken(name: string): Promise<boolean> {
    return (await this.q.query('SELECT 1 FROM music_library WHERE name = $1', [name])).rows.length > 0;
  }

  /**
   * A track a user may lay under their video: a library track, or their own done task marked as background music
   * (or not: their own track is theirs to use). Answers its stored key.
   */
  async usableTrack(ref: { source: 'library' | 'mine'; id: number }, userId: number): Promise<string | undefined> {
    if (ref.source === 'library') return (await this.q.query<{ audio_key: string }>('SELECT audio_key FROM music_library WHERE id = $1', [ref.id])).rows[0]?.audio_key;
    const { rows } = await this.q.query<{ audio_key: string }>('SELECT audio_key FROM music_tasks WHERE id = $1 AND user_id = $2 AND status = $3', [ref.id, userId, MusicStatus.Done]);
    return rows[0]?.audio_key || undefined;
  }
}
