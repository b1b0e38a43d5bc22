/** What the speech provider adapters (Fish Audio, MiniMax) share: HTTP worded for speech, sample upload, mp3 checks, joining audio. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEMUXER, ffmpeg, probe } from '../../infra/media-probe';
import { fetchWithDeadline, ProviderUnreachable, trimBaseUrl, type ProviderResponse } from '../provider-http';
import { SpeechEngineError, type CloneSample, type EngineConfig, type SpokenStretch } from './speech-engine';

export const DEFAULT_PROVIDER_TIMEOUT_MS = 120_000;

const SAMPLE_MIME: Record<string, string> = { mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav' };

export const MSG_NOT_CONFIGURED = '该渠道尚未配置接口密钥';

/** A cloud provider adapter's connection, read from its channel: key and address required, model and timeout defaulted. */
export abstract class CloudConnection {
  protected readonly baseUrl: string;
  protected readonly apiKey: string;
  protected readonly model: string;
  protected readonly timeoutMs: number;

  constructor(config: EngineConfig, defaultModel: string) {
    if (!config.api_key?.trim() || !config.base_url?.trim()) throw new SpeechEngineError(MSG_NOT_CONFIGURED);
    this.baseUrl = trimBaseUrl(config.base_url);
    this.apiKey = config.api_key.trim();
    this.model = config.model?.trim() || defaultModel;
    this.timeoutMs = config.timeout_ms && config.timeout_ms > 0 ? config.timeout_ms : DEFAULT_PROVIDER_TIMEOUT_MS;
  }
}

/**
 * One HTTP exchange with a speech provider (see ../provider-http.ts): network failures and timeouts become
 * transient SpeechEngineErrors; the caller judges the status.
 */
export async function providerFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  words: { timeout: string; unreachable: string } = { timeout: '语音服务响应超时，请稍后重试', unreachable: '暂时无法连接语音服务，请稍后重试' },
): Promise<ProviderResponse> {
  try {
    return await fetchWithDeadline(url, init, timeoutMs);
  } catch (err) {
    if (!(err instanceof ProviderUnreachable)) throw err;
    throw new SpeechEngineError(err.timedOut ? words.timeout : words.unreachable, true);
  }
}

export function clamp(value: number, min: number, max: number, fallback: number): number {
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/** True when the bytes start like an mp3 (an ID3 tag or an MPEG audio frame sync). */
export function looksLikeMp3(bytes: Buffer): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true;
  return bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

/** True when the bytes are a RIFF/WAVE file. */
export function looksLikeWav(bytes: Buffer): boolean {
  return bytes.length >= 44 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE';
}

/** A spoken file (mp3 unless said; `text` is what it says) or a stretch of real silence, in seconds. */
export type AudioPart = { file: string; format?: 'mp3' | 'wav'; text?: string } | { silence: number };

export interface JoinOptions {
  /** ffmpeg filters applied to each spoken part (not to the silences), e.g. tempo and pitch. */
  speechFilters?: string[];
  /** Fade each spoken part in and out over a few milliseconds, so parts that end mid-wave join without clicks. */
  fade?: boolean;
  /** Linear gain of the whole result (1 = unchanged); peaks are held under full scale. */
  volume?: number;
  /** How much `speechFilters` change a spoken part's length (a tempo change of 1.25× makes it 0.8). */
  lengthFactor?: number;
}

const FADE_SECONDS = 0.012;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Seconds of a spoken file as the engine made it. */
const partSeconds = async (file: string, format: 'mp3' | 'wav') => (await probe(file, format)).duration;

/** A result spoken in one piece: the whole of it is the one stretch. */
export async function wholeStretch(file: string, text: string): Promise<SpokenStretch[]> {
  return [{ text, start: 0, end: round3(await partSeconds(file, 'mp3')) }];
}

/**
 * Joins spoken files and silences into one mono mp3 (re-encoded, so segments of any rate join cleanly); answers where
 * each part that carries its text landed: each spoken file's real length (times the filters' lengthFactor) and
 * each silence's, in order.
 */
export async function joinAudio(parts: AudioPart[], output: string, options: JoinOptions = {}): Promise<SpokenStretch[]> {
  const inputs: string[] = [];
  const chains: string[] = [];
  const fade = `afade=t=in:d=${FADE_SECONDS},areverse,afade=t=in:d=${FADE_SECONDS},areverse`;
  parts.forEach((part, i) => {
    const common = `[${i}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono`;
    if ('file' in part) {
      inputs.push('-f', DEMUXER[part.format ?? 'mp3']!, '-i', part.file);
      chains.push([common, ...(options.speechFilters ?? []), ...(options.fade ? [fade] : [])].join(',') + `[a${i}]`);
    } else {
      inputs.push('-f', 'lavfi', '-t', part.silence.toFixed(3), '-i', 'anullsrc=r=44100:cl=mono');
      chains.push(`${common}[a${i}]`);
    }
  });
  const gain = options.volume !== undefined && Math.abs(options.volume - 1) > 1e-3 ? `,volume=${options.volume.toFixed(3)},alimiter=limit=0.97` : '';
  const labels = parts.map((_, i) => `[a${i}]`).join('');
  const graph = `${chains.join(';')};${labels}concat=n=${parts.length}:v=0:a=1${gain}[out]`;
  try {
    await ffmpeg([...inputs, '-filter_complex', graph, '-map', '[out]', '-c:a', 'libmp3lame', '-b:a', '128k', '-ar', '44100', '-ac', '1', '-f', 'mp3', output], 10 * 60_000);
  } catch {
    throw new SpeechEngineError('合成音频拼接失败，请稍后重试', true);
  }
  const stretches: SpokenStretch[] = [];
  let at = 0;
  for (const part of parts) {
    const seconds = 'file' in part ? (await partSeconds(part.file, part.format ?? 'mp3')) * (options.lengthFactor ?? 1) : part.silence;
    if ('file' in part && part.text !== undefined) stretches.push({ text: part.text, start: round3(at), end: round3(at + seconds) });
    at += seconds;
  }
  return stretches;
}

/** Splits a text longer than `limit` characters at the last sentence end before it (or hard at the limit). */
export function splitAtSentenceEnds(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const head = rest.slice(0, limit);
    let cut = Math.max(...['。', '！', '？', '.', '!', '?', '\n', '；', ';'].map((p) => head.lastIndexOf(p))) + 1;
    // No sentence end in the second half: a comma is the next best place, then the limit itself.
    if (cut < limit / 2) cut = Math.max(...['，', ',', '、', '：', ':'].map((p) => head.lastIndexOf(p))) + 1;
    if (cut < limit / 2) cut = limit;
    if (/[\uD800-\uDBFF]/.test(rest.charAt(cut - 1))) cut -= 1;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.trim()) pieces.push(rest);
  return pieces;
}

export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function readSample(sample: CloneSample): Promise<Blob> {
  const bytes = await fs.readFile(sample.file);
  return new Blob([bytes], { type: SAMPLE_MIME[sample.ext] ?? 'application/octet-stream' });
}
