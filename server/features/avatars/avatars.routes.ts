/** My avatars (clone from an uploaded video, list, delete) and the public avatars of the home page. */
import { API, LIMITS, MSG, type Avatar } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { ObjectUrls } from '../../infra/object-urls';
import type { FeatureContext } from '../../app-context';
import { deleteObjects } from '../../infra/user-files';
import { AvatarsRepository, type AvatarRow } from './avatars.repository';
import { startClone } from './avatars.service';

const toAvatar = (urls: ObjectUrls) => (r: AvatarRow): Avatar => ({
  id: r.id,
  name: r.name,
  url: urls.url(r.video_key),
  cover: urls.url(r.cover_key),
  cover_small: urls.url(r.cover_small_key || r.cover_key),
  source: r.user_id === null ? 2 : 1,
  status: Number(r.status),
  duration: Number(r.duration),
  orientation: Number(r.orientation),
  reason: r.reason || undefined,
});

export function registerAvatarRoutes(ctx: FeatureContext): void {
  const { router, db, queue, urls } = ctx;
  const avatars = new AvatarsRepository(db);

  router.handle(API.avatars.list, async ({ params, user }) => {
    const rows = params.source === 2 ? await avatars.listPublic(params) : await avatars.listOwn(user.id, params);
    return { list: rows.map(toAvatar(urls)) };
  });

  router.handle(API.avatars.publicList, async ({ params }) => ({
    hlist: (await avatars.listPublic({ ...params, orientation: 1 })).map(toAvatar(urls)),
    slist: (await avatars.listPublic({ ...params, orientation: 2 })).map(toAvatar(urls)),
  }));

  router.handle(API.avatars.clone, async ({ params, user }) => {
    const file = await avatars.ownFile(params.file_id, user.id);
    if (!file || file.kind !== 'video') throw new ApiError(MSG.avatarVideoRequired);
    // Files registered before uploads were measured by their packets may claim more than they hold; the job checks again.
    if (Number(file.duration) < LIMITS.video.minSeconds) throw new ApiError(MSG.videoDurationInvalid);
    return db.tx(async (q) => {
      if (await new AvatarsRepository(q).isSourceUsed(params.file_id)) throw new ApiError('该视频已用于克隆，请重新上传');
      return { id: await startClone(q, queue, { userId: user.id, name: params.name, sourceFileId: params.file_id, seconds: Number(file.duration) }) };
    });
  });

  router.handle(API.avatars.remove, async ({ params, user }) => {
    const keys = await avatars.remove(params.id, user.id);
    if (!keys) throw new ApiError(MSG.notFound);
    await deleteObjects(ctx, keys);
    return {};
  });
}
