/** Sound: extracting, joining, cutting out spans, laying speech over a sound. */
import fs from 'node:fs';
import { ffmpeg, probe } from '../../infra/media-probe';
import { FASTSTART, RATE, input } from './common';

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

/** Below this a stretch's edge is taken for silence (speech engines pad their output unevenly). */
const EDGE_SILENCE = '-50dB';
/** What is kept of that silence at each edge, so a soft onset or tail is not clipped. */
const EDGE_KEEP_SECONDS = 0.04;

/**
 * One spoken stretch as the dub joins it: mono PCM wav at our rate, its silent edges trimmed (to EDGE_KEEP_SECONDS),
 * so the gaps the user asked for are the silences heard. Answers its exact length in seconds (0 when it held no
 * sound) and `lead`, the seconds trimmed off its start: a time t of the source is t − lead in the stretch (where the
 * speech engine's own stretches of it fall).
 */
export async function speechStretch(source: { file: string; ext: string }, output: string): Promise<{ seconds: number; lead: number }> {
  const trim = `silenceremove=start_periods=1:start_threshold=${EDGE_SILENCE}:start_silence=${EDGE_KEEP_SECONDS}`;
  // One decode, three PCM outputs: the whole, the start trimmed (their difference is the lead), both edges trimmed.
  const whole = `${output}.whole.wav`;
  const head = `${output}.head.wav`;
  const pcm = ['-ac', '1', '-ar', String(RATE), '-c:a', 'pcm_s16le'];
  try {
    await ffmpeg([
      ...input(source.file, source.ext), '-vn',
      '-filter_complex', `[0:a:0]aresample=${RATE},aformat=channel_layouts=mono,asplit=2[whole][t];[t]${trim},asplit=2[head][h];[h]areverse,${trim},areverse[out]`,
      '-map', '[whole]', ...pcm, whole, '-map', '[head]', ...pcm, head, '-map', '[out]', ...pcm, output,
    ]);
    const length = async (file: string) => (await probe(file, 'wav').catch(() => ({ duration: 0 }))).duration;
    const [all, rest, seconds] = await Promise.all([length(whole), length(head), length(output)]);
    return { seconds, lead: Math.max(0, Math.round((all - rest) * 1000) / 1000) };
  } finally {
    for (const file of [whole, head]) fs.rmSync(file, { force: true });
  }
}

/**
 * Sound files one after another, each followed by `after` seconds of silence (exact, in samples), into one mono
 * file: PCM for a `.wav` output, else mp3 (192 kbit/s). Answers its length.
 */
export async function sequenceSounds(parts: readonly { file: string; ext: string; after: number }[], output: string): Promise<{ duration: number }> {
  const chains = parts.map((p, i) => {
    const pad = Math.round(Math.max(0, p.after) * RATE);
    return `[${i}:a:0]aresample=${RATE},aformat=sample_fmts=fltp:channel_layouts=mono${pad > 0 ? `,apad=pad_len=${pad}` : ''}[a${i}]`;
  });
  const graph = `${chains.join(';')};${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[out]`;
  const codec = output.endsWith('.wav') ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'libmp3lame', '-b:a', '192k'];
  await ffmpeg([...parts.flatMap((p) => input(p.file, p.ext)), '-filter_complex', graph, '-map', '[out]', '-ar', String(RATE), '-ac', '1', ...codec, output]);
  return { duration: (await probe(output, output.endsWith('.wav') ? 'wav' : 'mp3')).duration };
}

/**
 * Background music under speech, as a dub wants it: the music looped to the speech's length at `volume`, faded in
 * and out, and ducked wherever the speech sounds (a sidechain compressor keyed by the speech); the speech on top,
 * held under full scale. One stereo mp3 of exactly `seconds`: the speech's timing is unchanged.
 */
export async function duckMusicUnder(
  speech: { file: string; ext: string },
  music: { file: string; ext: string },
  o: { seconds: number; volume: number; fadeIn: number; fadeOut: number; output: string },
): Promise<void> {
  await ffmpeg([
    ...input(speech.file, speech.ext), '-stream_loop', '-1', ...input(music.file, music.ext),
    '-filter_complex', duckGraph(o), '-map', '[out]', '-t', o.seconds.toFixed(3), '-ar', String(RATE), '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '192k', o.output,
  ]);
}

/**
 * The same under a finished video's sound (a work's background music): the picture copied as it is, the sound
 * ducked, faded and looped or cut to the video's length, as AAC in an mp4 that starts before it is all there.
 */
export async function duckMusicUnderVideo(
  video: string,
  music: { file: string; ext: string },
  o: { volume: number; fadeIn: number; fadeOut: number; output: string },
): Promise<{ duration: number }> {
  const { duration } = await probe(video, 'mp4');
  await ffmpeg([
    ...input(video, 'mp4'), '-stream_loop', '-1', ...input(music.file, music.ext),
    '-filter_complex', duckGraph({ ...o, seconds: duration }), '-map', '0:v:0', '-map', '[out]', '-t', duration.toFixed(3),
    '-c:v', 'copy', '-c:a', 'aac', '-b:a', '192k', '-ar', String(RATE), '-ac', '2', ...FASTSTART, o.output,
  ], 30 * 60_000);
  return { duration: (await probe(o.output, 'mp4')).duration };
}

/** Input 0's sound on top, input 1 (looped) at `volume`, faded in and out and ducked wherever input 0 sounds. */
function duckGraph(o: { seconds: number; volume: number; fadeIn: number; fadeOut: number }): string {
  const stereo = `aresample=${RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
  const fadeIn = Math.min(o.fadeIn, o.seconds / 3);
  const fadeOut = Math.min(o.fadeOut, o.seconds / 3);
  return [
    `[0:a:0]${stereo},asplit=2[voice][key]`,
    `[1:a:0]${stereo},volume=${o.volume.toFixed(3)},atrim=0:${o.seconds.toFixed(3)},afade=t=in:st=0:d=${fadeIn.toFixed(3)},` +
      `afade=t=out:st=${Math.max(0, o.seconds - fadeOut).toFixed(3)}:d=${fadeOut.toFixed(3)}[music]`,
    // Down by up to about 15 dB within 20 ms of a word, back over 400 ms after the line ends.
    '[music][key]sidechaincompress=threshold=0.02:ratio=8:attack=20:release=400:makeup=1[ducked]',
    // amix halves each of its two inputs: doubled back, then a limiter keeps the peaks under full scale.
    '[voice][ducked]amix=inputs=2:duration=first:dropout_transition=0,volume=2,alimiter=limit=0.95[out]',
  ].join(';');
}

/**
 * A music track at a common loudness (EBU R128 integrated `lufs`, true peak under −1.5 dBTP), stereo 44.1 kHz mp3
 * at 192 kbit/s: library tracks published at different levels sit at one level under every video. Answers its length.
 */
export async function normaliseLoudness(music: { file: string; ext: string }, lufs: number, output: string): Promise<{ duration: number }> {
  await ffmpeg([
    ...input(music.file, music.ext), '-map', '0:a:0', '-vn', '-af', `loudnorm=I=${lufs}:TP=-1.5:LRA=11,aresample=${RATE}`,
    '-ac', '2', '-ar', String(RATE), '-c:a', 'libmp3lame', '-b:a', '192k', output,
  ], 10 * 60_000);
  return { duration: (await probe(output, 'mp3')).duration };
}
