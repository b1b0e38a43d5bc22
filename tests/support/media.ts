/**
 * Real media files for tests, made with the ffmpeg that ships in the npm package, once per run for each recipe
 * (media-cache.ts): the file a caller names is a copy of the run's one.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cachedFile, cachedFileAsync } from './media-cache';
import { tempDir } from './temp-dirs';

const require = createRequire(import.meta.url);
export const FFMPEG: string = require('@ffmpeg-installer/ffmpeg').path;

/** Runs ffmpeg with these input and encoding arguments into `file`, or copies what the same arguments made before. */
export function ffmpegCached(file: string, args: string[]): string {
  return cachedFile(file, { ffmpeg: args }, (out) => execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]));
}
const ff = (args: string[], file: string) => ffmpegCached(file, args);
/** ffmpeg on a file a test made (its content is not a recipe, so nothing is cached). */
const ffOnce = (args: string[], file: string) => {
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
  return file;
};

/** One frame of a video a test made, as a jpg at `file`: `at` seconds in, or its last frame. */
export function frameOf(video: string, at: number | 'last', file: string): string {
  const seek = at === 'last' ? ['-sseof', '-0.2'] : ['-ss', String(at)];
  return ffOnce([...seek, '-i', video, ...(at === 'last' ? ['-update', '1'] : ['-frames:v', '1']), '-q:v', '2'], file);
}

export function mediaDir(): string {
  return tempDir('aisa-media-');
}

export function makeVideo(file: string, { width = 360, height = 640, seconds = 5 } = {}): string {
  return ff(['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart'], file);
}

export function makeImage(file: string, { width = 360, height = 640 } = {}): string {
  return ff(['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}`, '-frames:v', '1'], file);
}

export function makeAudio(file: string, { seconds = 5 } = {}): string {
  const codec = file.endsWith('.mp3') ? ['-c:a', 'libmp3lame'] : file.endsWith('.m4a') ? ['-c:a', 'aac'] : [];
  return ff(['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=44100`, '-t', String(seconds), ...codec], file);
}

/** A copy of a video with its sound track dropped (the picture copied as is). */
export function withoutSound(video: string, output: string): string {
  return ffOnce(['-i', video, '-an', '-c:v', 'copy'], output);
}

/** The sound of a media file as a mono wav (to measure what a result says). */
export function soundOf(media: string, output: string): string {
  return ffOnce(['-i', media, '-vn', '-ac', '1'], output);
}

/** Real speech (an mp3 made by the offline engine), for voice samples: pitch and rate as the product's sliders. */
export async function makeSpeech(file: string, text: string, { pitch = 1, rate = 1 } = {}): Promise<string> {
  return cachedFileAsync(file, { speech: text, pitch, rate }, async (out) => {
    const { OfflineSpeechEngine } = await import('../../server/engines/speech/offline/offline-engine');
    const engine = new OfflineSpeechEngine();
    try {
      await engine.synthesize(text, undefined, { rate, pitch, volume: 1, language: '', emotion: '' }, out);
    } finally {
      await engine.close();
    }
  });
}

/** Silence of the given length (a sample with no voice in it). */
export function makeSilence(file: string, seconds: number): string {
  return ff(['-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono', '-t', String(seconds), '-c:a', 'libmp3lame'], file);
}

/** The silent stretches of an audio file, as ffmpeg's silencedetect finds them (below `noiseDb` for `minSeconds`). */
export function silencesIn(file: string, { noiseDb = -40, minSeconds = 0.2 } = {}): { start: number; end: number; duration: number }[] {
  const run = spawnSync(FFMPEG, ['-hide_banner', '-nostats', '-i', file, '-af', `silencedetect=noise=${noiseDb}dB:d=${minSeconds}`, '-f', 'null', '-'], { encoding: 'utf8' });
  const found: { start: number; end: number; duration: number }[] = [];
  let start: number | undefined;
  for (const line of run.stderr.split('\n')) {
    const began = /silence_start: (-?[\d.]+)/.exec(line);
    if (began) start = Number(began[1]);
    const ended = /silence_end: ([\d.]+) \| silence_duration: ([\d.]+)/.exec(line);
    if (ended && start !== undefined) {
      found.push({ start, end: Number(ended[1]), duration: Number(ended[2]) });
      start = undefined;
    }
  }
  return found;
}

/** A file's sound as 16 kHz mono samples (what the offline lip-sync engine reads of speech). */
export { decodePcm } from '../../server/engines/lipsync/mouth-curve';

/**
 * The RMS level, in dB below full scale, of a stretch of an audio file (`from`–`to` seconds), optionally of one narrow
 * band around `bandHz` only (to hear a tone under speech). -Infinity for digital silence.
 */
export function levelDb(file: string, { from, to, bandHz }: { from: number; to: number; bandHz?: number }): number {
  const band = bandHz ? `bandpass=f=${bandHz}:width_type=q:w=20,` : '';
  const run = spawnSync(FFMPEG, ['-hide_banner', '-nostats', '-i', file, '-af', `atrim=${from}:${to},${band}astats`, '-f', 'null', '-'], { encoding: 'utf8' });
  const found = /RMS level dB: (-?[\d.]+|-inf)/.exec(run.stderr.slice(run.stderr.lastIndexOf('Overall')));
  if (!found) throw new Error(`levelDb: no level in ffmpeg's answer:\n${run.stderr.slice(-500)}`);
  return found[1] === '-inf' ? -Infinity : Number(found[1]);
}

/** A steady tone of `hz` (what a test hears under other sound), as an mp3. */
export function makeTone(file: string, { hz = 330, seconds = 5 } = {}): string {
  return ff(['-f', 'lavfi', '-i', `sine=frequency=${hz}:sample_rate=44100`, '-t', String(seconds), '-c:a', 'libmp3lame'], file);
}
