/**
 * The offline speech engine (channel `local`): espeak-ng's WASM build in worker threads, mp3 through ffmpeg.
 * It needs no keys and no network, speaks Mandarin, Cantonese and English, honours pause markers as real
 * silence, and "clones" by moving its synthetic voice to the sample's measured pitch and pace.
 */
import { Piscina } from 'piscina';
import { LIMITS, splitScript, type LanguageOption } from '../../../../src/contract';
import { ffmpegPipe } from '../../../infra/media-probe';
import type { CloneSample, EngineVoice, SpeechEngine, SpeechParams, TrainingState } from '../speech-engine';
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
    filename: new URL('./espeak-worker.ts', import.meta.url).href,
    // The worker is TypeScript: it loads through tsx, as the server does.
    execArgv: ['--import', 'tsx'],
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

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<void> {
    const profile = (voice?.profile as VoiceProfile | undefined) ?? DEFAULT_PROFILE;
    const wav = await this.pool.run({ ssml: toSsml(script), ...espeakSettings(profile, params, script) });
    const volume = clamp(params.volume, [LIMITS.sliders.volume.min, LIMITS.sliders.volume.max]);
    await ffmpegPipe(
      [
        '-f', 's16le', '-ar', String(WAV_RATE), '-ac', '1', '-i', 'pipe:0',
        // Louder than 1 must not clip: the limiter holds peaks under full scale.
        '-af', `volume=${volume.toFixed(2)},alimiter=limit=0.97`,
        // LAME quality 7 halves the encode time of its default at this bitrate, with no audible loss for speech.
        '-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '7', '-f', 'mp3', output,
      ],
      pcmOf(wav),
    );
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
