/**
 * MiniMax (api.minimaxi.com / api.minimax.chat; the base URL is configuration) as a SpeechEngine.
 *
 * - clone: POST /v1/files/upload (multipart: purpose=voice_clone, file) → file.file_id, then
 *   POST /v1/voice_clone {file_id, voice_id}. The voice_id is ours (derived from the training key) and the
 *   voice is usable as soon as the call succeeds, so clone answers ready.
 * - discard: POST /v1/delete_voice {voice_type: "voice_cloning", voice_id}.
 * - synthesize: POST /v1/t2a_v2 {model, text, stream:false, voice_setting, audio_setting, language_boost},
 *   answered with data.audio as hex. MiniMax understands the `<#0.5#>` pause markers itself.
 * Every answer carries base_resp {status_code, status_msg}; status_code ≠ 0 is an error even on HTTP 200.
 * `?GroupId=` is added when the channel has a group id (older accounts need it, newer keys ignore it).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { splitScript } from '../../../src/contract/script';
import { clamp, CloudConnection, joinAudio, looksLikeMp3, providerFetch, readSample, splitAtSentenceEnds, wholeStretch, withTempDir, type AudioPart } from './provider-shared';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechEngine, type SpeechParams, type SpokenStretch, type TrainingState } from './speech-engine';

/** The t2a_v2 model unless the channel names another. */
export const MINIMAX_DEFAULT_MODEL = 'speech-2.6-hd';
/** A system voice, for synthesis without a cloned voice. */
export const MINIMAX_DEFAULT_VOICE = 'female-tianmei';
/** t2a_v2 takes fewer than 10,000 characters per call; longer scripts are spoken in parts and joined. */
export const MINIMAX_TEXT_LIMIT = 9_000;
const MAX_PAUSE = 99.99;

/** language_boost values MiniMax accepts. */
const LANGUAGE_BOOSTS = new Set([
  'Chinese', 'Chinese,Yue', 'English', 'Arabic', 'Russian', 'Spanish', 'French', 'Portuguese', 'German', 'Turkish', 'Dutch', 'Ukrainian',
  'Vietnamese', 'Indonesian', 'Japanese', 'Italian', 'Korean', 'Thai', 'Polish', 'Romanian', 'Greek', 'Czech', 'Finnish', 'Hindi', 'auto',
]);

/** Common codes and names an operator may put in the channel's language cascader. */
const LANGUAGE_ALIASES: Record<string, string> = {
  zh: 'Chinese', 'zh-cn': 'Chinese', cmn: 'Chinese', 中文: 'Chinese', 普通话: 'Chinese',
  yue: 'Chinese,Yue', 'zh-hk': 'Chinese,Yue', 粤语: 'Chinese,Yue',
  en: 'English', 'en-us': 'English', 'en-gb': 'English', 英语: 'English', 英文: 'English',
  ja: 'Japanese', 日语: 'Japanese', ko: 'Korean', 韩语: 'Korean', fr: 'French', 法语: 'French', de: 'German', 德语: 'German',
  es: 'Spanish', 西班牙语: 'Spanish', pt: 'Portuguese', ru: 'Russian', 俄语: 'Russian', it: 'Italian', ar: 'Arabic', th: 'Thai',
  vi: 'Vietnamese', id: 'Indonesian', tr: 'Turkish', nl: 'Dutch', uk: 'Ukrainian', pl: 'Polish', hi: 'Hindi',
};

