/**
 * The media module: the ffmpeg command lines the features need, each written once and named by what it does.
 * Features call these and never build ffmpeg arguments themselves (media.spec.ts checks). Every input is a local
 * file read with the demuxer of its extension, never one ffmpeg guesses from the bytes (see infra/media-probe).
 */
import { DEMUXER, ffmpeg } from '../../infra/media-probe';

/** The sample rate of the sound we make. */
const RATE = 44_100;
/** Frames a second of every video we encode. */
export const FPS = 25;
/** H.264 as every video we encode is made. */
export const X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-pix_fmt', 'yuv420p'];
/** What our mp4s end with: the index first, so a player starts before the whole file is there. */
const FASTSTART = ['-movflags', '+faststart'];

/** A local input file and its demuxer. */
const input = (file: string, ext: string) => ['-f', DEMUXER[ext] ?? 'mov', '-i', file];

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

/** The first sound track as mono 16 kHz PCM wav: what speech recognition and the voice measure read. */
export async function extractSpeechWav(media: string, ext: string, output: string): Promise<void> {
  await ffmpeg([...input(media, ext), '-map', '0:a:0', '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', output]);
}

/** The first sound track as an mp3 for the user to keep (192 kbit/s). */
export async function extractMp3(media: string, ext: string, output: string): Promise<void> {
  await ffmpeg([...input(media, ext), '-vn', '-map', '0:a:0', '-c:a', 'libmp3lame', '-b:a', '192k', output], 10 * 60_000);
}

/**
 * The given spans of the first sound track joined into one mono PCM wav, at most `maxSeconds`
 * (a speaker's clean voice, from the spans where speech was recognised).
 */
export async function joinSoundSpans(media: string, ext: string, spans: readonly { start: number; end: number }[], maxSeconds: number, output: string): Promise<void> {
  const select = spans.map((s) => `between(t,${s.start.toFixed(3)},${s.end.toFixed(3)})`).join('+');
  await ffmpeg([
    ...input(media, ext), '-map', '0:a:0', '-vn', '-af', `aselect='${select}',asetpts=N/SR/TB`,
    '-t', String(maxSeconds), '-ac', '1', '-ar', String(RATE), '-c:a', 'pcm_s16le', output,
  ]);
}

/** The video's picture as it is under another sound track (AAC), cut to `seconds`. */
export async function replaceSound(video: string, ext: string, sound: { file: string; ext: string }, seconds: number, output: string): Promise<void> {
  await ffmpeg([
    ...input(video, ext), ...input(sound.file, sound.ext), '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '128k', '-t', seconds.toFixed(3), ...FASTSTART, output,
  ]);
}

/** A piece of speech and where it plays: from `start`, sped up by `speed` (atempo), for `length` seconds of the result. */
export interface SpeechAt {
  file: string;
  ext: string;
  start: number;
  speed: number;
  length: number;
}

/**
 * The speech pieces laid over a media file's own sound kept at `backgroundLevel`: one AAC track of exactly
 * `seconds`, stereo. Each piece plays from its start until the next one's (sped up, cut to its length, then silence).
 */
export async function laySpeechOver(
  original: { file: string; ext: string }, speech: readonly SpeechAt[], o: { seconds: number; backgroundLevel: number; output: string },
): Promise<void> {
  // One speech track of the whole length: silence, then each piece padded to the next one's start.
  const format = `aformat=sample_fmts=fltp:sample_rates=${RATE}:channel_layouts=mono`;
  const filters: string[] = [];
  const pieces: string[] = [];
  const lead = speech[0]?.start ?? o.seconds;
  if (lead > 0.001) {
    filters.push(`aevalsrc=0:d=${lead.toFixed(3)}:s=${RATE},${format}[lead]`);
    pieces.push('[lead]');
  }
  speech.forEach((p, i) => {
    const next = i + 1 < speech.length ? speech[i + 1]!.start : o.seconds;
    const span = Math.max(0, next - p.start);
    if (span < 0.001) return;
    const played = p.length > 0.01 ? `atempo=${p.speed},atrim=0:${p.length.toFixed(3)},` : 'atrim=0:0.001,';
    filters.push(`[${i + 1}:a]${format},${played}asetpts=N/SR/TB,apad=whole_len=${Math.round(span * RATE)},atrim=0:${span.toFixed(3)}[p${i}]`);
    pieces.push(`[p${i}]`);
  });
  filters.push(`${pieces.join('')}concat=n=${pieces.length}:v=0:a=1[speech]`);
  filters.push(`[0:a:0]${format},volume=${o.backgroundLevel},apad[bg]`);
  // amix halves each of its two inputs: doubled back after. The speech track is exactly the whole length.
  filters.push('[bg][speech]amix=inputs=2:duration=shortest,volume=2,aformat=channel_layouts=stereo[out]');
  await ffmpeg([
    ...input(original.file, original.ext), ...speech.flatMap((p) => input(p.file, p.ext)),
    '-filter_complex', filters.join(';'), '-map', '[out]', '-t', o.seconds.toFixed(3), '-c:a', 'aac', '-b:a', '128k', '-ar', String(RATE), o.output,
  ]);
}
