/**
 * ffprobe, run only on local files with an explicit input format chosen from the file's magic bytes,
 * so a crafted file cannot make it open a URL or a playlist.
 */
import { createRequire } from 'node:module';
import { failureOf, runTool, succeeded, type ToolOptions } from './tool-runner';

const require = createRequire(import.meta.url);
export const FFPROBE: string = process.env.FFPROBE_PATH ?? require('@ffprobe-installer/ffprobe').path;
export const FFMPEG: string = process.env.FFMPEG_PATH ?? require('@ffmpeg-installer/ffmpeg').path;

/** ffprobe/ffmpeg demuxer for each extension we accept. */
export const DEMUXER: Record<string, string> = { mp4: 'mov', mov: 'mov', m4a: 'mov', mp3: 'mp3', wav: 'wav', png: 'png_pipe', jpg: 'jpeg_pipe', webp: 'webp_pipe', webm: 'matroska', ogg: 'ogg' };

export interface ProbeResult {
  formatName: string;
  duration: number;
  video?: { codec: string; width: number; height: number };
  audio?: { codec: string };
}

export class ProbeError extends Error {}

export function probe(file: string, ext: string, timeoutMs = 30_000): Promise<ProbeResult> {
  const format = DEMUXER[ext];
  if (!format) return Promise.reject(new ProbeError(`no demuxer for ${ext}`));
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-f', format, '-print_format', 'json', '-show_format', '-show_streams', file];
  return ffprobe(args, timeoutMs, 4 * 1024 * 1024).then((stdout) => {
    let json: {
      format?: { format_name?: string; duration?: string };
      streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }[];
    };
    try {
      json = JSON.parse(stdout);
    } catch {
      throw new ProbeError('ffprobe printed no JSON');
    }
    const streams = json.streams ?? [];
    const v = streams.find((s) => s.codec_type === 'video');
    const a = streams.find((s) => s.codec_type === 'audio');
    return {
      formatName: json.format?.format_name ?? '',
      duration: Number(json.format?.duration ?? v?.duration ?? a?.duration ?? 0) || 0,
      video: v ? { codec: v.codec_name ?? '', width: v.width ?? 0, height: v.height ?? 0 } : undefined,
      audio: a ? { codec: a.codec_name ?? '' } : undefined,
    };
  });
}

/** ffprobe's standard output, or a ProbeError with why it failed. */
async function ffprobe(args: string[], timeoutMs: number, maxBuffer: number): Promise<string> {
  const run = await runTool(FFPROBE, args, { timeoutMs, maxBuffer });
  if (!succeeded(run)) throw new ProbeError(`ffprobe failed: ${failureOf(run).split(' | ')[0]}`);
  return run.stdout.toString();
}

/**
 * Seconds of a stream that are really in the file: the end of its last packet, read packet by packet. A file cut
 * short keeps its header's duration (ffprobe's `duration`) but loses the packets, so this is what will play.
 */
export function playableSeconds(file: string, ext: string, stream: 'v' | 'a', timeoutMs = 60_000): Promise<number> {
  const format = DEMUXER[ext];
  if (!format) return Promise.reject(new ProbeError(`no demuxer for ${ext}`));
  const args = ['-v', 'error', '-protocol_whitelist', 'file', '-f', format, '-select_streams', `${stream}:0`, '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file];
  return ffprobe(args, timeoutMs, 64 * 1024 * 1024).then((stdout) => {
    let first = Infinity;
    let end = 0;
    for (const line of stdout.split('\n')) {
      const [pts, duration] = line.split(',').map(Number);
      if (!Number.isFinite(pts)) continue;
      first = Math.min(first, pts!);
      end = Math.max(end, pts! + (Number.isFinite(duration) ? duration! : 0));
    }
    return end > first ? end - first : 0;
  });
}

export class FfmpegError extends Error {}

/**
 * Runs ffmpeg on local files only (the file protocol is the only one allowed). `cwd` and `env` are for filters that
 * read their own files (captions: a relative subtitle file, fontconfig's settings).
 */
export function ffmpeg(args: string[], timeoutMs = 30 * 60_000, run: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const full = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-protocol_whitelist', 'file,pipe', ...args];
  return ffmpegRun(full, { timeoutMs, maxBuffer: 8 * 1024 * 1024, ...run }).then(() => undefined);
}

/** ffmpeg with raw bytes in on stdin and/or out on stdout (PCM in and out of the speech engines). */
export function ffmpegPipe(args: string[], input?: Uint8Array, timeoutMs = 10 * 60_000): Promise<Buffer> {
  const full = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-protocol_whitelist', 'file,pipe', ...args];
  if (input) full.splice(full.indexOf('-nostdin'), 1);
  return ffmpegRun(full, { input, timeoutMs, maxBuffer: Infinity, killSignal: 'SIGKILL' });
}

/** One ffmpeg run: its standard output, or an FfmpegError with the last lines it printed. */
async function ffmpegRun(args: string[], options: ToolOptions): Promise<Buffer> {
  const run = await runTool(FFMPEG, args, options);
  if (!succeeded(run)) throw new FfmpegError(`ffmpeg failed (${run.code ?? run.signal}): ${failureOf(run)}`);
  return run.stdout;
}
