import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFaceVideo, makeFacelessVideo, makeSmilingFaceVideo } from '../../../tests/support/face-media';
import { measureLips } from '../../../tests/support/lip-measure';
import { FFMPEG, makeSpeech, mediaDir } from '../../../tests/support/media';
import { FFPROBE, probe } from '../../infra/media-probe';
import { prepareAvatar, renderTalkingVideo } from '../render/avatar-loop';
import { ConfigError, configFromEnv } from '../../infra/config';
import { until } from '../../../tests/support/wait';
import { analyseAvatarFaces, closeLandmarkWorkers, keepIdleLandmarkWorkers, landmarkWorkerThreads, NO_FACE_REASONS, trackFaces } from './analyse';
import { point, readFaceTrack, type FaceTrack } from './face-track';
import { mouthCurve, shapeCurve, syllableRounding } from './mouth-curve';
import { MouthWarper, type MouthPose } from './mouth-warp';
import { renderLipSync } from './render';

// The media folder is removed after the file, as every mediaDir() is (tests/support/temp-cleanup.ts).
const dir = mediaDir();
const avatar = makeFaceVideo(path.join(dir, 'avatar.mp4'));
const faces = path.join(dir, 'avatar.faces');
let speech: string;

beforeAll(async () => {
  speech = await makeSpeech(path.join(dir, 'speech.mp3'), '大家好，欢迎来到今天的节目。我们聊一聊数字人技术，它让每个人都拥有自己的形象。');
}, 120_000);

afterAll(() => closeLandmarkWorkers());

