/** The clone job: the local engine normalizes the uploaded video and makes the loop and covers; the lip-sync engine finds the face once. */
import { AvatarStatus, LIMITS, MSG } from '../../../src/contract';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { prepareAvatar } from '../../engines/render';
import type { FeatureContext } from '../../app-context';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { notifyCloneEnded } from '../notice';
import { AvatarsRepository } from './avatars.repository';
import { analyseAndStoreFaces } from './avatars.service';

/** Through the paid-job runner (a clone is free: nothing to refund): a ready or failed avatar is left alone. */
export function runAvatarClone(ctx: FeatureContext, avatarId: number, attempt: number): Promise<void> {
  const avatars = new AvatarsRepository(ctx.db);
  return runPaidJob({ retryCount: attempt }, {
    load: () => avatars.cloneSource(avatarId),
    isOpen: (source) => source.status === AvatarStatus.Cloning,
    run: (source) => clone(ctx, avatarId, source),
    fail: async (source, reason) => {
      await avatars.fail(avatarId, reason);
      await notifyCloneEnded(ctx.db, { userId: source.user_id, kind: 'avatar', name: source.name, failedReason: reason });
    },
    lastReason: '视频处理失败，请检查视频后重新上传',
  });
}

async function clone(ctx: FeatureContext, avatarId: number, source: { key: string | null; user_id: number; name: string }): Promise<void> {
  const avatars = new AvatarsRepository(ctx.db);
  if (!source.key) throw new JobRefused('源视频已不存在，请重新上传');
  const key = source.key;
  const tooShort = await withWorkDir(ctx.config.dataDir, async (dir) => {
    const prepared = await ctx.storage.withLocalFile(key, (file) => prepareAvatar(file, key.slice(key.lastIndexOf('.') + 1), dir));
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
    else {
      await avatars.handOverMaterial(avatarId, video.fileId);
      await notifyCloneEnded(ctx.db, { userId: source.user_id, kind: 'avatar', name: source.name });
    }
    return false;
  });
  if (tooShort) throw new JobRefused(MSG.videoDurationInvalid);
  // The uploaded original is no longer needed: the normalized copy replaces it in the user's space.
  const original = await avatars.readySourceKey(avatarId);
  if (original) await deleteObjects(ctx, [original]);
}
