/**
 * Ready avatars for specs that need one but do not test cloning. The clone job's work (normalise the clip, make
 * its loop and covers, the lip-sync engine's face analysis) is done once per run for each distinct source clip,
 * with the pipeline's own functions, and kept in the media cache; each use stores those outputs as the owner's
 * objects and moves a new avatar from cloning to ready through the avatars repository, as the job does, so the
 * avatar, its files and its owner's space end as a real clone leaves them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { prepareAvatar } from '../../server/engines/render';
import { AvatarsRepository, analyseFaces } from '../../server/features/avatars';
import { deleteObjects, storeUserFile } from '../../server/infra/user-files';
import type { ApiTestClient, TestApp } from './app';
import { cachedFolder } from './media-cache';

/** Raise it when the clone job's outputs change in a way the source clip's bytes do not show. */
const CLONE_RECIPE_VERSION = 1;

interface Prepared {
  duration: number;
  width: number;
  height: number;
  orientation: number;
  faceNote: string;
  /** faces.bin is in the folder (an animatable face was found). */
  track: boolean;
}

/** The clone job's outputs for this clip, made on the first call of the run (in `t`'s context, for the analysis' log). */
async function prepared(t: TestApp, source: string): Promise<{ dir: string; meta: Prepared }> {
  const hash = createHash('sha256').update(`clone-v${CLONE_RECIPE_VERSION}\0`).update(fs.readFileSync(source)).digest('hex').slice(0, 32);
  const dir = await cachedFolder(`avatar-${hash}`, async (out) => {
    const ext = path.extname(source).slice(1).toLowerCase();
    const work = path.join(out, 'work');
    fs.mkdirSync(work);
    const p = await prepareAvatar(source, ext, work);
    const faces = await analyseFaces(t.app.ctx, p.normalized, work);
    for (const [from, to] of [[p.normalized, 'normalized.mp4'], [p.loop, 'loop.mp4'], [p.cover, 'cover.jpg'], [p.coverSmall, 'cover_small.jpg'], [faces.track, 'faces.bin']] as const) {
      if (from) fs.renameSync(from, path.join(out, to));
    }
    fs.rmSync(work, { recursive: true, force: true });
    const meta: Prepared = { duration: p.duration, width: p.width, height: p.height, orientation: p.orientation, faceNote: faces.faceNote, track: !!faces.track };
    fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(meta));
  });
  return { dir, meta: JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Prepared };
}

/**
 * A ready avatar of `owner` (a logged-in client, a user id, or null for a public one) cloned from `source`, as
 * the clone call and its job would leave it; answers its id.
 */
export async function readyAvatar(t: TestApp, owner: ApiTestClient | number | null, source: string, name = '主播'): Promise<number> {
  const ctx = t.app.ctx;
  const userId = owner === null || typeof owner === 'number' ? owner : (await ctx.sessions.authenticate(owner.token ?? ''))?.id;
  if (userId === undefined) throw new Error('readyAvatar: the client is not logged in');
  const { dir, meta } = await prepared(t, source);
  const avatars = new AvatarsRepository(ctx.db);
  // The uploaded original, which the clone replaces with its normalized copy and then deletes.
  const original = await storeUserFile(ctx, userId, source, path.extname(source).slice(1).toLowerCase(), 'video', meta.duration);
  const avatarId = await avatars.addCloning(userId, name, original.fileId);
  const store = (file: string, ext: string, kind: 'video' | 'image' | 'other', duration?: number) => storeUserFile(ctx, userId, path.join(dir, file), ext, kind, duration);
  const video = await store('normalized.mp4', 'mp4', 'video', meta.duration);
  const loop = await store('loop.mp4', 'mp4', 'video');
  const cover = await store('cover.jpg', 'jpg', 'image');
  const small = await store('cover_small.jpg', 'jpg', 'image');
  const facesKey = meta.track ? (await store('faces.bin', 'bin', 'other')).key : '';
  const made = await avatars.ready(avatarId, {
    videoKey: video.key, loopKey: loop.key, coverKey: cover.key, coverSmallKey: small.key,
    duration: meta.duration, orientation: meta.orientation, width: meta.width, height: meta.height, facesKey, faceNote: meta.faceNote,
  });
  if (!made) throw new Error(`readyAvatar: avatar ${avatarId} was not cloning`);
  const sourceKey = await avatars.readySourceKey(avatarId);
  if (sourceKey) await deleteObjects(ctx, [sourceKey]);
  return avatarId;
}
