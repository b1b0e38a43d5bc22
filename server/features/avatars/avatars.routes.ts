/** My avatars: clone from an uploaded video (a job runs the local engine), list, delete. */
import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { JOB_RETRY_LIMIT } from '../../infra/queue';
import { prepareAvatar } from '../../engines/video/local-engine';
import type { FeatureContext } from '../../app-context';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';

export const AvatarStatus = { Processing: 1, Ready: 3, Failed: 4 } as const;

export function registerAvatarRoutes(ctx: FeatureContext): void {
  const { router, db, queue } = ctx;

  router.handle(API.avatar.clone, async ({ params, user }) => {
    const { rows } = await db.query<{ id: number; kind: string }>('SELECT id, kind FROM files WHERE id = $1 AND user_id = $2', [params.file_id, user.id]);
    if (!rows[0] || rows[0].kind !== 'video') throw new ApiError(MSG.avatarVideoRequired);
    return db.tx(async (q) => {
      const { rows: used } = await q.query('SELECT 1 FROM avatars WHERE source_file_id = $1', [params.file_id]);
      if (used.length) throw new ApiError('该视频已用于克隆，请重新上传');
      const { rows: created } = await q.query<{ id: number }>(
        `INSERT INTO avatars (user_id, name, status, source_file_id) VALUES ($1, $2, 1, $3) RETURNING id`,
        [user.id, params.name, params.file_id],
      );
      await queue.send('avatar-clone', { avatarId: created[0]!.id }, {}, q);
      return { id: created[0]!.id };
    });
  });

  router.handle(API.avatar.remove, async ({ params, user }) => {
    const { rows } = await db.query<{ video_key: string; cover_key: string; cover_small_key: string; loop_key: string }>(
      'DELETE FROM avatars WHERE id = $1 AND user_id = $2 RETURNING video_key, cover_key, cover_small_key, loop_key',
      [params.id, user.id],
    );
    if (!rows[0]) throw new ApiError(MSG.notFound);
    const r = rows[0];
    await deleteObjects(ctx, [r.video_key, r.cover_key, r.cover_small_key, r.loop_key]);
    return {};
  });
}

/** The clone job: idempotent (a ready or failed avatar is left alone), and on its last attempt it records the failure. */
export async function runAvatarClone(ctx: FeatureContext, avatarId: number, attempt: number): Promise<void> {
  const { db, storage } = ctx;
  const { rows } = await db.query<{ user_id: number; status: number; key: string }>(
    `SELECT a.user_id, a.status, f.object_key AS key FROM avatars a LEFT JOIN files f ON f.id = a.source_file_id WHERE a.id = $1`,
    [avatarId],
  );
  const avatar = rows[0];
  if (!avatar || Number(avatar.status) !== AvatarStatus.Processing) return;
  const fail = (reason: string) => db.query(`UPDATE avatars SET status = 4, reason = $2 WHERE id = $1 AND status = 1`, [avatarId, reason]);
  if (!avatar.key) return void (await fail('源视频已不存在，请重新上传'));
  try {
    await withWorkDir(ctx.config.dataDir, async (dir) => {
      const ext = avatar.key.slice(avatar.key.lastIndexOf('.') + 1);
      const prepared = await storage.withLocalFile(avatar.key, (file) => prepareAvatar(file, ext, dir));
      const video = await storeUserFile(ctx, avatar.user_id, prepared.normalized, 'mp4', 'video', prepared.duration);
      const loop = await storeUserFile(ctx, avatar.user_id, prepared.loop, 'mp4', 'video');
      const cover = await storeUserFile(ctx, avatar.user_id, prepared.cover, 'jpg', 'image');
      const small = await storeUserFile(ctx, avatar.user_id, prepared.coverSmall, 'jpg', 'image');
      const { rowCount } = await db.query(
        `UPDATE avatars SET status = 3, video_key = $2, loop_key = $3, cover_key = $4, cover_small_key = $5, duration = $6,
                orientation = $7, width = $8, height = $9, reason = '' WHERE id = $1 AND status = 1`,
        [avatarId, video.key, loop.key, cover.key, small.key, prepared.duration, prepared.orientation, prepared.width, prepared.height],
      );
      if (rowCount === 0) await deleteObjects(ctx, [video.key, loop.key, cover.key, small.key]);
    });
    // The uploaded original is no longer needed: the normalized copy replaces it in the user's space.
    const { rows: src } = await db.query<{ key: string }>('SELECT f.object_key AS key FROM avatars a JOIN files f ON f.id = a.source_file_id WHERE a.id = $1 AND a.status = 3', [avatarId]);
    if (src[0]) await deleteObjects(ctx, [src[0].key]);
  } catch (err) {
    if (attempt >= JOB_RETRY_LIMIT) {
      await fail('视频处理失败，请检查视频后重新上传');
      return;
    }
    throw err;
  }
}
