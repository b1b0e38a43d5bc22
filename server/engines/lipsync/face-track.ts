/**
 * An avatar's face track: 68 landmarks for every frame (25 fps) of its video, with a per-frame weight that
 * says how far to trust them. Stored compactly: gzip of a JSON header line and Int16 points in 1/8 px.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

export const FPS = 25;
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