function streams(file: string): { codec_name: string; codec_type: string; pix_fmt?: string }[] {
  return JSON.parse(execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-print_format', 'json', file]).toString()).streams;
}

describe('offline lip-sync engine', () => {
  it('finds the face and its mouth in every frame of a real face video, steadily', async () => {
    const result = await analyseAvatarFaces(avatar, faces);
    expect(result).toMatchObject({ found: true, frames: 200, seconds: 8 });
    expect(result.faceFrames).toBeGreaterThanOrEqual(195);
    const track = readFaceTrack(faces);
    expect(track).toMatchObject({ width: 480, height: 640, frames: 200 });
    expect(fs.statSync(faces).size).toBeLessThan(200 * 136 * 2);
    const centres: [number, number][] = [];
    for (let f = 0; f < track.frames; f++) {
      const [nx, ny] = point(track, f, 33), [, cy] = point(track, f, 8);
      const [lx, ly] = point(track, f, 48), [rx, ry] = point(track, f, 54);
      const mouth: [number, number] = [(lx + rx) / 2, (ly + ry) / 2];
      // The mouth is under the nose and above the chin, about a third of the face wide (the face is ~150 px here).
      expect(mouth[1]).toBeGreaterThan(ny);
      expect(mouth[1]).toBeLessThan(cy);
      expect(Math.abs(mouth[0] - nx)).toBeLessThan(15);
      expect(Math.hypot(rx - lx, ry - ly)).toBeGreaterThan(35);
      expect(Math.hypot(rx - lx, ry - ly)).toBeLessThan(90);
      centres.push(mouth);
    }
    // No jitter: the clip drifts smoothly, so the mouth's acceleration stays well under a pixel per frame².
    const jerks = centres.slice(2).map(([x, y], i) => Math.hypot(x - 2 * centres[i + 1]![0] + centres[i]![0], y - 2 * centres[i + 1]![1] + centres[i]![1]));
    expect(Math.max(...jerks)).toBeLessThan(0.6);
  }, 180_000);

  it('says why when there is no face, and writes no track', async () => {
    const out = path.join(dir, 'none.faces');
    const result = await analyseAvatarFaces(makeFacelessVideo(path.join(dir, 'pattern.mp4')), out);
    expect(result).toMatchObject({ found: false, reason: NO_FACE_REASONS.none, frames: 100 });
    // The detector may take the pattern for a face now and then; that must not pass for a face to animate.
    expect(result.faceFrames).toBeLessThan(result.frames * 0.4);
    expect(fs.existsSync(out)).toBe(false);
  }, 120_000);

  it('lets its idle face workers go after FACE_WORKERS_IDLE_SECONDS', async () => {
    expect(configFromEnv({}).faceWorkersIdleSeconds).toBeUndefined();
    expect(configFromEnv({ FACE_WORKERS_IDLE_SECONDS: '600' }).faceWorkersIdleSeconds).toBe(600);
    for (const bad of ['0', '1.5', 'long']) expect(() => configFromEnv({ FACE_WORKERS_IDLE_SECONDS: bad })).toThrow(ConfigError);
    await closeLandmarkWorkers();
    const before = keepIdleLandmarkWorkers(1);
    try {
      const pattern = path.join(dir, 'pattern.mp4');
      await analyseAvatarFaces(fs.existsSync(pattern) ? pattern : makeFacelessVideo(pattern), path.join(dir, 'idle.faces'));
      expect(landmarkWorkerThreads()).toBeGreaterThan(0);
      expect(await until(async () => landmarkWorkerThreads(), (n) => n === 0, 15_000, 100)).toBe(0);
    } finally {
      keepIdleLandmarkWorkers(before);
      await closeLandmarkWorkers();
    }
  }, 120_000);

  it('opens the mouth with the voice and shuts it in pauses', async () => {
    const padded = path.join(dir, 'padded.wav');
    const seconds = (await probe(speech, 'mp3')).duration;
    execFileSync(FFMPEG, ['-loglevel', 'error', '-y', '-i', speech, '-af', 'apad', '-t', (seconds + 1.5).toFixed(3), padded]);
    const curve = await mouthCurve(padded, 'wav', 25);
    const speechFrames = Math.floor(seconds * 25);
    expect(curve.open.length).toBeGreaterThanOrEqual(speechFrames + 37);
    const spoken = Array.from(curve.open.subarray(0, speechFrames));
    expect(Math.max(...spoken)).toBeGreaterThan(0.9);
    // Speech is syllables: the mouth opens and closes many times, not once.
    const openings = spoken.filter((v, i) => i > 0 && v >= 0.5 && spoken[i - 1]! < 0.5).length;
    expect(openings).toBeGreaterThan(10);
    // In the pause, after a few frames of release, the mouth is shut.
    expect(Array.from(curve.open.subarray(speechFrames + 8, speechFrames + 36)).every((v) => v === 0)).toBe(true);
  });

  it('moves only the mouth and jaw: the eyes, the nose and the face beside them stay untouched', () => {
    const track = readFaceTrack(faces);
    const frame = new Uint8Array(execFileSync(FFMPEG, ['-loglevel', 'error', '-i', avatar, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'], { maxBuffer: 1 << 24 }));
    const before = frame.slice();
    new MouthWarper(480, 640).apply(frame, track.points, 0, { open: 1, round: 0 });
    const [, noseY] = point(track, 0, 33), [, eyeY] = point(track, 0, 40), [jawLeft] = point(track, 0, 2), [jawRight] = point(track, 0, 14);
    let changed = 0;
    for (let y = 0; y < 640; y++) {
      for (let x = 0; x < 480; x++) {
        if (frame[y * 480 + x] === before[y * 480 + x]) continue;
        changed++;
        expect(y).toBeGreaterThan((eyeY + noseY) / 2);
        expect(x).toBeGreaterThan(jawLeft - 40);
        expect(x).toBeLessThan(jawRight + 40);
      }
    }
    expect(changed).toBeGreaterThan(500);
    // The opened mouth is dark inside: the pixel between the lips got much darker.
    const [mx, my] = point(track, 0, 62).map((v, i) => (v + point(track, 0, 66)[i]!) / 2);
    const [, y66] = point(track, 0, 66);
    const inside = Math.round(my! + (y66 - my!) + 2) * 480 + Math.round(mx!);
    expect(before[inside]! - frame[inside]!).toBeGreaterThan(60);
  });

  it('renders a valid H.264/AAC mp4 of exactly the audio length, and the mouth follows the speech where the loop does not', async () => {
    const output = path.join(dir, 'work.mp4');
    const told: number[] = [];
    const { duration } = await renderLipSync({ video: avatar, faces, audio: speech, audioExt: 'mp3', output, onProgress: (done) => told.push(done) });
    // Progress is told frame by frame, rising, to the whole.
    expect(told.length).toBeGreaterThan(100);
    expect(told.every((d, i) => i === 0 || d > told[i - 1]!)).toBe(true);
    expect(told.at(-1)).toBeCloseTo(1, 2);
    const audioSeconds = (await probe(speech, 'mp3')).duration;
    expect(Math.abs(duration - audioSeconds)).toBeLessThan(0.06);
    expect(duration).toBeGreaterThan(8); // longer than the avatar: the ping-pong ran backward too
    const kinds = streams(output);
    expect(kinds.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    expect(kinds.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(fs.readFileSync(output).subarray(0, 64).includes(Buffer.from('moov'))).toBe(true); // faststart

    // The loop the product renders today, from the same avatar and speech.
    const prepared = await prepareAvatar(avatar, 'mp4', fs.mkdtempSync(path.join(dir, 'loop-')));
    const looped = path.join(dir, 'looped.mp4');
    await renderTalkingVideo(prepared.loop, speech, 'mp3', looped);

    const measure = async (file: string) => (await measureLips(file, { file: speech, ext: 'mp3' })).follows;
    const synced = await measure(output);
    const loop = await measure(looped);
    console.log(`mouth opening ~ loudness: lip-synced ${synced.toFixed(2)}, looped ${loop.toFixed(2)}`);
    expect(synced).toBeGreaterThan(0.5);
    expect(synced - loop).toBeGreaterThan(0.35);
  }, 300_000);

  it('streams: a 16 s render holds a few frames, not the video', async () => {
    const long = path.join(dir, 'long.mp3');
    execFileSync(FFMPEG, ['-loglevel', 'error', '-y', '-stream_loop', '2', '-i', speech, '-t', '16', '-c:a', 'libmp3lame', long]);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const { duration, timing } = await renderLipSync({ video: avatar, faces, audio: long, audioExt: 'mp3', output: path.join(dir, 'long.mp4'), startAt: 3 });
      const audioSeconds = (await probe(long, 'mp3')).duration;
      expect(Math.abs(duration - audioSeconds)).toBeLessThan(0.06);
      expect(timing.frames).toBe(Math.ceil(audioSeconds * 25));
    } finally {
      clearInterval(sampler);
    }
    // 400 raw frames of 480×640 are 184 MB, so a render that held the video would break the bound; a streaming one
    // holds a backward chunk (25 frames, 11.5 MB) and buffers. The 40 s render stays in `npm run bench`.
    expect((peak - before) / 1048576).toBeLessThan(100);
  }, 180_000);
});

/** Frame 0 of a 480×640 clip as yuv420p. */
const firstFrame = (video: string) => new Uint8Array(execFileSync(FFMPEG, ['-loglevel', 'error', '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'], { maxBuffer: 1 << 24 }));

/** The mouth's box on frame 0: the corners' span and a little more, down to the chin's middle. */
function mouthBox(track: FaceTrack) {
  const [lx, ly] = point(track, 0, 48), [rx, ry] = point(track, 0, 54), [, chin] = point(track, 0, 8);
  const a = (rx - lx) / 2, cy = (ly + ry) / 2;
  return { x0: Math.round(lx - 0.3 * a), x1: Math.round(rx + 0.3 * a), y0: Math.round(cy - 0.8 * a), y1: Math.round((cy + chin) / 2), a, cy };
}

/** The frame warped to `pose` (a copy). */
function posed(source: Uint8Array, track: FaceTrack, pose: MouthPose): Uint8Array {
  const frame = source.slice();
  new MouthWarper(480, 640).apply(frame, track.points, 0, pose);
  return frame;
}

const U = 480 * 640, V = U + 240 * 320;
const chromaAt = (frame: Uint8Array, plane: number, x: number, y: number) => frame[plane + (y >> 1) * 240 + (x >> 1)]!;

/**
 * The opening the warp drew: the pixels of the mouth box it made much darker than the source was; with, along its
 * border, the steepest step in luma between neighbours (a pasted shape has a hard one), and its inside's mean colour.
 */
function opening(before: Uint8Array, after: Uint8Array, box: ReturnType<typeof mouthBox>) {
  const inside = (x: number, y: number) => before[y * 480 + x]! - after[y * 480 + x]! > 30 && after[y * 480 + x]! < 0.6 * before[y * 480 + x]!;
  let n = 0, y = 0, cr = 0, left = Infinity, right = -Infinity;
  const steps: number[] = [];
  for (let py = box.y0; py < box.y1; py++) {
    for (let px = box.x0; px < box.x1; px++) {
      if (!inside(px, py)) continue;
      n++; y += after[py * 480 + px]!; cr += chromaAt(after, V, px, py);
      left = Math.min(left, px); right = Math.max(right, px);
      const around = [[px - 1, py], [px + 1, py], [px, py - 1], [px, py + 1]] as const;
      if (around.every(([qx, qy]) => inside(qx, qy))) continue;
      steps.push(Math.max(...around.map(([qx, qy]) => Math.abs(after[py * 480 + px]! - after[qy * 480 + qx]!))));
    }
  }
  steps.sort((p, q) => p - q);
  return { pixels: n, meanY: y / n, meanCr: cr / n, width: right - left + 1, edgeStep: steps[Math.floor(steps.length * 0.95)] ?? 0 };
}

/** The mean absolute luma difference over the mouth box. */
function boxDifference(a: Uint8Array, b: Uint8Array, box: ReturnType<typeof mouthBox>): number {
  let sum = 0, n = 0;
  for (let y = box.y0; y < box.y1; y++) for (let x = box.x0; x < box.x1; x++, n++) sum += Math.abs(a[y * 480 + x]! - b[y * 480 + x]!);
  return sum / n;
}

/** With SHOTS_DIR set: the mouth box of each frame, 3× enlarged, side by side in one PNG, for people to look at. */
function mouthShot(name: string, frames: Uint8Array[], box: ReturnType<typeof mouthBox>): void {
  const root = process.env.SHOTS_DIR;
  if (!root) return;
  fs.mkdirSync(path.join(root, 'lipsync'), { recursive: true });
  const w = (box.x1 - box.x0 + 40) & ~1, h = (box.y1 - box.y0 + 40) & ~1;
  execFileSync(FFMPEG, ['-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', '480x640', '-i', 'pipe:0',
    '-vf', `crop=${w}:${h}:${box.x0 - 20}:${box.y0 - 20},scale=${w * 3}:${h * 3}:flags=lanczos,tile=${frames.length}x1:padding=6`, '-frames:v', '1',
    path.join(root, 'lipsync', `${name}.png`)], { input: Buffer.concat(frames) });
}

describe('the mouth it draws', () => {
  let closed: { track: FaceTrack; frame: Uint8Array };
  let smiling: { track: FaceTrack; frame: Uint8Array };

  beforeAll(async () => {
    const video = makeSmilingFaceVideo(path.join(dir, 'smiling.mp4'));
    const track = await trackFaces(video);
    smiling = { track, frame: firstFrame(video) };
    if (!fs.existsSync(faces)) await analyseAvatarFaces(avatar, faces); // when run on its own
    closed = { track: readFaceTrack(faces), frame: firstFrame(avatar) };
  }, 120_000);

  for (const face of ['closed', 'smiling'] as const) {
    it(`leaves the ${face} mouth as it is at rest and opens it into a soft, shaded mouth`, () => {
      const { track, frame } = face === 'closed' ? closed : smiling;
      const box = mouthBox(track);
      // At rest, and barely parted (the speech's tail), the mouth is the source's: no line drawn between the lips.
      expect(boxDifference(frame, posed(frame, track, { open: 0, round: 0 }), box)).toBe(0);
      const barely = posed(frame, track, { open: 0.04, round: 0 });
      expect(boxDifference(frame, barely, box)).toBeLessThan(2);
      expect(opening(frame, barely, box).pixels).toBeLessThan(3);

      const half = posed(frame, track, { open: 0.5, round: 0 }), wide = posed(frame, track, { open: 1, round: 0 });
      mouthShot(`${face}-rest-half-wide`, [frame, half, wide], box);
      for (const open of [half, wide]) {
        const o = opening(frame, open, box);
        expect(o.pixels).toBeGreaterThan(40);
        // Soft-edged: along its border neighbouring pixels step far less than at a pasted black shape's edge (~100 here).
        expect(o.edgeStep).toBeLessThan(45);
        // Shaded, not black: video-range black is 16; a red-brown inside has Cr above grey's 128.
        expect(o.meanY).toBeGreaterThan(30);
        expect(o.meanCr).toBeGreaterThan(134);
      }
      expect(opening(frame, wide, box).pixels).toBeGreaterThan(opening(frame, half, box).pixels * 1.3);
    });
  }

  it('rounds the lips where the script says o, u or ü: the mouth is narrower than for 啊', () => {
    expect(syllableRounding('啊哦呜女我好，OK')).toEqual([0, 1, 1, 1, 1, 0.5]);
    // One sound, two scripts: the same spectrum, so only the words can tell the mouths apart.
    const level = Float32Array.from({ length: 50 }, (_, f) => (f >= 10 && f < 40 ? -10 : -60));
    const lowShare = new Float32Array(50).fill(0.5);
    const said = (text: string) => shapeCurve(level, lowShare, 25, [{ start: 0.4, end: 1.6, text }]);
    const ah = said('啊啊啊'), oo = said('呜呜呜');
    expect(Math.max(...ah.round)).toBeLessThan(0.05);
    expect(Math.min(...oo.round.subarray(20, 38))).toBeGreaterThan(0.8);
    expect(Array.from(ah.open)).toEqual(Array.from(oo.open));

    const { track, frame } = closed;
    const box = mouthBox(track);
    const f = 30;
    const [saidAh, saidOo] = [ah, oo].map((c) => posed(frame, track, { open: c.open[f]!, round: c.round[f]! })) as [Uint8Array, Uint8Array];
    mouthShot('closed-ah-oo', [frame, saidAh, saidOo], box);
    const wideAh = opening(frame, saidAh, box), wideOo = opening(frame, saidOo, box);
    console.log(`opening width: 啊 ${wideAh.width} px, 呜 ${wideOo.width} px (mouth ${(2 * box.a).toFixed(0)} px wide)`);
    expect(wideOo.width).toBeLessThan(wideAh.width * 0.8);
  });
});
