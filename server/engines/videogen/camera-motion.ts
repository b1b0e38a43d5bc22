/**
 * The offline image-to-video engine: camera motion made on this machine, not a generative model. The first frame
 * gets a slow push in with a gentle pan; with a last frame, the picture cross-fades to it over the last seconds
 * (the last frame settling with a slow pull back). Output: H.264 mp4 of exactly the chosen duration, framed to
 * the chosen aspect (the picture covers the frame, centred), no sound. A picture's `face` (issue 33: a portrait
 * at 16:9 lost its head) is never cut: the framing moves to take it in, and the push and pan stay where every frame
 * shows it whole (a face too large for the push leaves the camera closer to still).
 */
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';
import { FPS } from '../media/common';

const X264 = ['-c:v', 'libx264', '-preset', 'superfast', '-crf', '22', '-pix_fmt', 'yuv420p'];
/** Output frames' short side unless the operator sets another (RENDER_SHORT_SIDE): 720 px keeps a 5 s render to a few seconds on a small machine. */
export const DEFAULT_SHORT_SIDE = 720;
const ASPECTS: Record<string, readonly [number, number]> = { '16:9': [16, 9], '9:16': [9, 16], '1:1': [1, 1] };
/** The frame of an aspect ratio with `shortSide` px on its short side, in even pixels (H.264's 4:2:0); undefined for a ratio not offered. */
export function motionFrames(aspectRatio: string, shortSide = DEFAULT_SHORT_SIDE): { width: number; height: number } | undefined {
  const ratio = ASPECTS[aspectRatio];
  if (!ratio) return undefined;
  const unit = shortSide / Math.min(...ratio);
  const even = (n: number) => 2 * Math.round(n / 2);
  return { width: even(ratio[0] * unit), height: even(ratio[1] * unit) };
}
/** The zoom is computed on a picture this many times larger than the output, so the slow motion does not jitter. */
const OVERSAMPLE = 1.5;
/** How far the camera pushes in over a segment (1 → 1 + PUSH). */
const PUSH = 0.12;