/** Emotions of t2a_v2; the product's `neutral` is MiniMax's `calm` (中性). */
const EMOTIONS = new Set(['happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'calm', 'fluent', 'whisper']);

/** base_resp.status_code → [user message, transient]. Codes from MiniMax's error-code table. */
const ERRORS: Record<number, [string, boolean]> = {
  1000: ['语音服务暂时不可用，请稍后重试', true],
  1001: ['语音服务响应超时，请稍后重试', true],
  1002: ['语音服务请求过于频繁，请稍后重试', true],
  1004: ['语音服务接口密钥无效，请联系管理员检查渠道配置', false],
  1008: ['语音服务账户余额不足，请联系管理员', false],
  1013: ['语音服务内部错误，请稍后重试', true],
  1024: ['语音服务内部错误，请稍后重试', true],
  1026: ['文案含有敏感内容，请修改后重试', false],
  1027: ['合成内容涉及敏感信息，请修改文案后重试', false],
  1033: ['语音服务暂时不可用，请稍后重试', true],
  1039: ['语音服务用量触发限流，请稍后重试', true],
  1041: ['语音服务连接数已达上限，请稍后重试', true],
  1042: ['文案中不可见字符或非法字符过多，请检查后重试', false],
  1043: ['样本音频与校验文本不符，请更换样本后重试', false],
  1044: ['示例音频与提示文本不符，请更换后重试', false],
  2013: ['语音服务拒绝了请求参数，请检查文案或参数后重试', false],
  20132: ['声音样本或音色无效，请重新克隆声音', false],
  2037: ['样本音频时长不符合要求，需在 10 秒到 5 分钟之间', false],
  2038: ['语音服务账户未开通声音复刻（需完成实名认证），请联系管理员', false],
  2039: ['音色 ID 已存在', false],
  2042: ['无权使用该音色，请重新克隆声音', false],
  2045: ['语音服务请求量增长过快，请稍后重试', true],
  2048: ['示例音频过长，请更换后重试', false],
  2049: ['语音服务接口密钥无效，请联系管理员检查渠道配置', false],
  2056: ['语音服务资源已达本时段上限，请稍后重试', true],
};

/** Codes that blame the sample itself: the clone failed, the channel is fine. */
const SAMPLE_FAULTS = new Set([1026, 1042, 1043, 1044, 2037, 20132, 2048]);
const DUPLICATE_VOICE_ID = 2039;

export function minimaxError(code: number): SpeechEngineError {
  const [message, transient] = ERRORS[code] ?? [`语音服务返回错误（MiniMax ${code}）`, false];
  return new SpeechEngineError(message, transient);
}

function httpError(status: number): SpeechEngineError {
  if (status === 401 || status === 403) return minimaxError(1004);
  if (status === 429) return minimaxError(1002);
  if (status >= 500) return new SpeechEngineError('语音服务暂时不可用，请稍后重试', true);
  return new SpeechEngineError(`语音服务返回错误（HTTP ${status}）`);
}

/**
 * Our voice_id for a training run: MiniMax wants 8–256 characters, a letter first, letters/digits/-/_ and no
 * -/_ last. Stable per training key, so a retried clone finds its own voice (duplicate id) instead of a new one.
 */
export function minimaxVoiceId(trainingKey: string): string {
  const clean = trainingKey.replace(/[^A-Za-z0-9]/g, '').slice(0, 200);
  let id = `aisa${clean}`;
  // Stripped characters or a short key could make two keys collide: a digest of the whole key keeps them apart.
  if (clean !== trainingKey || id.length < 8) id += createHash('sha256').update(trainingKey).digest('hex').slice(0, 12);
  return id;
}

export function minimaxLanguage(language: string): string {
  const value = language.trim();
  if (!value) return 'auto';
  if (LANGUAGE_BOOSTS.has(value)) return value;
  return LANGUAGE_ALIASES[value.toLowerCase()] ?? 'auto';
}

export function minimaxEmotion(emotion: string): string | undefined {
  const value = emotion.trim().toLowerCase();
  if (value === 'neutral') return 'calm';
  return EMOTIONS.has(value) ? value : undefined;
}

/** The product's params in MiniMax's units: speed [0.5, 2], vol (0, 10] (linear, 1 = default), pitch in semitones. */
export function minimaxVoiceSetting(params: SpeechParams): { speed: number; vol: number; pitch: number } {
  const speed = Math.round(clamp(params.rate, 0.5, 2, 1) * 100) / 100;
  const vol = Math.round(clamp(params.volume, 0.1, 3, 1) * 100) / 100;
  // The product's pitch is a frequency ratio (1 = unchanged): 12·log2 turns it into semitones; 0.5 and 2 are an octave.
  const pitch = Math.max(-12, Math.min(12, Math.round(12 * Math.log2(clamp(params.pitch, 0.1, 2, 1)))));
  return { speed, vol, pitch };
}

function pauseMarker(seconds: number): string {
  return `<#${Math.round(Math.min(MAX_PAUSE, Math.max(0.01, seconds)) * 100) / 100}#>`;
}

export type MiniMaxPlan = ({ text: string } | { silence: number })[];

/**
 * How a script is sent: MiniMax wants each marker between two spoken stretches and no two markers in a row, so
 * adjacent markers are summed, markers at either end become real silence, and scripts over the per-call limit
 * are cut (at a marker when possible) into calls joined afterwards.
 */
export function planMiniMaxScript(script: string, limit = MINIMAX_TEXT_LIMIT): MiniMaxPlan {
  const items: ({ text: string } | { pause: number })[] = [];
  let pending = 0;
  for (const part of splitScript(script)) {
    if (part.kind === 'pause') pending += part.seconds;
    else if (part.text.trim()) {
      if (pending > 0) items.push({ pause: pending });
      pending = 0;
      for (const piece of splitAtSentenceEnds(part.text, limit)) items.push({ text: piece });
    }
  }
  if (pending > 0) items.push({ pause: pending });

  const plan: MiniMaxPlan = [];
  let current = '';
  let gap = 0;
  for (const item of items) {
    if ('pause' in item) {
      gap += item.pause;
      continue;
    }
    if (!current) {
      if (gap > 0) plan.push({ silence: gap });
      current = item.text;
    } else {
      const joined = current + (gap > 0 ? pauseMarker(gap) : '') + item.text;
      if (joined.length <= limit && gap <= MAX_PAUSE) current = joined;
      else {
        plan.push({ text: current });
        if (gap > 0) plan.push({ silence: gap });
        current = item.text;
      }
    }
    gap = 0;
  }
  if (current) plan.push({ text: current });
  if (gap > 0) plan.push({ silence: gap });
  return plan;
}

interface MiniMaxAnswer {
  json: Record<string, unknown>;
  raw: string;
  code: number;
}

export class MiniMaxEngine extends CloudConnection implements SpeechEngine {
  private readonly groupId: string;

  constructor(config: EngineConfig) {
    super(config, MINIMAX_DEFAULT_MODEL);
    this.groupId = config.group_id?.trim() ?? '';
  }

  async clone(sample: CloneSample): Promise<TrainingState> {
    const form = new FormData();
    form.append('purpose', 'voice_clone');
    form.append('file', await readSample(sample), `sample.${sample.ext}`);
    const upload = await this.call('/v1/files/upload', { method: 'POST', body: form });
    if (upload.code !== 0) return this.cloneFailure(upload.code);
    // file_id is an int64: taken from the raw text and sent back as written, so no digit is lost to a double.
    const fileId = /"file_id"\s*:\s*"?(\d+)"?/.exec(upload.raw)?.[1];
    if (!fileId) throw new SpeechEngineError('语音服务返回的上传结果无效，请稍后重试', true);

    const voiceId = minimaxVoiceId(sample.trainingKey);
    const rest = JSON.stringify({ voice_id: voiceId, need_noise_reduction: false, need_volume_normalization: true });
    const clone = await this.call('/v1/voice_clone', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"file_id":${fileId},${rest.slice(1)}` });
    // Our voice_id is stable per training run: "already exists" means an earlier attempt of this run succeeded.
    if (clone.code === DUPLICATE_VOICE_ID) return { state: 'ready', voice: { remoteId: voiceId } };
    if (clone.code !== 0) return this.cloneFailure(clone.code);
    const sensitive = clone.json.input_sensitive;
    const flagged = sensitive === true || Number((sensitive as { type?: unknown } | null)?.type ?? 0) > 0 || Number(clone.json.input_sensitive_type ?? 0) > 0;
    if (flagged) return { state: 'failed', reason: '样本音频未通过内容审核，请更换样本后重试' };
    return { state: 'ready', voice: { remoteId: voiceId } };
  }

  /** MiniMax clones at once: a voice that clone answered for is ready. */
  async trainingState(remoteId: string): Promise<TrainingState> {
    return { state: 'ready', voice: { remoteId } };
  }

  async discard(voice: EngineVoice): Promise<void> {
    const body = JSON.stringify({ voice_type: 'voice_cloning', voice_id: voice.remoteId });
    const answer = await this.call('/v1/delete_voice', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (answer.code !== 0) throw minimaxError(answer.code);
  }

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    const plan = planMiniMaxScript(script);
    if (!plan.some((p) => 'text' in p)) throw new SpeechEngineError('文案不能为空');
    if (plan.length === 1 && 'text' in plan[0]!) {
      await fs.writeFile(output, await this.t2a(plan[0].text, voice, params));
      return wholeStretch(output, plan[0].text);
    }
    return withTempDir('aisa-minimax-', async (dir) => {
      const audio: AudioPart[] = [];
      for (const step of plan) {
        if ('silence' in step) audio.push({ silence: step.silence });
        else {
          const file = path.join(dir, `${audio.length}.mp3`);
          await fs.writeFile(file, await this.t2a(step.text, voice, params));
          audio.push({ file, text: step.text });
        }
      }
      return joinAudio(audio, output);
    });
  }

  private async t2a(text: string, voice: EngineVoice | undefined, params: SpeechParams): Promise<Buffer> {
    const emotion = minimaxEmotion(params.emotion);
    const body = {
      model: this.model,
      text,
      stream: false,
      voice_setting: { voice_id: voice?.remoteId || MINIMAX_DEFAULT_VOICE, ...minimaxVoiceSetting(params), ...(emotion ? { emotion } : {}) },
      audio_setting: { format: 'mp3', sample_rate: 32000, bitrate: 128000, channel: 1 },
      language_boost: minimaxLanguage(params.language),
      output_format: 'hex',
    };
    const answer = await this.call('/v1/t2a_v2', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (answer.code !== 0) throw minimaxError(answer.code);
    const hex = (answer.json.data as { audio?: unknown } | null | undefined)?.audio;
    if (typeof hex !== 'string' || !hex || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw new SpeechEngineError('语音服务返回的音频无效，请稍后重试', true);
    const audio = Buffer.from(hex, 'hex');
    if (!looksLikeMp3(audio)) throw new SpeechEngineError('语音服务返回的音频无效，请稍后重试', true);
    return audio;
  }

  private cloneFailure(code: number): TrainingState {
    if (SAMPLE_FAULTS.has(code)) return { state: 'failed', reason: ERRORS[code]![0] };
    throw minimaxError(code);
  }

  /** One call; HTTP errors throw, base_resp errors come back as `code` for the caller to judge. */
  private async call(pathname: string, init: RequestInit): Promise<MiniMaxAnswer> {
    const query = this.groupId ? `?GroupId=${encodeURIComponent(this.groupId)}` : '';
    const headers = { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${this.apiKey}` };
    const res = await providerFetch(`${this.baseUrl}${pathname}${query}`, { ...init, headers }, this.timeoutMs);
    if (res.status < 200 || res.status >= 300) throw httpError(res.status);
    const raw = res.body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new SpeechEngineError('语音服务返回了无法解析的应答，请稍后重试', true);
    }
    if (!json || typeof json !== 'object') throw new SpeechEngineError('语音服务返回了无法解析的应答，请稍后重试', true);
    const base = (json as { base_resp?: { status_code?: unknown } }).base_resp;
    const code = typeof base?.status_code === 'number' ? base.status_code : 0;
    return { json: json as Record<string, unknown>, raw, code };
  }
}
