/**
 * The avatar loop (the video channel engine `local`): it runs anywhere ffmpeg does, needs no keys and does not lip-sync.
 * Cloning normalizes the avatar (H.264, short side ≤ 1080, 25 fps, yuv420p), makes the covers and a
 * pre-encoded forward-and-back loop; rendering loops that clip under the audio, copying the video stream,
 * so a render costs little more than encoding the audio.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';

/** Seconds of the avatar that make the loop (forward then backward); kept short because `reverse` holds frames in memory. */
const LOOP_SOURCE_SECONDS = 4;
const FPS = 25;
const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-pix_fmt', 'yuv420p'];

export interface PreparedAvatar {
  normalized: string;
  loop: string;
  cover: string;
  coverSmall: string;
  duration: number;
  width: number;
  height: number;
  /** 1 landscape, 2 portrait (the spec's hs values). */
  orientation: 1 | 2;
}

export async function prepareAvatar(input: string, ext: string, workDir: string): Promise<PreparedAvatar> {
  const normalized = path.join(workDir, 'normalized.mp4');
  const loop = path.join(workDir, 'loop.mp4');
  const cover = path.join(workDir, 'cover.jpg');
  const coverSmall = path.join(workDir, 'cover_small.jpg');
  const scale = "scale=w='if(gte(iw,ih),-2,min(1080,iw))':h='if(gte(iw,ih),min(1080,ih),-2)'";
  await ffmpeg(['-f', DEMUXER[ext] ?? 'mov', '-i', input, '-map', '0:v:0', '-vf', `${scale},fps=${FPS},format=yuv420p`, ...X264, '-g', String(FPS * 2), '-an', '-movflags', '+faststart', normalized]);
  const info = await probe(normalized, 'mp4');
  const width = info.video?.width ?? 0;
  const height = info.video?.height ?? 0;
  const loopSeconds = Math.min(LOOP_SOURCE_SECONDS, info.duration);
  await ffmpeg([
    '-f', 'mov', '-t', loopSeconds.toFixed(3), '-i', normalized,
    '-filter_complex', '[0:v]split[f][b];[b]reverse[r];[f][r]concat=n=2:v=1:a=0,format=yuv420p[v]', '-map', '[v]',
    // A keyframe every second, so a copied loop can be cut cleanly.
    ...X264, '-g', String(FPS), '-keyint_min', String(FPS), '-sc_threshold', '0', '-movflags', '+faststart', loop,
  ]);
  const at = Math.min(0.5, info.duration / 2).toFixed(2);
  await ffmpeg(['-f', 'mov', '-ss', at, '-i', normalized, '-frames:v', '1', '-q:v', '3', cover]);
  await ffmpeg(['-f', 'mov', '-ss', at, '-i', normalized, '-frames:v', '1', '-vf', 'scale=360:-2', '-q:v', '4', coverSmall]);
  return { normalized, loop, cover, coverSmall, duration: info.duration, width, height, orientation: width >= height ? 1 : 2 };
}

/**
 * Loops the avatar's clip under the audio, cut to exactly the audio's length; H.264/AAC mp4 with faststart.
 * `startAt` (whole seconds, the loop has a keyframe every second) starts the clip further in.
 */
export async function renderTalkingVideo(loop: string, audio: string, audioExt: string, output: string, { startAt = 0 } = {}): Promise<{ duration: number }> {
  const { duration } = await probe(audio, audioExt);
  if (!(duration > 0)) throw new Error('the audio has no duration');
  await ffmpeg([
    ...(startAt > 0 ? ['-ss', String(Math.floor(startAt))] : []),
    '-stream_loop', '-1', '-f', 'mov', '-i', loop,
    '-f', DEMUXER[audioExt] ?? 'mov', '-i', audio,
    '-t', duration.toFixed(3), '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart', output,
  ]);
  return { duration: (await probe(output, 'mp4')).duration };
}

/** Seconds of an avatar's loop (forward then back), for choosing a random start. */
export async function loopSeconds(loop: string): Promise<number> {
  return (await probe(loop, 'mp4')).duration;
}

/**
 * Joins scene videos into one mp4. Scenes of one size are joined without re-encoding; others are first scaled
 * and padded to the first scene's size (avatars of a multi-scene work may differ in orientation).
 */
export async function concatVideos(files: string[], output: string, workDir: string): Promise<{ duration: number }> {
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
    await ffmpeg(['-f', 'mov', '-i', file, '-vf', fit, ...X264, '-g', String(FPS), '-c:a', 'copy', '-movflags', '+faststart', fitted]);
    parts.push(fitted);
  }
  const list = path.join(workDir, 'concat.txt');
  fs.writeFileSync(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  await ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', '-movflags', '+faststart', output]);
  return { duration: (await probe(output, 'mp4')).duration };
}

/** Joins scene audios (mp3, m4a, wav) into one mp3. */
export async function concatAudio(files: { file: string; ext: string }[], output: string): Promise<{ duration: number }> {
  const inputs = files.flatMap(({ file, ext }) => ['-f', DEMUXER[ext] ?? 'mov', '-i', file]);
  const graph = `${files.map((_, i) => `[${i}:a:0]aresample=44100,aformat=channel_layouts=mono[a${i}]`).join(';')};${files.map((_, i) => `[a${i}]`).join('')}concat=n=${files.length}:v=0:a=1[out]`;
  await ffmpeg([...inputs, '-filter_complex', graph, '-map', '[out]', '-c:a', 'libmp3lame', '-b:a', '96k', '-compression_level', '7', output]);
  return { duration: (await probe(output, 'mp3')).duration };
}
