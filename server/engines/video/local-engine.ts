/**
 * The offline video engine: it runs anywhere ffmpeg does, needs no keys and does not lip-sync.
 * Cloning normalizes the avatar (H.264, short side ≤ 1080, 25 fps, yuv420p), makes the covers and a
 * pre-encoded forward-and-back loop; rendering loops that clip under the audio, copying the video stream,
 * so a render costs little more than encoding the audio.
 */
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

/** Loops the avatar's clip under the audio, cut to exactly the audio's length; H.264/AAC mp4 with faststart. */
export async function renderTalkingVideo(loop: string, audio: string, audioExt: string, output: string): Promise<{ duration: number }> {
  const { duration } = await probe(audio, audioExt);
  if (!(duration > 0)) throw new Error('the audio has no duration');
  await ffmpeg([
    '-stream_loop', '-1', '-f', 'mov', '-i', loop,
    '-f', DEMUXER[audioExt] ?? 'mov', '-i', audio,
    '-t', duration.toFixed(3), '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart', output,
  ]);
  return { duration: (await probe(output, 'mp4')).duration };
}
