/**
 * An avatar's face track: 68 landmarks for every frame (at media FPS, 25) of its video, with a per-frame weight that
 * says how far to trust them. Stored compactly: gzip of a JSON header line and Int16 points in 1/8 px.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

const FIXED = 8;

export interface FaceTrack {
  width: number;
  height: number;
  frames: number;
  /** frames × 136: x0 y0 … x67 y67 in the video's pixels. */
  points: Float32Array;
  /** 0..1 per frame: 1 where the face was seen, falling to 0 across frames where it was not. */
  weight: Float32Array;
}

export function writeFaceTrack(file: string, track: FaceTrack): void {
  const header = Buffer.from(`${JSON.stringify({ v: 1, width: track.width, height: track.height, frames: track.frames })}\n`);
  const points = new Int16Array(track.points.length);
  for (let i = 0; i < points.length; i++) points[i] = Math.round(track.points[i]! * FIXED);
  const weight = Uint8Array.from(track.weight, (w) => Math.round(w * 255));
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([header, Buffer.from(points.buffer), Buffer.from(weight.buffer)])));
}

export function readFaceTrack(file: string): FaceTrack {
  const raw = zlib.gunzipSync(fs.readFileSync(file));
  const end = raw.indexOf(10);
  const { width, height, frames } = JSON.parse(raw.subarray(0, end).toString()) as { width: number; height: number; frames: number };
  const body = raw.subarray(end + 1);
  const fixed = new Int16Array(body.buffer.slice(body.byteOffset, body.byteOffset + frames * 136 * 2));
  const points = Float32Array.from(fixed, (v) => v / FIXED);
  const weight = Float32Array.from(body.subarray(frames * 136 * 2, frames * 136 * 2 + frames), (w) => w / 255);
  return { width, height, frames, points, weight };
}

/** Landmark i of frame f. */
export function point(track: FaceTrack, f: number, i: number): [number, number] {
  const at = f * 136 + 2 * i;
  return [track.points[at]!, track.points[at + 1]!];
}

/** Half the width of a marked mouth, as a share of the picture's shorter side (a pet's mouth is small in its face). */
const MARKED_HALF_WIDTH = 0.06;

/**
 * A face track for a still picture whose mouth the user marked with a click (x, y as fractions of the picture):
 * the landmarks the mouth warp reads (mouth corners, closed inner lips, chin below and nose above) placed around
 * the mark, the same on every frame, fully trusted. The other landmarks sit on the mouth's middle.
 */
export function markedMouthTrack(width: number, height: number, frames: number, mark: { x: number; y: number }): FaceTrack {
  const cx = mark.x * width, cy = mark.y * height;
  const a = Math.max(6, MARKED_HALF_WIDTH * Math.min(width, height));
  const one = new Float32Array(136);
  const set = (i: number, x: number, y: number) => ((one[2 * i] = x), (one[2 * i + 1] = y));
  for (let i = 0; i < 68; i++) set(i, cx, cy);
  set(48, cx - a, cy);
  set(54, cx + a, cy);
  // Inner lips, closed: corners 60 and 64, upper 61–63 and lower 67–65 on the lip line.
  for (const [i, s] of [[60, -0.85], [61, -0.45], [62, 0], [63, 0.45], [64, 0.85], [65, 0.45], [66, 0], [67, -0.45]] as const) set(i, cx + s * a, cy);
  set(8, cx, Math.min(height - 1, cy + 2.2 * a));
  set(33, cx, Math.max(0, cy - 1.4 * a));
  const points = new Float32Array(frames * 136);
  for (let f = 0; f < frames; f++) points.set(one, f * 136);
  return { width, height, frames, points, weight: new Float32Array(frames).fill(1) };
}
