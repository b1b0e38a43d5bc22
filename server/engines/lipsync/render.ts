/**
 * Renders a lip-synced work: the avatar's frames (forward, then backward, as long as the audio needs) flow
 * from one ffmpeg through the mouth warp into another as raw yuv420p, one frame at a time; the output is
 * H.264/AAC mp4 with faststart, cut to exactly the audio's length, like the loop render.
 */
import type { TimedText } from '../../../src/contract';
import { DEMUXER, probe } from '../../infra/media-probe';
import { readFaceTrack } from './face-track';
import { mouthCurve } from './mouth-curve';
import { MouthWarper, lipGap } from './mouth-warp';
import { RawEncoder, prefetch, rawFrames } from './raw-video';
import { FPS, X264 } from '../media/common';

/** Frames decoded at once for a backward stretch (held in memory, then played in reverse). */
const BACKWARD_CHUNK = 25;
/** Frames the decoder may run ahead of the warp, and the warp ahead of the encoder, so all three work at once. */
const AHEAD = 3;

export interface LipSyncJob {
  /** The avatar's normalized video (25 fps, as prepareAvatar makes it). */
  video: string;
  /** The face track analyseAvatarFaces wrote for that video. */
  faces: string;
  audio: string;
  audioExt: string;
  output: string;
  /** Seconds into the ping-pong to start at (a random start keeps works of one avatar from all starting alike). */
  startAt?: number;
  /** The speech's timed text, when known: its words say where the lips round (o, u, ü). */
  script?: readonly TimedText[];
  /** Told after each frame: the share of the frames done (0–1). Cheap to call; the caller decides how often to act. */
  onProgress?: (done: number) => void;
}

export interface LipSyncResult {
  duration: number;
  /** Where the time went (seconds): waiting for decoded frames, the mouth warp, waiting for the encoder. */
  timing: { frames: number; decode: number; warp: number; encode: number; curve: number };
}

/** Frame indices of a ping-pong over `count` frames starting at `start`, in legs: [from, to] inclusive, step ±1. */
function* legs(count: number, start: number): Generator<{ from: number; to: number }> {
  if (count === 1) for (;;) yield { from: 0, to: 0 };
  const cycle = 2 * count - 2;
  const p = ((start % cycle) + cycle) % cycle;
  if (p < count) yield { from: p, to: count - 1 };
  else yield { from: cycle - p, to: 1 };
  let forward = p >= count;
  for (;;) {
    yield forward ? { from: 0, to: count - 1 } : { from: count - 2, to: 1 };
    forward = !forward;
  }
}

function decodeArgs(video: string, from: number, count: number): string[] {
  // Half a frame early, so the seek lands on frame `from` itself.
  const seek = from > 0 ? ['-ss', ((from - 0.5) / FPS).toFixed(4)] : [];
  return [...seek, '-f', DEMUXER[video.split('.').pop()!.toLowerCase()] ?? 'mov', '-i', video, '-map', '0:v:0', '-frames:v', String(count), '-pix_fmt', 'yuv420p'];
}

/** The avatar's frames in ping-pong order, `total` of them, with their index in the video. */
async function* pingPong(video: string, frameBytes: number, count: number, start: number, total: number): AsyncGenerator<{ frame: Buffer; index: number }> {
  let produced = 0;
  for (const { from, to } of legs(count, start)) {
    if (produced >= total) return;
    const before = produced;
    if (to >= from) {
      const n = Math.min(to - from + 1, total - produced);
      let index = from;
      for await (const frame of rawFrames(decodeArgs(video, from, n), frameBytes)) {
        yield { frame, index: index++ };
        if (++produced >= total) return;
      }
    } else {
      for (let hi = from; hi >= to && produced < total; hi -= BACKWARD_CHUNK) {
        const lo = Math.max(to, hi - BACKWARD_CHUNK + 1);
        const chunk: Buffer[] = [];
        for await (const frame of rawFrames(decodeArgs(video, lo, hi - lo + 1), frameBytes)) chunk.push(frame);
        for (let i = chunk.length - 1; i >= 0 && produced < total; i--, produced++) yield { frame: chunk[i]!, index: lo + i };
      }
    }
    // A video shorter than its face track (or unreadable) would otherwise loop here for ever.
    if (produced === before) throw new Error('the avatar video gave no frames for its face track');
  }
}

export async function renderLipSync(job: LipSyncJob): Promise<LipSyncResult> {
  const { duration } = await probe(job.audio, job.audioExt);
  if (!(duration > 0)) throw new Error('the audio has no duration');
  const track = readFaceTrack(job.faces);
  const { width: W, height: H } = track;
  const total = Math.ceil(duration * FPS);
  const frameBytes = (W * H * 3) / 2;
  const timing = { frames: 0, decode: 0, warp: 0, encode: 0, curve: 0 };
  let mark = performance.now();
  const lap = (key: 'decode' | 'warp' | 'encode' | 'curve') => {
    const now = performance.now();
    timing[key] += (now - mark) / 1000;
    mark = now;
  };
  const curve = await mouthCurve(job.audio, job.audioExt, FPS, job.script);
  lap('curve');
  const warper = new MouthWarper(W, H);
  // The avatar's lips at rest: the narrowest gap the landmarks read over its frames.
  const gaps = Float32Array.from({ length: track.frames }, (_, f) => lipGap(track.points, f * 136)).sort();
  const closedGap = gaps[Math.floor(gaps.length * 0.05)] ?? 0;
  const encoder = new RawEncoder([
    '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${W}x${H}`, '-r', String(FPS), '-i', 'pipe:0',
    '-f', DEMUXER[job.audioExt] ?? 'mov', '-i', job.audio,
    '-t', duration.toFixed(3), '-map', '0:v:0', '-map', '1:a:0',
    ...X264, '-g', String(FPS * 2), '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart', job.output,
  ], AHEAD * frameBytes);
  try {
    let i = 0;
    for await (const { frame, index } of prefetch(pingPong(job.video, frameBytes, track.frames, Math.floor((job.startAt ?? 0) * FPS), total), AHEAD)) {
      lap('decode');
      const f = Math.min(index, track.frames - 1);
      const already = Math.max(0, lipGap(track.points, f * 136) - closedGap);
      warper.apply(frame, track.points, f * 136, { open: curve.open[i] ?? 0, round: curve.round[i] ?? 0, already }, track.weight[f]!);
      lap('warp');
      await encoder.write(frame);
      lap('encode');
      i++;
      job.onProgress?.(i / total);
    }
    timing.frames = i;
    await encoder.end();
    lap('encode');
  } catch (err) {
    encoder.kill();
    throw err;
  }
  return { duration: (await probe(job.output, 'mp4')).duration, timing };
}
