/**
 * The offline image-to-video engine: camera motion made on this machine, not a generative model. The first frame
 * gets a slow push in with a gentle pan; with a last frame, the picture cross-fades to it over the last seconds
 * (the last frame settling with a slow pull back). Output: H.264 mp4 of exactly the chosen duration, framed to
 * the chosen aspect (the picture covers the frame, centred), no sound.
 */
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';

const FPS = 25;
const X264 = ['-c:v', 'libx264', '-preset', 'superfast', '-crf', '22', '-pix_fmt', 'yuv420p'];
/** Output frames: 720 px on the short side keeps a 5 s render to a few seconds on a small machine. */
export const CAMERA_MOTION_FRAMES: Record<string, { width: number; height: number }> = {
  '16:9': { width: 1280, height: 720 },
  '9:16': { width: 720, height: 1280 },
  '1:1': { width: 720, height: 720 },
};
/** The zoom is computed on a picture this many times larger than the output, so the slow motion does not jitter. */
const OVERSAMPLE = 1.5;
/** How far the camera pushes in over a segment (1 → 1 + PUSH). */
const PUSH = 0.12;

export interface CameraMotionInput {
  first: { file: string; ext: string };
  last?: { file: string; ext: string };
  duration: number;
  aspectRatio: string;
  output: string;
  /** One picture's motion (one-click B-roll): push in (the default), pull out, or pan across at a steady zoom. */
  motion?: 'in' | 'out' | 'pan';
}

/** How long the cross-fade to the last frame lasts, and so how long the last frame's own segment is. */
export const crossFadeSeconds = (duration: number) => Math.min(1.5, duration * 0.3);

/**
 * One picture as `frames` frames of slow camera motion; `pullBack` reverses the push (the last frame settles), `pan`
 * holds the zoom and moves across the picture.
 */
function segment(input: number, frames: number, size: { width: number; height: number }, pullBack: boolean, pan = false): string {
  const big = `${size.width * OVERSAMPLE}:${size.height * OVERSAMPLE}`;
  const progress = `(on/${Math.max(1, frames - 1)})`;
  const zoom = pan ? `${1 + PUSH}` : pullBack ? `${1 + PUSH / 2}-${PUSH / 2}*${progress}` : `1+${PUSH}*${progress}`;
  const x = pan ? `(iw-iw/zoom)*${progress}` : pullBack ? `(iw-iw/zoom)/2` : `(iw-iw/zoom)*(0.35+0.3*${progress})`;
  return [
    `[${input}:v]scale=${big}:force_original_aspect_ratio=increase:flags=lanczos,crop=${big},setsar=1`,
    `zoompan=z='${zoom}':x='${x}':y='(ih-ih/zoom)/2':d=${frames}:s=${size.width}x${size.height}:fps=${FPS}`,
    `format=yuv420p[s${input}]`,
  ].join(',');
}

export async function cameraMotionClip(p: CameraMotionInput): Promise<{ duration: number; width: number; height: number }> {
  const size = CAMERA_MOTION_FRAMES[p.aspectRatio];
  if (!size) throw new Error(`unknown aspect ratio ${p.aspectRatio}`);
  const total = Math.round(p.duration * FPS);
  const inputs = [p.first, ...(p.last ? [p.last] : [])].flatMap((pic) => ['-f', DEMUXER[pic.ext] ?? 'image2', '-i', pic.file]);
  let graph: string;
  if (p.last) {
    const fade = crossFadeSeconds(p.duration);
    const tailFrames = Math.round(fade * FPS);
    graph = [
      segment(0, total, size, false),
      segment(1, tailFrames, size, true),
      // The bundled ffmpeg predates xfade: the last frame fades in over an alpha channel, laid over the first from its offset.
      `[s1]format=yuva420p,fade=t=in:st=0:d=${fade}:alpha=1,setpts=PTS-STARTPTS+${(p.duration - fade).toFixed(3)}/TB[t]`,
      `[s0][t]overlay=0:0:eof_action=pass,format=yuv420p[v]`,
    ].join(';');
  } else {
    graph = segment(0, total, size, p.motion === 'out', p.motion === 'pan').replace('[s0]', '[v]');
  }
  await ffmpeg([...inputs, '-filter_complex', graph, '-map', '[v]', '-frames:v', String(total), '-r', String(FPS), ...X264, '-g', String(FPS * 2), '-an', '-movflags', '+faststart', p.output]);
  const out = await probe(p.output, 'mp4');
  return { duration: out.duration, width: out.video?.width ?? 0, height: out.video?.height ?? 0 };
}
