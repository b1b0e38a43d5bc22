/** The clone job: the local engine normalizes the uploaded video and makes the loop and covers; the lip-sync engine finds the face once. */
import { AvatarStatus, LIMITS, MSG } from '../../../src/contract';
import { JOB_RETRY_LIMIT, reportJobFailure } from '../../infra/queue';
import { prepareAvatar } from '../../engines/render';
import type { FeatureContext } from '../../app-context';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { AvatarsRepository } from './avatars.repository';
import { analyseAndStoreFaces } from './avatars.service';

/** Idempotent (a ready or failed avatar is left alone); on its last attempt it records the failure. */
export async function runAvatarClone(ctx: FeatureContext, avatarId: number, attempt: number): Promise<void> {
  const { db, storage } = ctx;
  const avatars = new AvatarsRepository(db);
  const source = await avatars.cloneSource(avatarId);
  if (!source || source.status !== AvatarStatus.Cloning) return;
  const fail = (reason: string, cause?: unknown) => {
    reportJobFailure(reason, cause);
    return avatars.fail(avatarId, reason);
  };
  if (!source.key) return fail('源视频已不存在，请重新上传');
  const key = source.key;
  try {
    const tooShort = await withWorkDir(ctx.config.dataDir, async (dir) => {
      const prepared = await storage.withLocalFile(key, (file) => prepareAvatar(file, key.slice(key.lastIndexOf('.') + 1), dir));
      // What really decodes, which a cut-off file can make shorter than its upload claimed.
      if (prepared.duration < LIMITS.video.minSeconds) return true;
      const store = (file: string, ext: string, kind: 'video' | 'image', duration?: number) => storeUserFile(ctx, source.user_id, file, ext, kind, duration);
      const video = await store(prepared.normalized, 'mp4', 'video', prepared.duration);
      const loop = await store(prepared.loop, 'mp4', 'video');
      const cover = await store(prepared.cover, 'jpg', 'image');
      const small = await store(prepared.coverSmall, 'jpg', 'image');
      const faces = await analyseAndStoreFaces(ctx, source.user_id, prepared.normalized, dir);
      const made = await avatars.ready(avatarId, {
        videoKey: video.key, loopKey: loop.key, coverKey: cover.key, coverSmallKey: small.key,
        duration: prepared.duration, orientation: prepared.orientation, width: prepared.width, height: prepared.height, ...faces,
      });
      if (!made) await deleteObjects(ctx, [video.key, loop.key, cover.key, small.key, faces.facesKey]);
      return false;
    });
    if (tooShort) return fail(MSG.videoDurationInvalid);
    // The uploaded original is no longer needed: the normalized copy replaces it in the user's space.
    const original = await avatars.readySourceKey(avatarId);
    if (original) await deleteObjects(ctx, [original]);
  } catch (err) {
    if (attempt >= JOB_RETRY_LIMIT) return fail('视频处理失败，请检查视频后重新上传', err);
    throw err;
  }
}
