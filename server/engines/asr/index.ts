/**
 * Speech recognition for video translation: an OpenAI-compatible transcription API (`POST {base}/v1/audio/transcriptions`,
 * multipart `file`, `model`, `language`, `response_format=verbose_json` → `{language, segments: [{start, end, text}]}`),
 * as whisper.cpp's server, faster-whisper-server / speaches and OpenAI speak it. The operator configures it with
 * `npm run admin -- site set asr_base_url=http://… asr_api_key=… asr_model=…` (asr_timeout_ms optional); without a
 * base URL there is no engine. An answer without timed segments is refused: the dubbing needs each sentence's slot.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { MSG } from '../../../src/contract';
import { fetchWithDeadline, ProviderUnreachable } from '../provider-http';

export interface TimedSegment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  language: string;
  segments: TimedSegment[];
}

export interface AsrConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export const ASR_SETTING_KEYS = { baseUrl: 'asr_base_url', apiKey: 'asr_api_key', model: 'asr_model', timeoutMs: 'asr_timeout_ms' } as const;
export const DEFAULT_ASR_MODEL = 'whisper-1';
const DEFAULT_ASR_TIMEOUT_MS = 10 * 60_000;

/** A recognition failure; `message` is the user's Chinese reason. */
export class AsrFailed extends Error {
  constructor(
    message: string,
    readonly detail: string,
    /** Worth trying again (the service was down or busy). */
    readonly transient = false,
  ) {
    super(message);
  }
}

export function asrConfigFromSettings(settings: Record<string, string | undefined>): AsrConfig | null {
  const baseUrl = settings[ASR_SETTING_KEYS.baseUrl]?.trim().replace(/\/+$/, '') ?? '';
  if (!/^https?:\/\/\S+$/i.test(baseUrl)) return null;
  const timeout = Number(settings[ASR_SETTING_KEYS.timeoutMs]);
  return {
    baseUrl,
    apiKey: settings[ASR_SETTING_KEYS.apiKey]?.trim() ?? '',
    model: settings[ASR_SETTING_KEYS.model]?.trim() || DEFAULT_ASR_MODEL,
    timeoutMs: timeout > 0 ? timeout : DEFAULT_ASR_TIMEOUT_MS,
  };
}

/** `{base}/v1/audio/transcriptions`, whether or not the operator's base already ends in /v1. */
export const transcriptionsUrl = (baseUrl: string) => `${baseUrl.replace(/\/v1$/, '')}/v1/audio/transcriptions`;

/** Whisper's language names for the codes we send (the API takes ISO 639-1; Cantonese is `yue` in whisper). */
const LANGUAGE_CODE: Record<string, string> = { zh: 'zh', en: 'en', yue: 'yue' };

/** Reads the provider's verbose_json answer into ordered, non-empty, timed segments. */
export function parseTranscript(body: unknown): Transcript {
  const answer = body as { language?: unknown; segments?: unknown };
  if (!Array.isArray(answer?.segments)) throw new AsrFailed(MSG.translationNoSegments, 'the answer has no segments');
  const segments: TimedSegment[] = [];
  for (const raw of answer.segments as { start?: unknown; end?: unknown; text?: unknown }[]) {
    const start = Number(raw?.start);
    const end = Number(raw?.end);
    const text = typeof raw?.text === 'string' ? raw.text.trim() : '';
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) throw new AsrFailed(MSG.translationNoSegments, `a segment without times: ${JSON.stringify(raw).slice(0, 200)}`);
    if (text) segments.push({ start, end, text });
  }
  segments.sort((a, b) => a.start - b.start);
  return { language: typeof answer.language === 'string' ? answer.language : '', segments };
}

export async function transcribe(config: AsrConfig, audio: string, language: string): Promise<Transcript> {
  const form = new FormData();
  form.append('file', new Blob([await fs.readFile(audio)], { type: 'audio/wav' }), path.basename(audio));
  form.append('model', config.model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  if (LANGUAGE_CODE[language]) form.append('language', LANGUAGE_CODE[language]);
  let res;
  try {
    res = await fetchWithDeadline(transcriptionsUrl(config.baseUrl), { method: 'POST', body: form, headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {} }, config.timeoutMs);
  } catch (err) {
    if (err instanceof ProviderUnreachable) throw new AsrFailed(MSG.translationAsrFailed, err.message, true);
    throw err;
  }
  const text = res.body.toString('utf8');
  if (res.status < 200 || res.status >= 300) throw new AsrFailed(MSG.translationAsrFailed, `status ${res.status}: ${text.slice(0, 200)}`, res.status >= 500 || res.status === 429);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // response_format=text or srt: no segments to align to.
    throw new AsrFailed(MSG.translationNoSegments, `not JSON: ${text.slice(0, 200)}`);
  }
  return parseTranscript(json);
}
