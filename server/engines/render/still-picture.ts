/**
 * Videos from one still picture (pet and photo-speak works): the picture as a short still clip (what the offline
 * lip-sync engine animates when it finds a face), or the picture under the speech with a gentle camera motion
 * (a slow push in and out) when no mouth can be moved. Both keep the picture's aspect ratio; the short side is
 * at least the size this machine composes at (RENDER_SHORT_SIDE, 720 px unless the operator sets another) and at
 * most 1080 px, the picture's own size in between; sizes are even, H.264 + AAC with faststart.
 */
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';
import { FPS, X264 } from '../media/common';
import { DEFAULT_SHORT_SIDE } from '../videogen';

/** The largest short side a picture keeps: a bigger one is scaled down to it. */
const MAX_SHORT_SIDE = 1080;
/** The motion is computed on a picture this many times larger than the output, so the slow zoom does not jitter. */
const OVERSAMPLE = 2;
/** One push in and back out takes this many seconds; the zoom stays within 1.01–1.09. */
const MOTION_PERIOD_SECONDS = 12;

/** The still clip's length: the lip-sync engine loops it under the speech. */
export const STILL_SECONDS = 1;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The output frame for a picture of this size: aspect kept, short side clamped to `minShortSide` (the composing size,
 * RENDER_SHORT_SIDE) – 1080, even sizes.
 */
export function frameSize(width: number, height: number, minShortSide = DEFAULT_SHORT_SIDE): { width: number; height: number } {
  const short = Math.min(width, height);
  if (!(short > 0)) throw new Error('the picture has no size');
  const target = Math.min(MAX_SHORT_SIDE, Math.max(minShortSide, short));
  const scale = target / short;
  return { width: even(width * scale), height: even(height * scale) };
}

/** ffmpeg's input arguments for a picture; `REPEAT` (after its scaling, so that is done once) makes it endless frames. */
const pictureInput = (picture: string) => ['-f', 'image2', '-framerate', String(FPS), '-i', picture];
const REPEAT = 'loop=loop=-1:size=1';

/** The picture's size, read from its content. */
export async function pictureSize(picture: string, ext: string): Promise<{ width: number; height: number }> {
  const info = await probe(picture, ext);
  return { width: info.video?.width ?? 0, height: info.video?.height ?? 0 };
}

/** A still clip (STILL_SECONDS) of the picture at its output size (25 fps), for face analysis and the lip-sync engine. */
export async function stillClip(picture: string, size: { width: number; height: number }, output: string, minShortSide?: number): Promise<string> {
  const { width, height } = frameSize(size.width, size.height, minShortSide);
  await ffmpeg([...pictureInput(picture), '-vf', `scale=${width}:${height}:flags=lanczos,setsar=1,${REPEAT},format=yuv420p`, '-frames:v', String(FPS * STILL_SECONDS), ...X264, '-an', '-movflags', '+faststart', output]);
  return output;
}

/** The picture under the audio with a slow push in and out, cut to exactly the audio's length. */
export async function cameraMotionVideo(
  picture: string, size: { width: number; height: number }, audio: string, audioExt: string, output: string, minShortSide?: number,
): Promise<{ duration: number }> {
  const { duration } = await probe(audio, audioExt);
  if (!(duration > 0)) throw new Error('the audio has no duration');
  const { width, height } = frameSize(size.width, size.height, minShortSide);
  const zoom = `1.05-0.04*cos(2*PI*on/${FPS * MOTION_PERIOD_SECONDS})`;
  const motion = [
    `scale=${width * OVERSAMPLE}:${height * OVERSAMPLE}:flags=lanczos,setsar=1`,
    REPEAT,
    `zoompan=z='${zoom}':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=1:s=${width}x${height}:fps=${FPS}`,
    'format=yuv420p',
  ].join(',');
  await ffmpeg([
    ...pictureInput(picture), '-f', DEMUXER[audioExt] ?? 'mov', '-i', audio,
    '-t', duration.toFixed(3), '-map', '0:v:0', '-map', '1:a:0', '-vf', motion,
    ...X264, '-g', String(FPS * 2), '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart', output,
  ]);
  return { duration: (await probe(output, 'mp4')).duration };
}
