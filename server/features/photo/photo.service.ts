/**
 * Pictures and the works made from them. Adding a picture (a user's upload or the operator's publish) stores the
 * picture's own copy and a small cover. A work from a picture renders here, called by the works feature's render
 * job: with the offline lip-sync engine and a face found, the mouth moves with the speech; otherwise (a pet, no
 * usable face, or a channel that does not lip-sync) the camera moves gently over the still picture and the work's
 * card says so.
 */
import path from 'node:path';
import { MSG, PhotoType, type PhotoTypeValue, type TimedText } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { sniffFile } from '../../infra/media-files';
import { storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { makeSmallCover } from '../../engines/media';
import { cameraMotionVideo, frameSize, pictureSize, STILL_SECONDS, stillClip } from '../../engines/render';
import { FPS, markedMouthTrack, renderLipSync, writeFaceTrack, type LipSyncEngine } from '../../engines/lipsync';
import { analyseFaces } from '../avatars';
import { PhotoRepository, type PhotoRow } from './photo.repository';
import { fetchObject } from '../../infra/storage';

/** Where the user clicked the mouth, as fractions of the picture's width and height. */
export type MouthMark = { x: number; y: number };

/**
 * Whether the channel's video engine renders picture works: those on this machine do (the one that moves the mouth
 * with the offline lip-sync engine, the other with a camera motion); remote lip-sync servers take avatar videos only.
 */
const madeHere = (engine: LipSyncEngine | undefined): engine is LipSyncEngine & { kind: 'local' } => engine?.kind === 'local';

/** A picture work is thrown out with this (an input gone): the works feature fails it at once, credits returned. */
export class PictureGone extends Error {}

async function download(ctx: FeatureContext, key: string, file: string): Promise<string> {
  await fetchObject(ctx.storage, key, file);
  return file;
}

/**
 * Adds a picture from a local png/jpg already checked by content (the upload calls, or the operator's publish):
 * its own copy and a 360 px cover, owned by the user (null: public).
 */
export async function addPhoto(ctx: FeatureContext, p: { userId: number | null; type: PhotoTypeValue; name: string; file: string; mouth?: MouthMark }): Promise<number> {
  const ext = sniffFile(p.file);
  if (ext !== 'png' && ext !== 'jpg') throw new ApiError(MSG.imageInvalid);
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const size = await pictureSize(p.file, ext);
    const cover = await makeSmallCover(p.file, ext, path.join(dir, 'cover.jpg'));
    const image = await storeUserFile(ctx, p.userId, p.file, ext, 'image');
    const small = await storeUserFile(ctx, p.userId, cover, 'jpg', 'image');
    return new PhotoRepository(ctx.db).add({ userId: p.userId, type: p.type, name: p.name, imageKey: image.key, coverKey: small.key, ...size, mouth: p.mouth });
  });
}

/** Adds one of the user's own pictures from an image they uploaded (file_id of the upload calls) or of their material library. */
export async function addOwnPhoto(ctx: FeatureContext, userId: number, p: { type: PhotoTypeValue; name: string; fileId?: number; materialId?: number; mouth?: MouthMark }): Promise<number> {
  const photos = new PhotoRepository(ctx.db);
  const upload = p.fileId !== undefined ? await photos.ownImageFile(p.fileId, userId) : await photos.ownMaterialImage(p.materialId!, userId);
  if (!upload) throw new ApiError(p.type === 2 ? MSG.petImageRequired : MSG.personImageRequired);
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const file = await download(ctx, upload.key, path.join(dir, `upload.${upload.key.split('.').pop()}`));
    return addPhoto(ctx, { userId, type: p.type, name: p.name, file, mouth: p.mouth });
  });
}

/**
 * At submit: the picture a work shows (the user's own or a public one) on a channel that can render it; else the
 * message. Answers what the work keeps of it.
 */
