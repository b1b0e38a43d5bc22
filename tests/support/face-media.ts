/**
 * A real face for lip-sync tests: a portrait photo shipped inside the @vladmandic/face-api npm package
 * (demo/sample3.jpg, a group photo; we crop one woman's frontal face), turned into a short video with gentle
 * zoom and drift, as a talking-head clip filmed on a phone would move.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ffmpegCached } from './media';

const require = createRequire(import.meta.url);
export const FACE_PHOTO = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo/sample3.jpg');

/** The face's region in FACE_PHOTO: 600 px wide, as tall as the video's shape asks, the face a little above its centre. */
function crop(width: number, height: number): string {
  const h = Math.min(1350, Math.round((600 * height) / width / 2) * 2);
  return `crop=600:${h}:385:${Math.max(0, Math.min(110, 1350 - h))}`;
}

export function makeFaceVideo(file: string, { width = 480, height = 640, seconds = 8 } = {}): string {
  const frames = Math.round(seconds * 25);
  // zoompan rounds its window to whole pixels; working on a 2× larger picture keeps the motion smooth.
  const motion = `zoompan=z='1.05+0.03*sin(2*PI*on/${frames})':x='iw/2-iw/zoom/2+12*sin(2*PI*on/170)':y='ih/2-ih/zoom/2+8*sin(2*PI*on/230)':d=1:s=${width}x${height}:fps=25`;
  return ffmpegCached(file, ['-loop', '1', '-i', FACE_PHOTO,
    '-vf', `${crop(width, height)},scale=iw*2:ih*2,${motion},format=yuv420p`, '-frames:v', String(frames),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-g', '50', '-movflags', '+faststart']);
}

/** A clip with no face in it (ffmpeg's test pattern). */
export function makeFacelessVideo(file: string, { width = 480, height = 640, seconds = 4 } = {}): string {
  return ffmpegCached(file, ['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=25`, '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart']);
}

/**
 * A still clip of a smiling face that shows its teeth between parted lips (FACE_PHOTO's woman on the right), for
 * what the mouth warp makes of a source's own teeth.
 */
export function makeSmilingFaceVideo(file: string, { seconds = 1 } = {}): string {
  return ffmpegCached(file, ['-loop', '1', '-i', FACE_PHOTO, '-vf', 'crop=600:800:1300:120,scale=480:640,format=yuv420p',
    '-frames:v', String(Math.round(seconds * 25)), '-r', '25', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-movflags', '+faststart']);
}
