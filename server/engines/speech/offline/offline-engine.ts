/**
 * The offline speech engine (channel `local`): espeak-ng's WASM build in worker threads, mp3 through ffmpeg.
 * It needs no keys and no network, speaks Mandarin, Cantonese and English, honours pause markers as real
 * silence, and "clones" by moving its synthetic voice to the sample's measured pitch and pace. It answers where
 * each stretch between pause markers lies, read off its own samples (see speakWithPauses).
 */
import { Piscina } from 'piscina';
import { LIMITS, splitScript, type LanguageOption } from '../../../../src/contract';
import { ffmpegPipe } from '../../../infra/media-probe';
import { workerScript } from '../../../infra/worker-script';
import type { CloneSample, EngineVoice, SpeechEngine, SpeechParams, SpokenStretch, TrainingState } from '../speech-engine';
import type { EspeakTask } from './espeak-worker';
import { SampleHasNoSpeech, measureVoice, type VoiceProfile } from './voice-profile';

/** The channel's language cascader; leaf values are espeak-ng voice names. */
export const OFFLINE_LANGUAGES: LanguageOption[] = [
  { value: 'zh', label: '中文', children: [{ value: 'cmn', label: '普通话' }, { value: 'yue', label: '粤语' }] },
  { value: 'en', label: '英语', children: [{ value: 'en-us', label: '美式英语' }, { value: 'en-gb', label: '英式英语' }] },
];
const LEAVES = new Set(OFFLINE_LANGUAGES.flatMap((l) => (l.children ?? []).map((c) => c.value)));

const WAV_RATE = 22_050;
/** espeak-ng's default pace; the product's rate 1. */
const BASE_WPM = 175;
const WPM_RANGE = [80, 450] as const;

/**
 * Pitch (Hz, measured by voice-profile.ts) that espeak-ng's Mandarin voice reaches at -p 10…90, per variant,
 * read off its own output with the same analyser; a sample's f0 is matched by interpolating in this table.
 */
const PITCH_TABLE = {
  m3: [[10, 69], [30, 74], [50, 91], [70, 114], [90, 144]],
  f3: [[10, 127], [30, 151], [50, 182], [70, 222], [90, 276]],
} as const;
type Variant = keyof typeof PITCH_TABLE;
/** Below this the speaker is matched with the lower (male) variant. */
const LOW_VOICE_BELOW_HZ = 150;
/** Syllable peaks per second of speech that espeak-ng produces at BASE_WPM. */
const BASE_SYLLABLES_PER_SECOND = 5.44;
/** A sample's pace moves the voice at most this far either way. */
const PACE_RANGE = [0.7, 1.5] as const;

/** The voice a public voice without a sample speaks with. */
const DEFAULT_PROFILE: VoiceProfile = { f0: 182, syllablesPerSecond: BASE_SYLLABLES_PER_SECOND, speechSeconds: 0 };

const clamp = (n: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, n));

/** espeak -p that makes this variant speak at f0, by linear interpolation in PITCH_TABLE. */
function espeakPitchFor(variant: Variant, f0: number): number {
  const table = PITCH_TABLE[variant];
  if (f0 <= table[0][1]) return table[0][0];
  for (let i = 1; i < table.length; i++) {
    const [p1, h1] = table[i]!;
    const [p0, h0] = table[i - 1]!;
    if (f0 <= h1) return p0 + ((f0 - h0) / (h1 - h0)) * (p1 - p0);
  }
  return table[table.length - 1]![0];
}

/** The espeak-ng arguments for a profile and the user's parameters. */
export function espeakSettings(profile: VoiceProfile, params: Pick<SpeechParams, 'rate' | 'pitch' | 'language'>, script: string) {
  const variant: Variant = profile.f0 < LOW_VOICE_BELOW_HZ ? 'm3' : 'f3';
  const pace = clamp(profile.syllablesPerSecond / BASE_SYLLABLES_PER_SECOND, PACE_RANGE);
  const language = LEAVES.has(params.language) ? params.language : (OFFLINE_LANGUAGES.find((l) => l.value === params.language)?.children?.[0]?.value ?? guessLanguage(script));
  return {
    voice: `${language}+${variant}`,
    speed: Math.round(clamp(BASE_WPM * pace * params.rate, WPM_RANGE)),
    pitch: Math.round(clamp(espeakPitchFor(variant, profile.f0) * params.pitch, [0, 99])),
  };
}

