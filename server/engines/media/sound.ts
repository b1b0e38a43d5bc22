/** Sound: extracting, joining, cutting out spans, laying speech over a sound. */
import { ffmpeg, probe } from '../../infra/media-probe';
import { RATE, input } from './common';

/** The first sound track as mono 16 kHz PCM wav: what speech recognition and the voice measure read. */
export async function extractSpeechWav(media: string, ext: string, output: string): Promise<void> {
  await ffmpeg([...input(media, ext), '-map', '0:a:0', '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', output]);
}

/** The first sound track as an mp3 for the user to keep (192 kbit/s). */
export async function extractMp3(media: string, ext: string, output: string): Promise<void> {
  await ffmpeg([...input(media, ext), '-vn', '-map', '0:a:0', '-c:a', 'libmp3lame', '-b:a', '192k', output], 10 * 60_000);
}

/** Joins sound files (mp3, m4a, wav) one after another into one mono mp3. */
export async function joinSounds(files: readonly { file: string; ext: string }[], output: string): Promise<{ duration: number }> {
  const graph = `${files.map((_, i) => `[${i}:a:0]aresample=${RATE},aformat=channel_layouts=mono[a${i}]`).join(';')};${files.map((_, i) => `[a${i}]`).join('')}concat=n=${files.length}:v=0:a=1[out]`;
  await ffmpeg([...files.flatMap((f) => input(f.file, f.ext)), '-filter_complex', graph, '-map', '[out]', '-c:a', 'libmp3lame', '-b:a', '96k', '-compression_level', '7', output]);
  return { duration: (await probe(output, 'mp3')).duration };
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
