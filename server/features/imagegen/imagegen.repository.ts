/** Every SQL statement of text to image: generation records, suggested prompts, the user's reference pictures. */
import { ImagegenStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { PaidRecords } from '../../infra/paid-records';

export interface ImageRecordRow {
  id: number;
  user_id: number;
  status: number;
  prompt: string;
  ratio: string;
  asked: number;
  reference_key: string;
  image_keys: string[];
  spend_entry_id: number | null;
  reason: string;
  created_at: Date;
}

export class ImageGenRepository extends PaidRecords<ImageRecordRow> {
  constructor(q: Queryable) {
    super(q, 'image_generations');
  }

  async create(r: { userId: number; prompt: string; ratio: string; asked: number; referenceKey: string }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO image_generations (user_id, status, prompt, ratio, asked, reference_key) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [r.userId, ImagegenStatus.Pending, r.prompt, r.ratio, r.asked, r.referenceKey],
    );
    return rows[0]!.id;
  }

  /** The record while it is still in progress, locked: only one job run finishes it. */
  async lockPending(id: number): Promise<ImageRecordRow | undefined> {
    const { rows } = await this.q.query<ImageRecordRow>('SELECT * FROM image_generations WHERE id = $1 AND status = $2 FOR UPDATE', [id, ImagegenStatus.Pending]);
    return rows[0];
  }

  /** Newest first. */
  async list(userId: number, page: { limit: number; offset: number }): Promise<{ rows: ImageRecordRow[]; total: number }> {
    const { rows } = await this.q.query<ImageRecordRow>('SELECT * FROM image_generations WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3', [
      userId, page.limit, page.offset,
    ]);
    const count = await this.q.query<{ n: number }>('SELECT count(*)::int AS n FROM image_generations WHERE user_id = $1', [userId]);
    return { rows, total: Number(count.rows[0]!.n) };
  }

  async finish(id: number, end: { status: number; imageKeys: string[]; reason: string }): Promise<void> {
    await this.q.query('UPDATE image_generations SET status = $2, image_keys = $3, reason = $4, finished_at = now() WHERE id = $1', [
      id, end.status, end.imageKeys, end.reason,
    ]);
  }

  /** Deletes one of the user's finished records; answers the object keys it held (undefined: none such). */
  async removeFinished(id: number, userId: number): Promise<{ imageKeys: string[] } | undefined> {
    const { rows } = await this.q.query<{ image_keys: string[] }>('DELETE FROM image_generations WHERE id = $1 AND user_id = $2 AND status <> $3 RETURNING image_keys', [
      id, userId, ImagegenStatus.Pending,
    ]);
    return rows[0] && { imageKeys: rows[0].image_keys };
  }

  /** An image file of the user's (an upload or a material) by its object key: a reference picture they may use. */
  async ownImageKey(userId: number, key: string): Promise<boolean> {
    const { rows } = await this.q.query(`SELECT 1 FROM files WHERE object_key = $1 AND user_id = $2 AND kind = 'image'`, [key, userId]);
    return rows.length > 0;
  }

  async prompts(): Promise<{ id: number; content: string }[]> {
    const { rows } = await this.q.query<{ id: number; content: string }>('SELECT id, content FROM image_prompts ORDER BY id');
    return rows;
  }

  async addPrompt(content: string): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>('INSERT INTO image_prompts (content) VALUES ($1) RETURNING id', [content]);
    return rows[0]!.id;
  }
}