function guessLanguage(script: string): string {
  return /[\u3400-\u9fff]/.test(script) ? 'cmn' : 'en-us';
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The script as SSML: text escaped, each pause marker a break of its length (splitScript caps it). */
export function toSsml(script: string): string {
  const body = splitScript(script)
    .map((part) => (part.kind === 'text' ? escapeXml(part.text) : `<break time="${Math.round(part.seconds * 1000)}ms"/>`))
    .join('');
  return `<speak>${body}</speak>`;
}

/** One step of an offline script: a stretch to speak, or the silence of the markers between two stretches. */
export type OfflineStep = { text: string } | { silence: number };

/** The script's stretches and pauses: markers that touch (or have only blanks between them) summed into one. */
export function offlineSteps(script: string): OfflineStep[] {
  const steps: OfflineStep[] = [];
  for (const part of splitScript(script)) {
    const last = steps.at(-1);
    if (part.kind === 'pause') {
      if (part.seconds <= 0) continue;
      if (last && 'silence' in last) last.silence += part.seconds;
      else steps.push({ silence: part.seconds });
    } else if (/[\p{L}\p{N}]/u.test(part.text)) {
      steps.push({ text: part.text });
    }
  }
  return steps;
}

/**
 * The break each pause is spoken with first: far longer than any pause espeak-ng makes of its own (a sentence end at
 * its slowest pace is under a second), so each one is found in the samples and then cut to its length. Should a
 * natural pause ever pass for one, the count no longer matches and the script is spoken again with real breaks.
 */
const SENTINEL_SECONDS = 3;
/** A quiet run this long is a sentinel break (plus whatever pause espeak-ng added beside it). */
const SENTINEL_FOUND_SECONDS = 2.2;
/** Samples this close to zero are silence: espeak-ng's own silence is not exact zeros. */
const QUIET = 30;

/** Quiet runs of at least `minSamples`, as [start, end) sample indexes. */
function quietRuns(pcm: Int16Array, minSamples: number): [number, number][] {
  const runs: [number, number][] = [];
  let from = -1;
  for (let i = 0; i <= pcm.length; i++) {
    const quiet = i < pcm.length && Math.abs(pcm[i]!) <= QUIET;
    if (quiet && from < 0) from = i;
    else if (!quiet && from >= 0) {
      if (i - from >= minSamples) runs.push([from, i]);
      from = -1;
    }
  }
  return runs;
}

/**
 * The stretches of a script spoken in one espeak-ng run (a run costs ~0.4 s to set up, so never one per stretch):
 * each pause is spoken as a SENTINEL_SECONDS break, each break is found in the samples, and its run is cut so that
 * the pause keeps what espeak-ng itself would have made of it (the run less the sentinel plus the marker's seconds).
 * The stretches' starts and ends are then exact sample positions of the result. Answers undefined when the
 * breaks found are not the script's (then the caller speaks the script with real breaks instead).
 */
export function cutSentinels(pcm: Int16Array, steps: OfflineStep[], rate: number): { pcm: Int16Array; stretches: SpokenStretch[] } | undefined {
  const runs = quietRuns(pcm, Math.round(SENTINEL_FOUND_SECONDS * rate));
  const pauses = steps.filter((s): s is { silence: number } => 'silence' in s);
  if (runs.length !== pauses.length) return undefined;
  const pieces: Int16Array[] = [];
  const stretches: SpokenStretch[] = [];
  let read = 0;
  let written = 0;
  let pause = 0;
  for (const step of steps) {
    if ('text' in step) {
      const end = pause < runs.length ? runs[pause]![0] : pcm.length;
      pieces.push(pcm.subarray(read, end));
      stretches.push({ text: step.text, start: written / rate, end: (written + end - read) / rate });
      written += end - read;
      read = end;
    } else {
      const [from, to] = runs[pause++]!;
      if (from !== read) return undefined;
      const kept = Math.max(0, Math.round((to - from) - SENTINEL_SECONDS * rate + step.silence * rate));
      pieces.push(new Int16Array(kept));
      written += kept;
      read = to;
    }
  }
  const out = new Int16Array(written);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { pcm: out, stretches: stretches.map((s) => ({ ...s, start: round(s.start), end: round(s.end) })) };
}

/** The PCM samples of the WAV espeak-ng wrote (after its `data` chunk header). */
function pcmOf(wav: Uint8Array): Uint8Array {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  for (let at = 12; at + 8 <= wav.byteLength; ) {
    const id = String.fromCharCode(wav[at]!, wav[at + 1]!, wav[at + 2]!, wav[at + 3]!);
    if (id === 'data') return wav.subarray(at + 8);
    at += 8 + view.getUint32(at + 4, true);
  }
  throw new Error('espeak-ng wrote a WAV without a data chunk');
}

export class OfflineSpeechEngine implements SpeechEngine {
  private readonly pool = new Piscina<EspeakTask, Uint8Array>({
    ...workerScript('./espeak-worker.ts', import.meta.url),
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 60_000,
  });

  async clone(sample: CloneSample): Promise<TrainingState> {
    try {
      const profile = await measureVoice(sample.file, sample.ext);
      return { state: 'ready', voice: { remoteId: '', profile: { ...profile } } };
    } catch (err) {
      if (err instanceof SampleHasNoSpeech) return { state: 'failed', reason: '样本中没有检测到清晰的人声，请重新录制' };
      throw err;
    }
  }

  async trainingState(): Promise<TrainingState> {
    return { state: 'failed', reason: '离线引擎的声音无需训练' };
  }

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    const profile = (voice?.profile as VoiceProfile | undefined) ?? DEFAULT_PROFILE;
    const { pcm, stretches } = await this.speakWithPauses(script, espeakSettings(profile, params, script));
    const volume = clamp(params.volume, [LIMITS.sliders.volume.min, LIMITS.sliders.volume.max]);
    await ffmpegPipe(
      [
        '-f', 's16le', '-ar', String(WAV_RATE), '-ac', '1', '-i', 'pipe:0',
        // Louder than 1 must not clip: the limiter holds peaks under full scale.
        '-af', `volume=${volume.toFixed(2)},alimiter=limit=0.97`,
        // LAME quality 7 halves the encode time of its default at this bitrate, with no audible loss for speech.
        '-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '7', '-f', 'mp3', output,
      ],
      new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength),
    );
    return stretches;
  }

  /** The script's samples and where its stretches lie in them (see cutSentinels). */
  private async speakWithPauses(script: string, settings: ReturnType<typeof espeakSettings>): Promise<{ pcm: Int16Array; stretches: SpokenStretch[] }> {
    const steps = offlineSteps(script);
    const samples = (wav: Uint8Array) => {
      const bytes = pcmOf(wav);
      // Copied only when the PCM starts at an odd offset of the WAV (an Int16Array needs an even one).
      const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
      return new Int16Array(aligned.buffer, aligned.byteOffset, aligned.length >> 1);
    };
    if (steps.some((s) => 'silence' in s)) {
      const ssml = `<speak>${steps.map((s) => ('text' in s ? escapeXml(s.text) : `<break time="${SENTINEL_SECONDS * 1000}ms"/>`)).join('')}</speak>`;
      const cut = cutSentinels(samples(await this.pool.run({ ssml, ...settings })), steps, WAV_RATE);
      if (cut) return cut;
    }
    // No pauses (or breaks not found as planned): one stretch of the whole, pauses spoken as espeak-ng's own breaks.
    const pcm = samples(await this.pool.run({ ssml: toSsml(script), ...settings }));
    const text = steps.filter((s): s is { text: string } => 'text' in s).map((s) => s.text).join('');
    return { pcm, stretches: text ? [{ text: script, start: 0, end: Math.round((pcm.length / WAV_RATE) * 1000) / 1000 }] : [] };
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
