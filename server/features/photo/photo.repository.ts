/** Every SQL statement of the pet and person pictures (the user's own and the public AI library). */
import { PhotoSource, type PhotoTypeValue } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface PhotoRow {
  id: number;
  user_id: number | null;
  type: number;
  name: string;
  image_key: string;
  cover_key: string;
  width: number;
  height: number;
  /** The marked mouth, as fractions of the picture; null when not marked. */
  mouth_x: number | null;
  mouth_y: number | null;
}

export interface NewPhoto {
  userId: number | null;
  type: PhotoTypeValue;
  name: string;
  imageKey: string;
  coverKey: string;
  width: number;
  height: number;
  mouth?: { x: number; y: number };
}

export class PhotoRepository {
  constructor(private readonly q: Queryable) {}

  async add(p: NewPhoto): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO photos (user_id, type, name, image_key, cover_key, width, height, mouth_x, mouth_y) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id',
      [p.userId, p.type, p.name, p.imageKey, p.coverKey, p.width, p.height, p.mouth?.x ?? null, p.mouth?.y ?? null],
    );
    return rows[0]!.id;
  }

  /** Newest first; `limit` 0 answers all. */
  async list(userId: number, f: { source: number; type: number; limit: number; offset: number }): Promise<{ rows: PhotoRow[]; total: number }> {
    // Public pictures have no owner: source 2 lists them, source 1 the user's own.
    const [where, args] = f.source === PhotoSource.Public ? ['user_id IS NULL AND type = $1', [f.type]] : ['user_id = $1 AND type = $2', [userId, f.type]];
    const page = f.limit > 0 ? `LIMIT ${f.limit} OFFSET ${f.offset}` : '';
    const { rows } = await this.q.query<PhotoRow>(`SELECT * FROM photos WHERE ${where} ORDER BY id DESC ${page}`, args);
    const count = await this.q.query<{ total: number }>(`SELECT count(*)::int AS total FROM photos WHERE ${where}`, args);
    return { rows, total: Number(count.rows[0]!.total) };
  }

  /** A picture the user may make a work from: their own or a public one. */
  async usableBy(id: number, userId: number): Promise<PhotoRow | undefined> {
    const { rows } = await this.q.query<PhotoRow>('SELECT * FROM photos WHERE id = $1 AND (user_id = $2 OR user_id IS NULL)', [id, userId]);
    return rows[0];
  }

  /** The user's file of an uploaded image (registered by the upload calls, checked by content there). */
  async ownImageFile(fileId: number, userId: number): Promise<{ key: string } | undefined> {
    const { rows } = await this.q.query<{ key: string }>(`SELECT object_key AS key FROM files WHERE id = $1 AND user_id = $2 AND kind = 'image'`, [fileId, userId]);
    return rows[0];
  }

  /** The file of an image in the user's material library. */
  async ownMaterialImage(materialId: number, userId: number): Promise<{ key: string } | undefined> {
    const { rows } = await this.q.query<{ key: string }>(
      `SELECT f.object_key AS key FROM materials m JOIN files f ON f.id = m.file_id WHERE m.id = $1 AND m.user_id = $2 AND f.kind = 'image'`,
      [materialId, userId],
    );
    return rows[0];
  }

  /** Deletes one of the user's own pictures; public ones have no owner and never match. */
  async removeOwn(id: number, userId: number): Promise<PhotoRow | undefined> {
    const { rows } = await this.q.query<PhotoRow>('DELETE FROM photos WHERE id = $1 AND user_id = $2 RETURNING *', [id, userId]);
    return rows[0];
  }

  async exists(id: number): Promise<{ user_id: number | null } | undefined> {
    const { rows } = await this.q.query<{ user_id: number | null }>('SELECT user_id FROM photos WHERE id = $1', [id]);
    return rows[0];
  }
}
