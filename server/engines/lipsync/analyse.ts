/**
 * Once per avatar: find the face and its 68 landmarks in every frame of the video. Frames are decoded small
 * (long side ANALYSIS_SIDE), every STEP-th frame goes to the landmark workers in runs of RUN frames, the frames
 * between are interpolated, and each point's path is smoothed over time so nothing jitters.
 */
import { Piscina } from 'piscina';
import { MSG } from '../../../src/contract';
import { DEMUXER, probe } from '../../infra/media-probe';
import { workerScript } from '../../infra/worker-script';
import { FPS } from '../media/common';
import { point, writeFaceTrack, type FaceTrack } from './face-track';
import type { FrameLandmarks, LandmarkTask } from './landmarks-worker';
import { rawFrames } from './raw-video';

/** Chinese reasons shown on a work's card when the avatar's mouth cannot be moved. */
export const NO_FACE_REASONS = {
  none: MSG.lipSyncNoFace,
  small: MSG.lipSyncFaceSmall,
  turned: MSG.lipSyncFaceTurned,
  unsteady: MSG.lipSyncFaceUnsteady,
} as const;

const ANALYSIS_SIDE = 640;
/** Frames sampled per landmark run (one detection, then tracking). */
const RUN = 25;
/** A face seen in fewer of the sampled frames than this is not one to animate. */
const MIN_SEEN = 0.7;
/** A face seen in fewer of the sampled frames than this is not there at all (rather than unsteady). */
const NONE_BELOW = 0.4;
/** Eye-to-eye distance in the video's pixels below which the mouth is too small to draw. */
const MIN_EYE_DISTANCE = 20;
/**
 * Frames spread evenly over the video and searched on their own before the full pass: when fewer than NONE_BELOW of
 * them show a face the verdict is "no face" at once (a faceless clip cost the full pass several seconds to settle).
 */
const PROBE_FRAMES = 6;
/** Landmark paths are smoothed with a Gaussian of this σ (frames). */
const SMOOTH_SIGMA = 1.5;

/**
 * How long an idle landmark worker stays (FACE_WORKERS_IDLE_SECONDS): starting one costs about 1.7 CPU-s (TypeScript,
 * TensorFlow.js and the models), keeping one holds its memory.
 */
let idleSeconds = 30;

let pool: Piscina<LandmarkTask, FrameLandmarks[]> | undefined;
function workers() {
  pool ??= new Piscina<LandmarkTask, FrameLandmarks[]>({
    ...workerScript('./landmarks-worker.ts', import.meta.url),
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: idleSeconds * 1000,
  });
  return pool;
}

/** Sets how long idle landmark workers stay, from their next start on (the server's config at start-up); answers the previous value. */
export function keepIdleLandmarkWorkers(seconds: number): number {
  const before = idleSeconds;
  idleSeconds = seconds;
  return before;
}

/** How many landmark worker threads are alive now. */
export const landmarkWorkerThreads = (): number => pool?.threads.length ?? 0;

/** Ends the landmark workers (tests, shutdown); the next analysis starts them again. */
export async function closeLandmarkWorkers(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}

export interface FaceAnalysis {
  found: boolean;
  reason?: string;
  frames: number;
  faceFrames: number;
  seconds: number;
}

export interface AnalyseOptions {
  /** Landmarks on every step-th frame (1 = all, for measuring); default 2. */
  step?: number;
  /** Temporal smoothing σ in frames; default SMOOTH_SIGMA. */
  smooth?: number;
}

export async function analyseAvatarFaces(videoPath: string, outFile: string, options: AnalyseOptions = {}): Promise<FaceAnalysis> {
  const track = await trackFaces(videoPath, options);
  const { found, reason, faceFrames } = judge(track);
  if (found) writeFaceTrack(outFile, track);
  return { found, ...(reason ? { reason } : {}), frames: track.frames, faceFrames, seconds: track.frames / FPS };
}

