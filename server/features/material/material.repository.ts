/** Every SQL statement of the material library (a material may hold one of the user's files). */
import { MaterialSource, type MaterialType } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface MaterialRow {
  id: number;
  name: string;
  type: MaterialType;
  source: number;
  origin: string;
  text: string;
  created_at: Date;
  object_key: string | null;
  duration: number | null;
}

export class MaterialRepository {
  constructor(private readonly q: Queryable) {}

  /** Newest first, by type and source when given; `limit` and `offset` are validated integers. */
  async list(userId: number, f: { type?: MaterialType; source?: number; limit: number; offset: number }): Promise<MaterialRow[]> {
    const where = ['m.user_id = $1'];
    const args: unknown[] = [userId];
    for (const [column, value] of [['m.type', f.type], ['m.source', f.source]] as const) {
      if (!value) continue;
      args.push(value);
      where.push(`${column} = $${args.length}`);
    }
    const { rows } = await this.q.query<MaterialRow>(
      `SELECT m.*, f.object_key, f.duration FROM materials m LEFT JOIN files f ON f.id = m.file_id
        WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ${f.limit} OFFSET ${f.offset}`,
      args,
    );
    return rows;
  }

  async rename(id: number, userId: number, name: string): Promise<boolean> {
    return (await this.q.query('UPDATE materials SET name = $3 WHERE id = $1 AND user_id = $2', [id, userId, name])).rowCount > 0;
  }

  /**
   * Deletes one of the user's materials; answers whether it existed and the key of the object it held, none when an
   * avatar still plays that object (an avatar's upload stays in the library as the avatar's video: the avatar keeps it).
   */
  async remove(id: number, userId: number): Promise<{ objectKey: string | null } | undefined> {
    const { rows } = await this.q.query<{ object_key: string | null }>(
      `DELETE FROM materials m USING materials m2 LEFT JOIN files f ON f.id = m2.file_id
        WHERE m.id = $1 AND m.user_id = $2 AND m2.id = m.id
        RETURNING CASE WHEN EXISTS (SELECT 1 FROM avatars a WHERE a.video_key = f.object_key) THEN NULL ELSE f.object_key END AS object_key`,
      [id, userId],
    );
    return rows[0] && { objectKey: rows[0].object_key };
  }

  /** A text a tool saved (a chat answer, an analysis). */
  async addText(userId: number, t: { name: string; origin: string; text: string }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO materials (user_id, type, name, source, origin, text) VALUES ($1, 'text', $2, ${MaterialSource.Saved}, $3, $4) RETURNING id`,
      [userId, t.name, t.origin, t.text],
    );
    return rows[0]!.id;
  }

  /** A stored file a tool saved (a generated picture), as the user's material. */
  async addSavedFile(userId: number, f: { type: MaterialType; name: string; origin: string; fileId: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO materials (user_id, type, name, source, origin, file_id) VALUES ($1, $2, $3, ${MaterialSource.Saved}, $4, $5) RETURNING id`,
      [userId, f.type, f.name, f.origin, f.fileId],
    );
    return rows[0]!.id;
  }
}