export async function pictureForWork(q: Queryable, userId: number, photoId: number, engine: LipSyncEngine | undefined): Promise<{ photoId: number; photoType: number }> {
  const photo = await new PhotoRepository(q).usableBy(photoId, userId);
  if (!photo) throw new ApiError(MSG.photoMissing);
  if (!madeHere(engine)) throw new ApiError(MSG.photoChannelUnsupported);
  return { photoId: photo.id, photoType: Number(photo.type) };
}

export interface PictureRender {
  userId: number;
  photoId: number;
  /** The channel's video engine (lipSyncEngineFor). */
  engine: LipSyncEngine | undefined;
  audio: { file: string; ext: string };
  /** The speech's timed text, when known: the lips round where its words do (as on an avatar). */
  script?: readonly TimedText[];
  dir: string;
}

/** The rendered work (the works feature stores and settles it): an mp4 in `dir`, its cover stored as the user's. */
export async function renderPictureWork(ctx: FeatureContext, job: PictureRender): Promise<{ file: string; ext: 'mp4'; duration: number; coverKey: string; note?: string }> {
  const output = path.join(job.dir, 'work.mp4');
  const rendered = await renderPictureTalking(ctx, job, output);
  const cover = await makeSmallCover(output, 'mp4', path.join(job.dir, 'work-cover.jpg'));
  const { key } = await storeUserFile(ctx, job.userId, cover, 'jpg', 'image');
  return { file: output, ext: 'mp4', duration: rendered.duration, coverKey: key, note: rendered.note };
}

/**
 * The picture talking over the job's audio, written to `output` (an mp4 at the picture's shape): the mouth moved by
 * the offline lip-sync engine on a face, else the camera moving over the still; `note` says which, for the card.
 * One-click creation renders its avatar scenes from a picture through this too.
 */
export async function renderPictureTalking(ctx: FeatureContext, job: PictureRender, output: string): Promise<{ duration: number; note?: string }> {
  const photo: PhotoRow | undefined = await new PhotoRepository(ctx.db).usableBy(job.photoId, job.userId);
  if (!photo) throw new PictureGone('图片已被删除，积分已退回');
  const engine = job.engine;
  if (!madeHere(engine)) throw new PictureGone('该通道的视频引擎不可用，积分已退回');
  const ext = photo.image_key.split('.').pop()!;
  const picture = await download(ctx, photo.image_key, path.join(job.dir, `picture.${ext}`));
  const size = { width: Number(photo.width), height: Number(photo.height) };
  const mark = photo.mouth_x !== null && photo.mouth_y !== null ? { x: Number(photo.mouth_x), y: Number(photo.mouth_y) } : undefined;
  const face = engine.movesMouth ? await lipSyncFace(ctx, picture, size, job.dir, mark) : undefined;
  if (face?.track) return renderLipSync({ video: face.still, faces: face.track, audio: job.audio.file, audioExt: job.audio.ext, output, script: job.script });
  const motion = await cameraMotionVideo(picture, size, job.audio.file, job.audio.ext, output, ctx.config.renderShortSide);
  return { ...motion, note: !face ? MSG.photoMotionChannel : Number(photo.type) === PhotoType.Pet ? MSG.photoMotionNoMouth : MSG.photoMotionNoFace };
}

/**
 * The picture as a one-second still clip, and the face track the lip-sync engine found in it; failing that, one
 * built around the mouth the user marked (a pet's face is not one the detector knows).
 */
async function lipSyncFace(ctx: FeatureContext, picture: string, size: { width: number; height: number }, dir: string, mark?: MouthMark) {
  const still = await stillClip(picture, size, path.join(dir, 'still.mp4'), ctx.config.renderShortSide);
  const { track } = await analyseFaces(ctx, still, dir);
  if (track || !mark) return { still, track };
  const { width, height } = frameSize(size.width, size.height, ctx.config.renderShortSide);
  const marked = path.join(dir, 'marked-mouth.bin');
  writeFaceTrack(marked, markedMouthTrack(width, height, STILL_SECONDS * FPS, mark));
  return { still, track: marked };
}
