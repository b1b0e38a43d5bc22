/** Pictures: normalising, covers, loops, joining, a new sound under a picture. */
import fs from 'node:fs';
import path from 'node:path';
import { ffmpeg, probe } from '../../infra/media-probe';
import { FASTSTART, FPS, RATE, X264, input } from './common';

/**
 * The picture as every avatar and lip-sync source is worked on: H.264, short side at most 1080, FPS, yuv420p,
 * a keyframe every two seconds, no sound.
 */
export async function normaliseVideo(video: string, ext: string, output: string): Promise<void> {
  const scale = "scale=w='if(gte(iw,ih),-2,min(1080,iw))':h='if(gte(iw,ih),min(1080,ih),-2)'";
  await ffmpeg([...input(video, ext), '-map', '0:v:0', '-vf', `${scale},fps=${FPS},format=yuv420p`, ...X264, '-g', String(FPS * 2), '-an', ...FASTSTART, output]);
}

export interface CoverOptions {
  /** Seconds into the video (none: the first frame; a picture has only that). */
  at?: number;
  /** Scaled to exactly this width (height kept in proportion). */
  width?: number;
  /** Scaled down to at most this width, never up. */
  maxWidth?: number;
  /** JPEG quality, 2 (best) … 31. */
  quality?: number;
  timeoutMs?: number;
}

/** A JPEG of one frame of a video (or of a picture). */
export async function makeCover(source: string, ext: string, output: string, o: CoverOptions = {}): Promise<string> {
  const seek = o.at === undefined ? [] : ['-ss', o.at.toFixed(2)];
  const scale = o.width ? ['-vf', `scale=${o.width}:-2`] : o.maxWidth ? ['-vf', `scale=min(${o.maxWidth}\\,iw):-2`] : [];
  await ffmpeg([...seek, ...input(source, ext), '-frames:v', '1', ...scale, '-q:v', String(o.quality ?? 4), output], o.timeoutMs);
  return output;
}

/** A small cover (360 px wide) of a picture, or of a video at `at` seconds (none: its first frame). */
export function makeSmallCover(source: string, ext: string, output: string, at?: number): Promise<string> {
  return makeCover(source, ext, output, { at, width: 360 });
}

/** The first `seconds` of an mp4 played forward then backward: a clip that loops without a jump. */
export async function makeBackAndForthLoop(video: string, seconds: number, output: string): Promise<void> {
  await ffmpeg([
    '-t', seconds.toFixed(3), ...input(video, 'mp4'),
    '-filter_complex', '[0:v]split[f][b];[b]reverse[r];[f][r]concat=n=2:v=1:a=0,format=yuv420p[v]', '-map', '[v]',
    // A keyframe every second, so a copied loop can be cut cleanly.
    ...X264, '-g', String(FPS), '-keyint_min', String(FPS), '-sc_threshold', '0', ...FASTSTART, output,
  ]);
}

/**
 * An mp4 loop played over and over (copied, not encoded again) under a sound, cut to `seconds`; `startAt` whole
 * seconds into the loop (makeBackAndForthLoop puts a keyframe at each).
 */
export async function loopUnderSound(loop: string, sound: { file: string; ext: string }, seconds: number, output: string, startAt = 0): Promise<void> {
  await ffmpeg([
    ...(startAt > 0 ? ['-ss', String(Math.floor(startAt))] : []),
    '-stream_loop', '-1', ...input(loop, 'mp4'), ...input(sound.file, sound.ext),
    '-t', seconds.toFixed(3), '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-ar', String(RATE), ...FASTSTART, output,
  ]);
}

/**
 * Joins mp4 videos into one. Videos of the first one's size are joined without re-encoding; others are first
 * scaled and padded to that size (avatars of a multi-scene work may differ in orientation).
 */
export async function joinVideos(files: string[], output: string, workDir: string): Promise<{ duration: number }> {
  const sizes = await Promise.all(files.map(async (f) => (await probe(f, 'mp4')).video));
  const { width, height } = sizes[0] ?? { width: 0, height: 0 };
  const parts: string[] = [];
  for (const [i, file] of files.entries()) {
    if (sizes[i]?.width === width && sizes[i]?.height === height) {
      parts.push(file);
      continue;
    }
    const fitted = path.join(workDir, `fitted-${i}.mp4`);
    const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${FPS},format=yuv420p`;
    await ffmpeg([...input(file, 'mp4'), '-vf', fit, ...X264, '-g', String(FPS), '-c:a', 'copy', ...FASTSTART, fitted]);
    parts.push(fitted);
  }
  const list = path.join(workDir, 'concat.txt');
  fs.writeFileSync(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  await ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', ...FASTSTART, output]);
  return { duration: (await probe(output, 'mp4')).duration };
}

/** The video's picture as it is under another sound track (AAC), cut to `seconds`. */
export async function replaceSound(video: string, ext: string, sound: { file: string; ext: string }, seconds: number, output: string): Promise<void> {
  await ffmpeg([
    ...input(video, ext), ...input(sound.file, sound.ext), '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-t', seconds.toFixed(3), ...FASTSTART, output,
  ]);
}

/**
 * A video's picture framed to exactly `size` for `frames` frames at FPS from `from` seconds in, no sound: scaled to
 * cover the frame (centred crop) when its shape is close to the frame's, else fitted inside it on black (a landscape
 * avatar in a portrait work).
 */
export async function frameVideo(video: string, ext: string, size: { width: number; height: number }, frames: number, output: string, from = 0): Promise<void> {
  const info = (await probe(video, ext)).video;
  const ratio = info ? (info.width / info.height) / (size.width / size.height) : 1;
  const cover = ratio > 1 / 1.5 && ratio < 1.5;
  const { width: w, height: h } = size;
  const fit = cover
    ? `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h}`
    : `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2`;
  // The last frame is held when the clip is a frame or two short of its place in the timeline.
  await ffmpeg([...(from > 0 ? ['-ss', from.toFixed(3)] : []), ...input(video, ext), '-map', '0:v:0', '-vf', `${fit},setsar=1,fps=${FPS},tpad=stop_mode=clone:stop_duration=1,format=yuv420p`,
    '-frames:v', String(frames), ...X264, '-g', String(FPS * 2), '-an', ...FASTSTART, output]);
}