/** A box in a picture's pixels. */
export interface PictureBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A picture to move over, with the face in it to keep whole (its landmarks' box; absent: none found). */
export interface MotionPicture {
  file: string;
  ext: string;
  face?: PictureBox;
}

export interface CameraMotionInput {
  first: MotionPicture;
  last?: MotionPicture;
  duration: number;
  aspectRatio: string;
  output: string;
  /** One picture's motion (one-click B-roll): push in (the default), pull out, or pan across at a steady zoom. */
  motion?: 'in' | 'out' | 'pan';
  /** The frames' short side, px (DEFAULT_SHORT_SIDE unless the operator set another). */
  shortSide?: number;
}

/** How long the cross-fade to the last frame lasts, and so how long the last frame's own segment is. */
export const crossFadeSeconds = (duration: number) => Math.min(1.5, duration * 0.3);

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

/** The whole head around a face's landmarks (brows to chin): the forehead and hair above, the ears beside, the chin's edge below. */
const headOf = (f: PictureBox): PictureBox => {
  const [w, h] = [f.right - f.left, f.bottom - f.top];
  return { left: f.left - 0.2 * w, right: f.right + 0.2 * w, top: f.top - 0.6 * h, bottom: f.bottom + 0.1 * h };
};

/**
 * Where a picture of `picture` px, scaled to cover `big`, is cropped to it — centred, unless that cuts the head:
 * then moved just enough to take in the whole head, or where the frame is too small for the head, centred on it
 * with the face (brows to chin) whole — and the face's box in the crop's pixels.
 */
function framing(picture: { width: number; height: number }, big: { width: number; height: number }, face?: PictureBox) {
  const scale = Math.max(big.width / picture.width, big.height / picture.height);
  const scaled = { width: Math.ceil(picture.width * scale), height: Math.ceil(picture.height * scale) };
  const head = face && headOf(face);
  // One axis: [lo, hi] the head's extent and [flo, fhi] the face's, in scaled pixels.
  const axis = (size: number, bigSize: number, span?: { lo: number; hi: number; flo: number; fhi: number }) => {
    const centred = (size - bigSize) / 2;
    if (!span) return Math.round(centred);
    const { lo, hi, flo, fhi } = span;
    let at: number;
    if (hi - lo <= bigSize) at = clamp(centred, hi - bigSize, lo);
    else if (fhi - flo <= bigSize) at = clamp((lo + hi - bigSize) / 2, fhi - bigSize, flo);
    else at = (flo + fhi - bigSize) / 2;
    return Math.round(clamp(at, 0, size - bigSize));
  };
  const x = axis(scaled.width, big.width, face && head && { lo: head.left * scale, hi: head.right * scale, flo: face.left * scale, fhi: face.right * scale });
  const y = axis(scaled.height, big.height, face && head && { lo: head.top * scale, hi: head.bottom * scale, flo: face.top * scale, fhi: face.bottom * scale });
  const inCrop = face && {
    left: clamp(face.left * scale - x, 0, big.width), right: clamp(face.right * scale - x, 0, big.width),
    top: clamp(face.top * scale - y, 0, big.height), bottom: clamp(face.bottom * scale - y, 0, big.height),
  };
  return { scaled, x, y, face: inCrop };
}

/**
 * One picture as `frames` frames of slow camera motion; `pullBack` reverses the push (the last frame settles), `pan`
 * holds the zoom and moves across the picture. With a face, the window of every frame keeps it whole.
 */
function segment(input: number, frames: number, size: { width: number; height: number }, picture: { width: number; height: number }, face: PictureBox | undefined, pullBack: boolean, pan = false): string {
  const big = { width: size.width * OVERSAMPLE, height: size.height * OVERSAMPLE };
  const crop = framing(picture, big, face);
  const f = crop.face;
  // The most the camera may push in with the face still whole.
  const push = f ? clamp(Math.min(big.width / Math.max(1, f.right - f.left), big.height / Math.max(1, f.bottom - f.top)) - 1, 0, PUSH) : PUSH;
  const progress = `(on/${Math.max(1, frames - 1)})`;
  const zoom = pan ? `${1 + push}` : pullBack ? `${1 + push / 2}-${push / 2}*${progress}` : `1+${push}*${progress}`;
  let x = pan ? `(iw-iw/zoom)*${progress}` : pullBack ? `(iw-iw/zoom)/2` : `(iw-iw/zoom)*(0.35+0.3*${progress})`;
  let y = '(ih-ih/zoom)/2';
  if (f) {
    x = `clip(${x},max(0,${f.right.toFixed(1)}-iw/zoom),min(${f.left.toFixed(1)},iw-iw/zoom))`;
    y = `clip(${y},max(0,${f.bottom.toFixed(1)}-ih/zoom),min(${f.top.toFixed(1)},ih-ih/zoom))`;
  }
  return [
    `[${input}:v]scale=${crop.scaled.width}:${crop.scaled.height}:flags=lanczos,crop=${big.width}:${big.height}:${crop.x}:${crop.y},setsar=1`,
    `zoompan=z='${zoom}':x='${x}':y='${y}':d=${frames}:s=${size.width}x${size.height}:fps=${FPS}`,
    `format=yuv420p[s${input}]`,
  ].join(',');
}

export async function cameraMotionClip(p: CameraMotionInput): Promise<{ duration: number; width: number; height: number }> {
  const size = motionFrames(p.aspectRatio, p.shortSide);
  if (!size) throw new Error(`unknown aspect ratio ${p.aspectRatio}`);
  const total = Math.round(p.duration * FPS);
  const inputs = [p.first, ...(p.last ? [p.last] : [])].flatMap((pic) => ['-f', DEMUXER[pic.ext] ?? 'image2', '-i', pic.file]);
  const sizeOf = async (pic: MotionPicture) => {
    const video = (await probe(pic.file, pic.ext)).video;
    if (!video?.width || !video.height) throw new Error(`${pic.file} is no picture`);
    return { width: video.width, height: video.height };
  };
  let graph: string;
  if (p.last) {
    const fade = crossFadeSeconds(p.duration);
    const tailFrames = Math.round(fade * FPS);
    graph = [
      segment(0, total, size, await sizeOf(p.first), p.first.face, false),
      segment(1, tailFrames, size, await sizeOf(p.last), p.last.face, true),
      // The bundled ffmpeg predates xfade: the last frame fades in over an alpha channel, laid over the first from its offset.
      `[s1]format=yuva420p,fade=t=in:st=0:d=${fade}:alpha=1,setpts=PTS-STARTPTS+${(p.duration - fade).toFixed(3)}/TB[t]`,
      `[s0][t]overlay=0:0:eof_action=pass,format=yuv420p[v]`,
    ].join(';');
  } else {
    graph = segment(0, total, size, await sizeOf(p.first), p.first.face, p.motion === 'out', p.motion === 'pan').replace('[s0]', '[v]');
  }
  await ffmpeg([...inputs, '-filter_complex', graph, '-map', '[v]', '-frames:v', String(total), '-r', String(FPS), ...X264, '-g', String(FPS * 2), '-an', '-movflags', '+faststart', p.output]);
  const out = await probe(p.output, 'mp4');
  return { duration: out.duration, width: out.video?.width ?? 0, height: out.video?.height ?? 0 };
}
