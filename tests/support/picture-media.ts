/**
 * Pictures for pet and photo-speak tests: a real frontal face cut from face-api's sample photo (see face-media.ts),
 * and a drawn pet (a round ginger head with ears and eyes on a blue ground) that no face detector takes for a person.
 */
import { spawnSync } from 'node:child_process';
import { FFMPEG, ffmpegCached } from './media';
import { FACE_PHOTO } from './face-media';

/** A portrait jpg of one woman's face (600×800 from the sample photo). */
export function makeFacePicture(file: string): string {
  return ffmpegCached(file, ['-i', FACE_PHOTO, '-vf', 'crop=600:800:385:110', '-frames:v', '1', '-q:v', '3']);
}

/** A landscape png of a cartoon pet, `width`×`height`. */
export function makePetPicture(file: string, { width = 800, height = 600 } = {}): string {
  const cx = width / 2;
  const cy = height * 0.55;
  const r = Math.min(width, height) * 0.32;
  const inHead = `lt(hypot(X-${cx},Y-${cy}),${r})+lt(hypot(X-${cx - r * 0.75},Y-${cy - r * 0.95}),${r * 0.37})+lt(hypot(X-${cx + r * 0.75},Y-${cy - r * 0.95}),${r * 0.37})`;
  const inEye = `lt(hypot(X-${cx - r * 0.37},Y-${cy - r * 0.16}),${r * 0.12})+lt(hypot(X-${cx + r * 0.37},Y-${cy - r * 0.16}),${r * 0.12})`;
  const channel = (c: string, head: number) => `${c}='if(${inHead},if(${inEye},30,${head}),${c}(X,Y))'`;
  return ffmpegCached(file, ['-f', 'lavfi', '-i', `color=c=0x7fb3d5:s=${width}x${height},format=rgb24,geq=${channel('r', 225)}:${channel('g', 140)}:${channel('b', 60)}`, '-frames:v', '1']);
}

/**
 * Structural similarity (0–1) of the frame of `video` at `at` seconds (a picture: its only frame) against `picture`,
 * both grey and scaled to 180×320: how the one-click specs tell a B-roll frame, a photo or a cover apart.
 */
export function ssimAt(video: string, at: number, picture: string): number {
  // A picture has no time to seek in (a seek of 0 leaves it without its frame).
  const seek = at > 0 ? ['-ss', at.toFixed(2)] : [];
  const run = spawnSync(FFMPEG, ['-v', 'info', ...seek, '-i', video, '-i', picture, '-filter_complex',
    '[0:v]trim=end_frame=1,format=gray,scale=180:320[a];[1:v]format=gray,scale=180:320[b];[a][b]ssim', '-frames:v', '1', '-f', 'null', '-']);
  const all = /All:([\d.]+)/.exec(run.stderr.toString());
  if (!all) throw new Error(`no SSIM: ${run.stderr.toString().slice(-400)}`);
  return Number(all[1]);
}