/** A box in a picture's pixels. */
export interface FaceBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The face of a still picture (png/jpg): its landmarks' box (brows to chin, in the picture's pixels), or undefined when there is none. */
export async function pictureFaceBox(picture: string): Promise<FaceBox | undefined> {
  const track = await trackFaces(picture, { step: 1, smooth: 0 });
  if (!track.frames || !(track.weight[0]! > 0)) return undefined;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < 68; i++) {
    const [x, y] = point(track, 0, i);
    xs.push(x);
    ys.push(y);
  }
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** Landmarks for every frame, interpolated and smoothed; `weight` 0 where the face was lost. */
export async function trackFaces(videoPath: string, { step = 2, smooth = SMOOTH_SIGMA }: AnalyseOptions = {}): Promise<FaceTrack & { sampled: number; seen: number }> {
  const ext = videoPath.split('.').pop()!.toLowerCase();
  const info = await probe(videoPath, ext);
  const { width = 0, height = 0 } = info.video ?? {};
  if (!width || !height) throw new Error('the avatar has no video stream');
  const scale = Math.min(1, ANALYSIS_SIDE / Math.max(width, height));
  const w = Math.max(2, Math.round((width * scale) / 2) * 2);
  const h = Math.max(2, Math.round((height * scale) / 2) * 2);
  const frameBytes = w * h * 3;

  const vf = `scale=${w}:${h}`;
  const input = ['-f', DEMUXER[ext] ?? 'mov', '-i', videoPath, '-map', '0:v:0'];
  const noFace = (frames: number, sampled: number) => ({ width, height, frames, points: new Float32Array(frames * 136), weight: new Float32Array(frames), sampled, seen: 0 });
  if (info.duration > 0) {
    // Each probe frame is its own task, so each is searched by the detector (a run would track from the first).
    const probes: Promise<FrameLandmarks[]>[] = [];
    for await (const frame of rawFrames([...input, '-vf', `fps=${PROBE_FRAMES}/${info.duration},${vf}`, '-frames:v', String(PROBE_FRAMES), '-pix_fmt', 'rgb24'], frameBytes)) {
      const pixels = new Uint8Array(frame.buffer, frame.byteOffset, frame.length).slice();
      probes.push(workers().run({ frames: [pixels], width: w, height: h }, { transferList: [pixels.buffer as ArrayBuffer] }));
    }
    const probed = (await Promise.all(probes)).flat();
    // The detector takes a pattern for a face now and then: few sightings settle it as judge() would.
    const seen = probed.filter((m) => m.points).length;
    if (probed.length === PROBE_FRAMES && seen < PROBE_FRAMES * NONE_BELOW) return noFace(Math.round(info.duration * FPS), probed.length);
  }

  const runs: Promise<FrameLandmarks[]>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let batch: Uint8Array[] = [];
  let frames = 0;
  // Once more samples have missed the face than judge() lets a face video miss, the verdict is settled: stop.
  // The estimate is high on purpose (a frame or two more than the video has), so the stop is never early.
  const expectedSamples = Math.ceil(((info.duration || 0) * FPS + 2) / step);
  let missed = 0;
  const settled = () => info.duration > 0 && missed > expectedSamples * (1 - NONE_BELOW);
  const send = async () => {
    if (!batch.length) return;
    const task = workers().run({ frames: batch, width: w, height: h }, { transferList: batch.map((b) => b.buffer as ArrayBuffer) });
    batch = [];
    runs.push(task);
    inFlight.add(task);
    void task.then((marks) => (missed += marks.filter((m) => !m.points).length)).catch(() => undefined);
    void task.finally(() => inFlight.delete(task)).catch(() => undefined);
    // Keep the decoder at most a couple of runs ahead of the workers (bounded memory).
    while (inFlight.size >= 3) await Promise.race(inFlight).catch(() => undefined);
  };
  for await (const frame of rawFrames([...input, '-vf', `fps=${FPS},${vf}`, '-pix_fmt', 'rgb24'], frameBytes)) {
    if (frames % step === 0) {
      batch.push(new Uint8Array(frame.buffer, frame.byteOffset, frame.length).slice());
      if (batch.length === RUN) await send();
    }
    frames++;
    if (settled()) break;
  }
  await send();
  const sampledMarks = (await Promise.all(runs)).flat();
  if (settled()) return noFace(frames, sampledMarks.length);

  // Back to the video's pixels, then every frame from its sampled neighbours.
  const points = new Float32Array(frames * 136);
  const seenAt = new Float32Array(frames);
  const known: number[] = [];
  sampledMarks.forEach((m, i) => {
    if (!m.points) return;
    const f = i * step;
    for (let k = 0; k < 136; k++) points[f * 136 + k] = m.points[k]! / scale;
    known.push(f);
  });
  for (const f of known) seenAt[f] = 1;
  let next = 0;
  for (let f = 0; f < frames && known.length; f++) {
    while (next < known.length && known[next]! < f) next++;
    const after = known[Math.min(next, known.length - 1)]!;
    const before = known[Math.max(0, known[next] === f ? next : next - 1)]!;
    if (before === f) continue;
    const a = Math.min(before, after), b = Math.max(before, after);
    const t = b === a ? 0 : (f - a) / (b - a);
    for (let k = 0; k < 136; k++) points[f * 136 + k] = points[a * 136 + k]! * (1 - t) + points[b * 136 + k]! * t;
    // Between two seen samples a step apart the face is there; across longer gaps it is not trusted.
    seenAt[f] = (a === b ? Math.abs(f - a) < step : b - a <= step) ? 1 : 0;
  }
  const weight = smoothSeries(seenAt, 1, 3);
  smoothPaths(points, frames, smooth);
  return { width, height, frames, points, weight, sampled: sampledMarks.length, seen: known.length };
}

