/** Every SQL statement of uploads: space reservations of uploads in flight, and registered files with their material. */
import { MaterialSource, type UploadFileType } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

const GB = 1024 * 1024 * 1024;
const MATERIAL_TYPE_OF = { video: 'video', voice: 'audio', image: 'image' } as const;
const NO_UPLOAD = '00000000-0000-0000-0000-000000000000';

export interface Reservation {
  upload: string;
  userId: number;
  type: UploadFileType;
  bytes: number;
  key: string;
  /** Unix seconds. */
  expiresAt: number;
}

export class UploadRepository {
  constructor(private readonly q: Queryable) {}

  /**
   * Bytes a user may still fill: quota − stored files − reservations of other uploads in flight. Locks the user's
   * row, so call it inside the transaction that reserves.
   */
  async freeBytes(userId: number, baseGb: number, exceptUpload = NO_UPLOAD): Promise<number> {
    await this.q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows } = await this.q.query<{ extra: number; used: string; held: string }>(
      `SELECT u.space_extra_gb AS extra,
              COALESCE((SELECT SUM(size) FROM files WHERE user_id = u.id), 0)::bigint AS used,
              COALESCE((SELECT SUM(bytes) FROM upload_reservations WHERE user_id = u.id AND expires_at > now() AND upload_id <> $2), 0)::bigint AS held
         FROM users u WHERE u.id = $1`,
      [userId, exceptUpload],
    );
    const r = rows[0]!;
    return (baseGb + Number(r.extra)) * GB - Number(r.used) - Number(r.held);
  }

  /** False when this upload already holds a reservation (a policy used twice). */
  async reserve(r: Reservation): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `INSERT INTO upload_reservations (upload_id, user_id, file_type, bytes, object_key, expires_at)
       VALUES ($1, $2, $3, $4, $5, to_timestamp($6)) ON CONFLICT (upload_id) DO NOTHING`,
      [r.upload, r.userId, r.type, r.bytes, r.key, r.expiresAt],
    );
    return rowCount === 1;
  }

  /** Once the bytes are stored, the reservation holds their real size. */
  async resize(upload: string, bytes: number): Promise<void> {
    await this.q.query('UPDATE upload_reservations SET bytes = $2 WHERE upload_id = $1', [upload, bytes]);
  }

  async release(upload: string): Promise<void> {
    await this.q.query('DELETE FROM upload_reservations WHERE upload_id = $1', [upload]);
  }

  /** The type a live reservation of this user was signed for, at exactly this key (or its folder, for bucket uploads). */
  async reservedType(upload: string, userId: number, key: string): Promise<string | undefined> {
    const { rows } = await this.q.query<{ file_type: string }>(
      `SELECT file_type FROM upload_reservations WHERE upload_id = $1 AND user_id = $2 AND expires_at > now()
          AND (object_key = $3 OR (right(object_key, 1) = '/' AND left($3, length(object_key)) = object_key))`,
      [upload, userId, key],
    );
    return rows[0]?.file_type;
  }

  /** Removes expired reservations and answers the objects (a key, or a bucket upload's folder ending in /) they may have left. */
  async releaseExpired(): Promise<string[]> {
    const { rows } = await this.q.query<{ object_key: string }>('DELETE FROM upload_reservations WHERE expires_at < now() RETURNING object_key');
    return rows.map((r) => r.object_key);
  }

  /** The user's new file, and its entry in their material library (until the file is deleted). */
  async addFile(f: { userId: number; type: UploadFileType; key: string; size: number; duration: number; name: string }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO files (user_id, kind, object_key, size, duration) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [f.userId, f.type, f.key, f.size, f.duration],
    );
    await this.q.query(`INSERT INTO materials (user_id, type, name, source, file_id) VALUES ($1, $2, $3, ${MaterialSource.Uploaded}, $4)`, [
      f.userId, MATERIAL_TYPE_OF[f.type], f.name, rows[0]!.id,
    ]);
    return rows[0]!.id;
  }

  /** The object key of the user's uploaded picture, or undefined. */
  async ownImageKey(fileId: number, userId: number): Promise<string | undefined> {
    const { rows } = await this.q.query<{ key: string }>("SELECT object_key AS key FROM files WHERE id = $1 AND user_id = $2 AND kind = 'image'", [fileId, userId]);
    return rows[0]?.key;
  }

  /** The user's uploaded video (registered by the upload calls, checked by content there) and its material's name. */
  async ownVideoFile(fileId: number, userId: number): Promise<{ key: string; name: string } | undefined> {
    const { rows } = await this.q.query<{ key: string; name: string | null }>(
      `SELECT f.object_key AS key, (SELECT m.name FROM materials m WHERE m.file_id = f.id ORDER BY m.id LIMIT 1) AS name
         FROM files f WHERE f.id = $1 AND f.user_id = $2 AND f.kind = 'video'`,
      [fileId, userId],
    );
    return rows[0] && { key: rows[0].key, name: rows[0].name ?? '' };
  }
}
