/** Video generation records, the word bank, recommendations and user presets (part 2 §3): every statement of the feature. */
import { VideoTaskStatus, type PromptGroup, type VideoEngine } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export type VideogenType = 'text' | 'image';

export interface VideoRow {
  id: number;
  user_id: number;
  type: VideogenType;
  engine: VideoEngine;
  status: VideoTaskStatus;
  prompt: string;
  negative_prompt: string;
  cfg_scale: number;
  mode: 'std' | 'pro';
  duration: number;
  aspect_ratio: string;
  image_mode: number;
  image_key: string;
  image_tail_key: string;
  org_data: string;
  credits: number;
  spend_entry_id: number | null;
  remote_id: string;
  polls: number;
  video_key: string;
  cover_key: string;
  result_duration: number;
  error: string;
  created_at: Date;
}

export type NewVideo = Pick<VideoRow, 'user_id' | 'type' | 'engine' | 'prompt' | 'negative_prompt' | 'cfg_scale' | 'mode' | 'duration' | 'aspect_ratio' | 'image_mode' | 'image_key' | 'image_tail_key' | 'org_data' | 'credits'>;

const IN_PROGRESS = [VideoTaskStatus.Queued, VideoTaskStatus.Processing];

/** LIKE pattern of a keyword, its wildcards taken literally. */
const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class VideoGenRepository {
  constructor(private readonly db: Queryable) {}

  // ---- records

  async create(v: NewVideo): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO video_generations (user_id, type, engine, status, prompt, negative_prompt, cfg_scale, mode, duration, aspect_ratio, image_mode, image_key, image_tail_key, org_data, credits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [v.user_id, v.type, v.engine, VideoTaskStatus.Queued, v.prompt, v.negative_prompt, v.cfg_scale, v.mode, v.duration, v.aspect_ratio, v.image_mode, v.image_key, v.image_tail_key, v.org_data, v.credits],
    );
    return rows[0]!.id;
  }

  async setSpend(id: number, spendEntryId: number): Promise<void> {
    await this.db.query('UPDATE video_generations SET spend_entry_id = $2 WHERE id = $1', [id, spendEntryId]);
  }

  async record(id: number): Promise<VideoRow | undefined> {
    const { rows } = await this.db.query<VideoRow>('SELECT * FROM video_generations WHERE id = $1', [id]);
    return rows[0];
  }

  /** The record, locked for the rest of the transaction (a job ends it once). */
  async lock(id: number): Promise<VideoRow | undefined> {
    const { rows } = await this.db.query<VideoRow>('SELECT * FROM video_generations WHERE id = $1 FOR UPDATE', [id]);
    return rows[0];
  }

  async list(userId: number, type: VideogenType, page: { limit: number; offset: number }): Promise<{ rows: VideoRow[]; total: number }> {
    const { rows } = await this.db.query<VideoRow>(
      'SELECT * FROM video_generations WHERE user_id = $1 AND type = $2 ORDER BY id DESC LIMIT $3 OFFSET $4',
      [userId, type, page.limit, page.offset],
    );
    const count = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM video_generations WHERE user_id = $1 AND type = $2', [userId, type]);
    return { rows, total: count.rows[0]!.n };
  }

  /** Deletes the user's record; answers the object keys it held. */
  async remove(userId: number, id: number): Promise<string[] | undefined> {
    const { rows } = await this.db.query<{ video_key: string; cover_key: string }>(
      'DELETE FROM video_generations WHERE id = $1 AND user_id = $2 RETURNING video_key, cover_key',
      [id, userId],
    );
    return rows[0] ? [rows[0].video_key, rows[0].cover_key] : undefined;
  }

  /** Queued → processing, with the provider's task id when there is one. */
  async processing(id: number, remoteId = ''): Promise<void> {
    await this.db.query(`UPDATE video_generations SET status = $2, remote_id = CASE WHEN $3 = '' THEN remote_id ELSE $3 END WHERE id = $1 AND status = ANY($4)`, [
      id, VideoTaskStatus.Processing, remoteId, IN_PROGRESS,
    ]);
  }

  /** Counts one more question to the provider; answers how many have been asked. */
  async countPoll(id: number): Promise<number> {
    const { rows } = await this.db.query<{ polls: number }>('UPDATE video_generations SET polls = polls + 1 WHERE id = $1 RETURNING polls', [id]);
    return rows[0]?.polls ?? 0;
  }

  /** In progress → success with the stored result; false when it had ended (or gone) meanwhile. */
  async succeeded(id: number, r: { videoKey: string; coverKey: string; duration: number }): Promise<boolean> {
    const { rows } = await this.db.query(
      'UPDATE video_generations SET status = $2, video_key = $3, cover_key = $4, result_duration = $5 WHERE id = $1 AND status = ANY($6) RETURNING id',
      [id, VideoTaskStatus.Success, r.videoKey, r.coverKey, r.duration, IN_PROGRESS],
    );
    return rows.length > 0;
  }

  async failed(id: number, error: string): Promise<void> {
    await this.db.query('UPDATE video_generations SET status = $2, error = $3 WHERE id = $1', [id, VideoTaskStatus.Failed, error]);
  }

  /** The object key of a picture the user may use: their own file, or a public one. */
  async usableImage(userId: number, key: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ object_key: string }>(
      `SELECT object_key FROM files WHERE object_key = $1 AND (user_id = $2 OR user_id IS NULL) AND kind = 'image'`,
      [key, userId],
    );
    return rows[0]?.object_key;
  }

  // ---- word bank and recommendations

  async wordBank(): Promise<PromptGroup[]> {
    const { rows } = await this.db.query<{ group_id: number; group_name: string; name: string | null; demo_url: string; is_multi: number }>(
      `SELECT g.id AS group_id, g.name AS group_name, w.name, w.demo_url, w.is_multi
         FROM video_prompt_groups g LEFT JOIN video_prompt_words w ON w.group_id = g.id
        ORDER BY g.position, g.id, w.position, w.id`,
    );
    const groups = new Map<number, PromptGroup>();
    for (const r of rows) {
      if (!groups.has(r.group_id)) groups.set(r.group_id, { name: r.group_name, list: [] });
      if (r.name !== null) groups.get(r.group_id)!.list.push({ name: r.name, demo_url: r.demo_url, is_multi: Number(r.is_multi) ? 1 : 0 });
    }
    return [...groups.values()];
  }

  async replaceWordBank(groups: PromptGroup[]): Promise<void> {
    await this.db.query('DELETE FROM video_prompt_groups');
    for (const [position, group] of groups.entries()) {
      const { rows } = await this.db.query<{ id: number }>('INSERT INTO video_prompt_groups (name, position) VALUES ($1, $2) RETURNING id', [group.name, position]);
      for (const [wordPosition, word] of group.list.entries()) {
        await this.db.query('INSERT INTO video_prompt_words (group_id, name, demo_url, is_multi, position) VALUES ($1, $2, $3, $4, $5)', [
          rows[0]!.id, word.name, word.demo_url, word.is_multi, wordPosition,
        ]);
      }
    }
  }

  async recommendations(type: VideogenType): Promise<{ id: number; content: string; image: string }[]> {
    const { rows } = await this.db.query<{ id: number; content: string; image: string }>('SELECT id, content, image FROM video_prompt_recommends WHERE type = $1 ORDER BY id', [type]);
    return rows;
  }

  async replaceRecommendations(type: VideogenType, list: { content: string; image: string }[]): Promise<void> {
    await this.db.query('DELETE FROM video_prompt_recommends WHERE type = $1', [type]);
    for (const r of list) await this.db.query('INSERT INTO video_prompt_recommends (type, content, image) VALUES ($1, $2, $3)', [type, r.content, r.image]);
  }

  // ---- presets

  async presets(userId: number, keyword: string): Promise<{ id: number; title: string; content: string }[]> {
    const { rows } = await this.db.query<{ id: number; title: string; content: string }>(
      `SELECT id, title, content FROM user_prompts WHERE user_id = $1 AND ($2 = '' OR title ILIKE $3 OR content ILIKE $3) ORDER BY id DESC`,
      [userId, keyword, likePattern(keyword)],
    );
    return rows;
  }

  async addPreset(userId: number, title: string, content: string): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO user_prompts (user_id, title, content) VALUES ($1, $2, $3) RETURNING id', [userId, title, content]);
    return rows[0]!.id;
  }

  async updatePreset(userId: number, id: number, title: string, content: string): Promise<boolean> {
    const { rows } = await this.db.query('UPDATE user_prompts SET title = $3, content = $4 WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId, title, content]);
    return rows.length > 0;
  }

  async removePreset(userId: number, id: number): Promise<boolean> {
    const { rows } = await this.db.query('DELETE FROM user_prompts WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
    return rows.length > 0;
  }
}
