/**
 * The avatar loop (the video channel engine `local`): it runs anywhere ffmpeg does, needs no keys and does not lip-sync.
 * Cloning normalizes the avatar (H.264, short side ≤ 1080, 25 fps, yuv420p), makes the covers and a
 * pre-encoded forward-and-back loop; rendering loops that clip under the audio, copying the video stream,
 * so a render costs little more than encoding the audio.
 */
import path from 'node:path';
import { probe } from '../../infra/media-probe';
import { loopUnderSound, makeBackAndForthLoop, makeCover, makeSmallCover, normaliseVideo } from '../media';

/** Seconds of the avatar that make the loop (forward then backward); kept short because `reverse` holds frames in memory. */
const LOOP_SOURCE_SECONDS = 4;

export interface PreparedAvatar {
  normalized: string;
  loop: string;
  cover: string;
  coverSmall: string;
  duration: number;
  width: number;
  height: number;
  /** 1 landscape, 2 portrait (the spec's hs values). */
  orientation: 1 | 2;
}

export async function prepareAvatar(input: string, ext: string, workDir: string): Promise<PreparedAvatar> {
  const normalized = path.join(workDir, 'normalized.mp4');
  const loop = path.join(workDir, 'loop.mp4');
  const cover = path.join(workDir, 'cover.jpg');
  const coverSmall = path.join(workDir, 'cover_small.jpg');
  await normaliseVideo(input, ext, normalized);
  const info = await probe(normalized, 'mp4');
  const width = info.video?.width ?? 0;
  const height = info.video?.height ?? 0;
  const loopSeconds = Math.min(LOOP_SOURCE_SECONDS, info.duration);
  await makeBackAndForthLoop(normalized, loopSeconds, loop);
  const at = Math.min(0.5, info.duration / 2);
  await makeCover(normalized, 'mp4', cover, { at, quality: 3 });
  await makeSmallCover(normalized, 'mp4', coverSmall, at);
  return { normalized, loop, cover, coverSmall, duration: info.duration, width, height, orientation: width >= height ? 1 : 2 };
}

/**
 * Loops the avatar's clip under the audio, cut to exactly the audio's length; H.264/AAC mp4 with faststart.
 * `startAt` (whole seconds, the loop has a keyframe every second) starts the clip further in.
 */
export async function renderTalkingVideo(loop: string, audio: string, audioExt: string, output: string, { startAt = 0 } = {}): Promise<{ duration: number }> {
  const { duration } = await probe(audio, audioExt);
  if (!(duration > 0)) throw new Error('the audio has no duration');
  await loopUnderSound(loop, { file: audio, ext: audioExt }, duration, output, startAt);
  return { duration: (await probe(output, 'mp4')).duration };
}

/** Seconds of an avatar's loop (forward then back), for choosing a random start. */
export async function loopSeconds(loop: string): Promise<number> {
  return (await probe(loop, 'mp4')).duration;
}
