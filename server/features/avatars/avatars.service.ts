/** Starting a clone (the user's clone call and the operator's avatar publish), and the face analysis of the lip-sync engine. */
import path from 'node:path';
import { MSG } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { storeUserFile } from '../../infra/user-files';
import { analyseAvatarFaces } from '../../engines/lipsync';
import type { JobQueue } from '../../infra/queue';
import { AvatarsRepository } from './avatars.repository';

/** Inside the caller's transaction: the cloning avatar and its job, which runs only if the transaction commits. */
/**
 * How long a clone may run: normalizing plus the face analysis, which takes up to about 3 s per second of video on
 * a busy machine (bench g); past its allowance the queue would start the clone again beside itself.
 */
const CLONE_START_SECONDS = 120;
const CLONE_PER_SECOND = 4;

export async function startClone(q: Queryable, queue: JobQueue, clone: { userId: number | null; name: string; sourceFileId: number; seconds: number }): Promise<number> {
  const avatarId = await new AvatarsRepository(q).addCloning(clone.userId, clone.name, clone.sourceFileId);
  await queue.send('avatars-clone', { avatarId }, { runsUpToSeconds: CLONE_START_SECONDS + CLONE_PER_SECOND * clone.seconds }, q);
  return avatarId;
}

/** What a face analysis that found an animatable face notes (anything else is the reason shown on works). */
export const FACE_OK = 'ok';

/**
 * The offline lip-sync engine's one-time look at an avatar's normalized video. A usable face gives a face track
 * (a local file in `dir`, for the caller to store or use); otherwise only the reason. An analysis that breaks
 * notes that, so works fall back to the loop instead of failing.
 */
export async function analyseFaces(ctx: FeatureContext, normalized: string, dir: string): Promise<{ track?: string; faceNote: string }> {
  const track = path.join(dir, 'faces.bin');
  try {
    const found = await analyseAvatarFaces(normalized, track);
    return found.found ? { track, faceNote: FACE_OK } : { faceNote: found.reason ?? MSG.lipSyncNoFace };
  } catch (err) {
    ctx.app.log.warn({ err }, 'face analysis failed');
    return { faceNote: MSG.lipSyncAnalysisFailed };
  }
}

/** Analyses an avatar's face and stores the track as the owner's object (public for null). */
export async function analyseAndStoreFaces(ctx: FeatureContext, userId: number | null, normalized: string, dir: string): Promise<{ facesKey: string; faceNote: string }> {
  const { track, faceNote } = await analyseFaces(ctx, normalized, dir);
  return { facesKey: track ? (await storeUserFile(ctx, userId, track, 'bin', 'other')).key : '', faceNote };
}
