/**
 * What the self-hosted cloning TTS servers (fish-speech, GPT-SoVITS) share. Both read the reference audio from
 * their own disk, so the channel names a folder both sides see (`share_dir`: our mount of it); neither has pause
 * syntax, and fish-speech has no speed, volume or pitch, so a script is spoken one stretch at a time, each stretch
 * within the server's length and split at sentence ends, then joined with real silence for the pause markers and
 * the missing controls applied with ffmpeg filters.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CLONING_SERVER_MSG, LIMITS, splitScript } from '../../../src/contract';
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';
import type { ProviderResponse } from '../provider-http';
import { clamp, joinAudio, looksLikeWav, providerFetch, splitAtSentenceEnds, withTempDir, type AudioPart } from './provider-shared';
import { SpeechEngineError, type EngineConfig, type SpeechParams, type SpokenStretch } from './speech-engine';

export const CLONING_SERVER_TIMEOUT_MS = 120_000;

/** One step of a spoken script: a stretch of text for one request, or silence between them. */
export type SpeechStep = { text: string } | { silence: number };

/**
 * The requests a script needs: pause markers summed where they touch, text split at sentence ends so no request
 * carries more than `limit` characters, blank stretches dropped.
 */
export function planSpeech(script: string, limit: number): SpeechStep[] {
  const steps: SpeechStep[] = [];
  for (const part of splitScript(script)) {
    if (part.kind === 'pause') {
      if (part.seconds <= 0) continue;
      const last = steps.at(-1);
      if (last && 'silence' in last) last.silence += part.seconds;
      else steps.push({ silence: part.seconds });
    } else {
      for (const piece of splitAtSentenceEnds(part.text, limit)) if (/[\p{L}\p{N}]/u.test(piece)) steps.push({ text: piece.trim() });
    }
  }
  return steps;
}

/** ffmpeg's atempo takes 0.5–2 per instance: a larger change is a chain of them. */
function tempoChain(factor: number): string[] {
  const chain: string[] = [];
  let rest = factor;
  while (rest > 2) {
    chain.push('atempo=2');
    rest /= 2;
  }
  while (rest < 0.5) {
    chain.push('atempo=0.5');
    rest /= 0.5;
  }
  if (Math.abs(rest - 1) > 1e-3) chain.push(`atempo=${rest.toFixed(4)}`);
  return chain;
}

/** The pace the filters give speech: the speed slider unless the server spoke at it already. */
function filterSpeed(params: Pick<SpeechParams, 'rate'>, serverDidSpeed: boolean): number {
  const { rate } = LIMITS.sliders;
  return serverDidSpeed ? 1 : clamp(params.rate, rate.min, rate.max, 1);
}

/**
 * Filters that give speech the product's speed and pitch when the server cannot: pitch moves by resampling (which
 * also changes the pace) and the tempo filter puts the pace where the speed slider wants it.
 */
export function speechFilters(params: Pick<SpeechParams, 'rate' | 'pitch'>, serverDidSpeed: boolean): string[] {
  const { pitch } = LIMITS.sliders;
  const speed = filterSpeed(params, serverDidSpeed);
  const ratio = clamp(params.pitch, pitch.min, pitch.max, 1);
  const filters = Math.abs(ratio - 1) > 1e-3 ? [`asetrate=${Math.round(44_100 * ratio)}`, 'aresample=44100'] : [];
  return [...filters, ...tempoChain(speed / ratio)];
}

/** Speaks each text step with `speak` (WAV bytes back) and joins them, with silences, into the mp3 at `output`; answers each step's place in it. */
export async function speakSteps(
  steps: SpeechStep[],
  speak: (text: string) => Promise<Buffer>,
  params: SpeechParams,
  output: string,
  serverDidSpeed: boolean,
): Promise<SpokenStretch[]> {
  if (!steps.some((s) => 'text' in s)) throw new SpeechEngineError(CLONING_SERVER_MSG.emptyScript);
  return withTempDir('aisa-clone-tts-', async (dir) => {
    const parts: AudioPart[] = [];
    for (const step of steps) {
      if ('silence' in step) parts.push(step);
      else {
        const wav = await speak(step.text);
        if (!looksLikeWav(wav)) throw new SpeechEngineError(CLONING_SERVER_MSG.badAudio, true);
        const file = path.join(dir, `${parts.length}.wav`);
        await fs.writeFile(file, wav);
        parts.push({ file, format: 'wav', text: step.text });
      }
    }
    const { volume } = LIMITS.sliders;
    // asetrate shortens by the pitch ratio and atempo lengthens by it again: what is left is the speed's change.
    const lengthFactor = 1 / filterSpeed(params, serverDidSpeed);
    return joinAudio(parts, output, { fade: true, speechFilters: speechFilters(params, serverDidSpeed), volume: clamp(params.volume, volume.min, volume.max, 1), lengthFactor });
  });
}

/** One JSON POST to the server under the channel's deadline, its failures worded for users. */
export function postJson(url: string, body: unknown, timeoutMs: number): Promise<ProviderResponse> {
  return providerFetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, timeoutMs, CLONING_SERVER_MSG);
}

export function getUrl(url: string, timeoutMs: number): Promise<ProviderResponse> {
  return providerFetch(url, { method: 'GET' }, timeoutMs, CLONING_SERVER_MSG);
}

/** A server's HTTP status as the user should read it; undefined for 4xx, which each engine words itself. */
export function serverStatusError(status: number): SpeechEngineError | undefined {
  if (status >= 500 || status === 429) return new SpeechEngineError(CLONING_SERVER_MSG.unavailable, true);
  if (status === 404 || status === 405) return new SpeechEngineError(CLONING_SERVER_MSG.badReply);
  return undefined;
}

export interface ServerSettings {
  baseUrl: string;
  shareDir: string;
  timeoutMs: number;
}

/** The channel's settings, or the not-configured refusal. */
export function serverSettings(config: EngineConfig): ServerSettings {
  const baseUrl = config.base_url?.trim().replace(/\/+$/, '') ?? '';
  const shareDir = config.share_dir?.trim() ?? '';
  if (!/^https?:\/\/./.test(baseUrl) || !shareDir) throw new SpeechEngineError(CLONING_SERVER_MSG.notConfigured);
  return { baseUrl, shareDir, timeoutMs: config.timeout_ms && config.timeout_ms > 0 ? config.timeout_ms : CLONING_SERVER_TIMEOUT_MS };
}

/**
 * Writes the reference the server reads: the sample as 16-bit mono WAV at `rate`, optionally from its first sound
 * on (leading silence cut) and at most `maxSeconds` long, at `shareDir/relative`. Answers its length in seconds.
 */
export async function writeReference(
  sample: { file: string; ext: string },
  shareDir: string,
  relative: string,
  options: { rate: number; maxSeconds: number; trimLeadingSilence?: boolean },
): Promise<number> {
  const target = path.join(shareDir, relative);
  const filters = options.trimLeadingSilence ? ['-af', 'silenceremove=start_periods=1:start_threshold=-45dB:start_silence=0.1'] : [];
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.part.wav`;
    await ffmpeg(['-f', DEMUXER[sample.ext] ?? sample.ext, '-i', sample.file, ...filters, '-t', String(options.maxSeconds), '-ac', '1', '-ar', String(options.rate), '-c:a', 'pcm_s16le', '-f', 'wav', temp], 5 * 60_000);
    // Renamed into place, so the server never reads a half-written file.
    await fs.rename(temp, target);
  } catch {
    throw new SpeechEngineError(CLONING_SERVER_MSG.shareDirFailed);
  }
  return (await probe(target, 'wav')).duration;
}