function gaussian(sigma: number): Float32Array {
  const r = Math.ceil(sigma * 3);
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  return k.map((v) => v / sum);
}

/** Zero-phase Gaussian smoothing of `stride` interleaved series, edges held. */
function smoothSeries(data: Float32Array, stride: number, sigma: number): Float32Array {
  const frames = data.length / stride;
  const k = gaussian(sigma);
  const r = (k.length - 1) / 2;
  const out = new Float32Array(data.length);
  for (let s = 0; s < stride; s++) {
    for (let f = 0; f < frames; f++) {
      let v = 0;
      for (let j = -r; j <= r; j++) v += k[j + r]! * data[Math.min(frames - 1, Math.max(0, f + j)) * stride + s]!;
      out[f * stride + s] = v;
    }
  }
  return out;
}

function smoothPaths(points: Float32Array, frames: number, sigma: number): void {
  if (sigma <= 0 || frames < 2) return;
  points.set(smoothSeries(points, 136, sigma));
}

function judge(track: FaceTrack & { sampled: number; seen: number }): { found: boolean; reason?: string; faceFrames: number } {
  const faceFrames = track.weight.reduce((n, w) => n + (w > 0.5 ? 1 : 0), 0);
  if (track.seen === 0) return { found: false, reason: NO_FACE_REASONS.none, faceFrames };
  // Seen now and then (a detector's false alarm on a pattern, a face passing by): mostly not there at all.
  if (track.seen < track.sampled * MIN_SEEN) return { found: false, reason: track.seen < track.sampled * NONE_BELOW ? NO_FACE_REASONS.none : NO_FACE_REASONS.unsteady, faceFrames };
  const eyes: number[] = [];
  const turn: number[] = [];
  for (let f = 0; f < track.frames; f++) {
    if (track.weight[f]! < 0.5) continue;
    const p = (i: number) => [track.points[f * 136 + 2 * i]!, track.points[f * 136 + 2 * i + 1]!] as const;
    const [lx, ly] = p(36), [rx, ry] = p(45), [nx] = p(30), [j0] = p(0), [j16] = p(16);
    eyes.push(Math.hypot(rx - lx, ry - ly));
    turn.push((nx - j0) / Math.max(1, j16 - j0));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1] ?? 0;
  if (median(eyes) < MIN_EYE_DISTANCE) return { found: false, reason: NO_FACE_REASONS.small, faceFrames };
  // The nose tip sits near the middle of the jaw line in a frontal face and near one end in a profile.
  const t = median(turn);
  if (t < 0.3 || t > 0.7) return { found: false, reason: NO_FACE_REASONS.turned, faceFrames };
  return { found: true, faceFrames };
}
