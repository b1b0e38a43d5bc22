/** Avatars: my avatars, public avatars, the home page actor tab, avatar clone (part 1 §2, §3, §5, §7). */
import { z } from 'zod';
import { defineGroup, userCall, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { bySourceRequest, listPage, nameField, removeById, requiredId } from './fields';

/** 1 = the user's own, 2 = public. */
export const AVATAR_SOURCES = [1, 2] as const;

/** Avatar.status (ours): 1 cloning, 3 ready, 4 failed; a public avatar without a status is ready. */
export const AvatarStatus = { Cloning: 1, Ready: 3, Failed: 4 } as const;

/** An avatar video (also the shape of a public "work video", part 1 §3). */
export const Avatar = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  cover: z.string(),
  cover_small: z.string(),
  /** 1 own, 2 public. */
  source: z.number(),
  /** ours: 1 processing, 3 ready, 4 failed. */
  status: z.number().optional(),
  /** ours: seconds (channel gj needs LIMITS.gjAvatarSeconds). */
  duration: z.number().optional(),
  /** ours: 1 landscape, 2 portrait (the spec's hs values). */
  orientation: z.number().optional(),
  /** ours: why cloning failed (status 4). */
  reason: z.string().optional(),
});
export type Avatar = z.infer<typeof Avatar>;

export const avatarsCalls = defineGroup('avatars', {
  list: specCall('GET', '/api/user/video', {
    summary: `Avatar list: own (source 1) or public (source 2), by name; pickers use limit ${LIMITS.listLimitAll}.`,
    request: bySourceRequest(AVATAR_SOURCES, 1),
    response: listPage(Avatar),
  }),
  publicList: userCall('GET', '/api/publicVideo', {
    summary: 'Public works list for the home page actor tab: landscape (hlist) and portrait (slist) public avatars, by name.',
    request: bySourceRequest([2], 2),
    response: z.object({ hlist: z.array(Avatar), slist: z.array(Avatar) }),
  }),
  clone: userCall('POST', '/api/user/video', {
    summary:
      `Clone an avatar from a registered video (${LIMITS.video.formats.join('/')}, ${LIMITS.video.minSeconds} s to ${LIMITS.video.maxSeconds / 60} min, ` +
      `${LIMITS.video.minShortSide}p to ${LIMITS.video.maxLongSide}px, at most ${LIMITS.video.maxBytes / 1024 / 1024} MB); answers MSG.cloneSucceeded.`,
    request: z.object({
      name: nameField(MSG.avatarNameRequired),
      file_id: requiredId(MSG.avatarVideoRequired),
    }),
    response: z.object({ id: z.number() }),
  }),
  remove: removeById({ path: '/api/user/video', pathFromSpec: false, summary: 'Delete one of the user\'s own avatars (public avatars cannot be deleted).' }, '数字人ID'),
});
