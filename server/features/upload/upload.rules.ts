/**
 * What each upload type accepts, checked by content: the format from magic bytes, then ffprobe for
 * duration, streams and resolution (part 1 §5, part 2 §5, §9).
 */
import { LIMITS, MSG, type UploadFileType } from '../../../src/contract';
import { playableSeconds, probe, type ProbeResult } from '../../infra/media-probe';
import { readFileHead, sniffExtension } from '../../infra/media-files';

export const MAX_BYTES: Record<UploadFileType, number> = {
  video: LIMITS.video.maxBytes,
  voice: LIMITS.audio.maxBytes,
  image: LIMITS.image.maxBytes,
};

const FORMATS: Record<UploadFileType, readonly string[]> = {
  video: LIMITS.video.formats,
  voice: LIMITS.audio.formats,
  image: ['png', 'jpg'],
};

/** The message a user sees when a file of this type is refused. */
export const REFUSED: Record<UploadFileType, string> = {
  video: MSG.avatarVideoInvalid,
  voice: MSG.audioInvalid,
  image: MSG.imageInvalid,
};

const VIDEO_CODECS = new Set(['h264', 'hevc', 'mpeg4', 'prores', 'vp9', 'av1', 'mjpeg']);

export interface CheckedMedia {
  ext: string;
  duration: number;
  width: number;
  height: number;
}

export class MediaRefused extends Error {}

/** The checks that need only the size and the first bytes (the format by its magic bytes); answers the format. */
export function checkHead(head: Buffer, type: UploadFileType, size: number): string {
  if (size <= 0) throw new MediaRefused(MSG.fileEmpty);
  if (size > MAX_BYTES[type]) throw new MediaRefused(type === 'image' ? MSG.imageTooLarge : REFUSED[type]);
  const ext = sniffExtension(head);
  // No format at all (text named .mp4) says so; a known format of the wrong kind gets the type's rule.
  if (!ext) throw new MediaRefused(MSG.fileUnrecognized(type));
  if (!FORMATS[type].includes(ext)) throw new MediaRefused(REFUSED[type]);
  return ext;
}

/** Checks a local file against the rules of its upload type; throws MediaRefused with the user's message. */
export async function checkMedia(file: string, type: UploadFileType, size: number): Promise<CheckedMedia> {
  const refuse = (why?: string): never => {
    throw new MediaRefused(why ?? REFUSED[type]);
  };
  const ext = checkHead(readFileHead(file), type, size);
  let info: ProbeResult;
  try {
    info = await probe(file, ext!);
  } catch {
    return refuse();
  }
  if (type === 'image') {
    const v = info.video;
    if (!v || Math.min(v.width, v.height) < LIMITS.image.minSide) refuse(MSG.imageTooSmall);
    return { ext: ext!, duration: 0, width: v!.width, height: v!.height };
  }
  const { minSeconds, maxSeconds } = type === 'video' ? LIMITS.video : LIMITS.audio;
  // A video cut short keeps the duration its index claims: what counts is what is really there to play.
  if (type === 'video' && info.video) info.duration = Math.min(info.duration, await playableSeconds(file, ext!, 'v').catch(() => 0));
  if (!(info.duration >= minSeconds && info.duration <= maxSeconds)) refuse(type === 'video' ? MSG.videoDurationInvalid : MSG.audioDurationInvalid);
  if (type === 'video') {
    const v = info.video;
    if (!v || !VIDEO_CODECS.has(v.codec)) refuse();
    const short = Math.min(v!.width, v!.height);
    const long = Math.max(v!.width, v!.height);
    if (short < LIMITS.video.minShortSide || long > LIMITS.video.maxLongSide) refuse(MSG.videoResolutionInvalid);
    return { ext: ext!, duration: info.duration, width: v!.width, height: v!.height };
  }
  if (!info.audio) refuse();
  return { ext: ext!, duration: info.duration, width: 0, height: 0 };
}
