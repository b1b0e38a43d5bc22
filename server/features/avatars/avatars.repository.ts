/** Every SQL statement on avatars: the user's own (user_id set) and public ones (user_id NULL). */
import { AvatarStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface AvatarRow {
  id: number;
  user_id: number | null;
  name: string;
  video_key: string;
  cover_key: string;
  cover_small_key: string;
  loop_key: string;
  orientation: number;
  duration: number;
  status: number;
  reason: string;
  /** The offline lip-sync engine's face track ('' none) and what its analysis found ('' not analysed yet). */
  faces_key: string;
  face_note: string;
}

/** What a finished clone stores. */
export interface ClonedAvatar {
  videoKey: string;
  loopKey: string;
  coverKey: string;
  coverSmallKey: string;
  duration: number;
  orientation: number;
  width: number;
  height: number;
  /** The face track of the offline lip-sync engine ('' when none), and what its analysis found (FACE_OK or why not). */
  facesKey: string;
  faceNote: string;
}

/** LIMIT/OFFSET from the spec's page (1-based) and limit (both validated integers); limit 0 means everything. */
function window(page: number, limit: number): string {
  return limit > 0 ? `LIMIT ${limit} OFFSET ${(Math.max(page, 1) - 1) * limit}` : '';
}

const nameLike = (name: string | undefined) => (name ? `%${name}%` : '%');

export class AvatarsRepository {
  constructor(private readonly q: Queryable) {}

  /** A public avatar (not a failed one) already has this name. */
  async publicNameTaken(name: string): Promise<boolean> {
    return (await this.q.query('SELECT 1 FROM avatars WHERE user_id IS NULL AND name = $1 AND status <> $2', [name, AvatarStatus.Failed])).rows.length > 0;
  }

  /** The user's own uploaded file (to clone from), whatever its kind. */
  async ownFile(fileId: number, userId: number) {
    const { rows } = await this.q.query<{ id: number; kind: string; duration: number }>('SELECT id, kind, duration FROM files WHERE id = $1 AND user_id = $2', [fileId, userId]);
    return rows[0];
  }

  async isSourceUsed(fileId: number): Promise<boolean> {
    return (await this.q.query('SELECT 1 FROM avatars WHERE source_file_id = $1', [fileId])).rows.length > 0;
  }

  /** A new avatar waiting for its clone job; `userId` null makes a public one. */
  async addCloning(userId: number | null, name: string, sourceFileId: number): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO avatars (user_id, name, status, source_file_id) VALUES ($1, $2, ${AvatarStatus.Cloning}, $3) RETURNING id`,
      [userId, name, sourceFileId],
    );
    return rows[0]!.id;
  }

  /** An operator's public avatar from a ready video and cover (no clone job). */
  async addPublicReady(a: { name: string; videoKey: string; coverKey: string; orientation: number }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO avatars (user_id, name, video_key, cover_key, cover_small_key, orientation, status) VALUES (NULL, $1, $2, $3, $3, $4, ${AvatarStatus.Ready}) RETURNING id`,
      [a.name, a.videoKey, a.coverKey, a.orientation],
    );
    return rows[0]!.id;
  }

  /** Deletes one of the user's avatars; answers its object keys, or undefined when there was none. */
  async remove(id: number, userId: number): Promise<string[] | undefined> {
    const { rows } = await this.q.query<Pick<AvatarRow, 'video_key' | 'cover_key' | 'cover_small_key' | 'loop_key'>>(
      'DELETE FROM avatars WHERE id = $1 AND user_id = $2 RETURNING video_key, cover_key, cover_small_key, loop_key',
      [id, userId],
    );
    return rows[0] && [rows[0].video_key, rows[0].cover_key, rows[0].cover_small_key, rows[0].loop_key];
  }

  /** The user's own avatars (every status), newest first. */
  async listOwn(userId: number, f: { name?: string; page: number; limit: number }): Promise<AvatarRow[]> {
    const { rows } = await this.q.query<AvatarRow>(
      `SELECT * FROM avatars WHERE user_id = $1 AND name ILIKE $2 ORDER BY id DESC ${window(f.page, f.limit)}`,
      [userId, nameLike(f.name)],
    );
    return rows;
  }

  /** Public avatars, oldest first; only ready ones when `orientation` is given (the home page's actor tab). */
  async listPublic(f: { name?: string; page: number; limit: number; orientation?: number }): Promise<AvatarRow[]> {
    const ready = f.orientation === undefined ? '' : `AND status = ${AvatarStatus.Ready} AND orientation = $2`;
    const order = f.orientation === undefined ? 'id DESC' : 'id';
    const { rows } = await this.q.query<AvatarRow>(
      `SELECT * FROM avatars WHERE user_id IS NULL AND name ILIKE $1 ${ready} ORDER BY ${order} ${window(f.page, f.limit)}`,
      f.orientation === undefined ? [nameLike(f.name)] : [nameLike(f.name), f.orientation],
    );
    return rows;
  }

  /** An avatar the user may appear as (their own or a public one), in any status. */
  async usableBy(id: number, userId: number): Promise<AvatarRow | undefined> {
    const { rows } = await this.q.query<AvatarRow>('SELECT * FROM avatars WHERE id = $1 AND (user_id = $2 OR user_id IS NULL)', [id, userId]);
    return rows[0];
  }

  /** The clone job's input: the avatar's owner and status, and its uploaded video's key (null once deleted). */
  async cloneSource(avatarId: number) {
    const { rows } = await this.q.query<{ user_id: number; name: string; status: number; key: string | null }>(
      'SELECT a.user_id, a.name, a.status, f.object_key AS key FROM avatars a LEFT JOIN files f ON f.id = a.source_file_id WHERE a.id = $1',
      [avatarId],
    );
    return rows[0] && { ...rows[0], status: Number(rows[0].status) };
  }

  /** A cloning avatar fails with the reason its owner sees (a no-op once it is ready or failed). */
  async fail(avatarId: number, reason: string): Promise<void> {
    await this.q.query(`UPDATE avatars SET status = ${AvatarStatus.Failed}, reason = $2 WHERE id = $1 AND status = ${AvatarStatus.Cloning}`, [avatarId, reason]);
  }

  /** A cloning avatar becomes ready with its outputs; false when it was no longer cloning (a repeated job). */
  async ready(avatarId: number, a: ClonedAvatar): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE avatars SET status = ${AvatarStatus.Ready}, video_key = $2, loop_key = $3, cover_key = $4, cover_small_key = $5, duration = $6,
              orientation = $7, width = $8, height = $9, faces_key = $10, face_note = $11, reason = '' WHERE id = $1 AND status = ${AvatarStatus.Cloning}`,
      [avatarId, a.videoKey, a.loopKey, a.coverKey, a.coverSmallKey, a.duration, a.orientation, a.width, a.height, a.facesKey, a.faceNote],
    );
    return rowCount > 0;
  }

  /** A face analysis made later (avatars published without a clone, or cloned before the lip-sync engine). */
  async setFaces(avatarId: number, facesKey: string, faceNote: string): Promise<boolean> {
    const { rowCount } = await this.q.query(`UPDATE avatars SET faces_key = $2, face_note = $3 WHERE id = $1 AND face_note = ''`, [avatarId, facesKey, faceNote]);
    return rowCount > 0;
  }

  /**
   * The material-library entry of a ready avatar's uploaded original now holds its normalized copy, so the upload
   * stays in the library (视频) when the original is deleted.
   */
  async handOverMaterial(avatarId: number, copyFileId: number): Promise<void> {
    await this.q.query(
      `UPDATE materials m SET file_id = $2 FROM avatars a
        WHERE a.id = $1 AND a.status = ${AvatarStatus.Ready} AND m.file_id = a.source_file_id AND m.user_id = a.user_id`,
      [avatarId, copyFileId],
    );
  }

  /** The uploaded original of a ready avatar, which its normalized copy replaces. */
  async readySourceKey(avatarId: number): Promise<string | undefined> {
    const { rows } = await this.q.query<{ key: string }>(
      `SELECT f.object_key AS key FROM avatars a JOIN files f ON f.id = a.source_file_id WHERE a.id = $1 AND a.status = ${AvatarStatus.Ready}`,
      [avatarId],
    );
    return rows[0]?.key;
  }
}
