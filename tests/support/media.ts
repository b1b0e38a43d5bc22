/** Real media files for tests, made with the ffmpeg that ships in the npm package. */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
export const FFMPEG: string = require('@ffmpeg-installer/ffmpeg').path;

const ff = (args: string[]) => execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

export function mediaDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-media-'));
}

export function makeVideo(file: string, { width = 360, height = 640, seconds = 5 } = {}): string {
  ff(['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', file]);
  return file;
}

export function makeImage(file: string, { width = 360, height = 640 } = {}): string {
  ff(['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}`, '-frames:v', '1', file]);
  return file;
}

export function makeAudio(file: string, { seconds = 5 } = {}): string {
  const codec = file.endsWith('.mp3') ? ['-c:a', 'libmp3lame'] : file.endsWith('.m4a') ? ['-c:a', 'aac'] : [];
  ff(['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=44100`, '-t', String(seconds), ...codec, file]);
  return file;
}
