/**
 * Fish Audio (https://api.fish.audio) as a SpeechEngine.
 *
 * - clone: POST /model (multipart: type=tts, title, train_mode=fast, visibility=private, voices=<file>),
 *   answered with the model entity `{_id, state}`; state is created | training | trained | failed.
 * - trainingState: GET /model/{id}, the same entity.
 * - discard: DELETE /model/{id} (a model already gone, 404, is no error).
 * - synthesize: POST /v1/tts (JSON: text, reference_id, format=mp3, prosody {speed, volume dB}; the `model`
 *   header names the TTS model), answered with the audio bytes.
 * Errors are HTTP statuses with `{message, status}`; 429 and 5xx are worth retrying.
 *
 * Fish has no pause markup, so a script is spoken one text segment at a time and joined with real silence.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { splitScript } from '../../../src/contract/script';
import { parseJsonBody } from '../provider-http';
import { CloudConnection, readSample, providerFetch, withTempDir, joinAudio, looksLikeMp3, clamp, wholeStretch, type AudioPart } from './provider-shared';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechEngine, type SpeechParams, type SpokenStretch, type TrainingState } from './speech-engine';

/** The synthesis model sent in the `model` header unless the channel names another. */
export const FISH_DEFAULT_MODEL = 's2-pro';

interface FishModel {
  _id?: unknown;
  id?: unknown;
  state?: unknown;
}

const FISH_FAILED_REASON = '声音模型训练失败，请更换清晰、无背景噪音的样本后重试';

/** A Fish HTTP error as the user should read it. */
function fishError(status: number, during: 'clone' | 'state' | 'tts'): SpeechEngineError {
  if (status === 401) return new SpeechEngineError('语音服务接口密钥无效，请联系管理员检查渠道配置');
  if (status === 402) return new SpeechEngineError('语音服务账户余额不足，请联系管理员');
  if (status === 403) return new SpeechEngineError('语音服务拒绝了此次请求（无权访问），请联系管理员');
  if (status === 404) return new SpeechEngineError(during === 'tts' ? '声音模型不存在或已被删除，请重新克隆声音' : '声音模型不存在或已被删除');
  if (status === 429) return new SpeechEngineError('语音服务请求过于频繁，请稍后重试', true);
  if (status >= 500) return new SpeechEngineError('语音服务暂时不可用，请稍后重试', true);
  if (during === 'clone') return new SpeechEngineError('语音服务拒绝了声音样本，请更换样本后重试');
  if (during === 'tts') return new SpeechEngineError('语音服务拒绝了合成请求，请检查文案或声音后重试');
  return new SpeechEngineError(`语音服务返回错误（HTTP ${status}）`);
}

export class FishAudioEngine extends CloudConnection implements SpeechEngine {
  constructor(config: EngineConfig) {
    super(config, FISH_DEFAULT_MODEL);
  }

  async clone(sample: CloneSample): Promise<TrainingState> {
    const form = new FormData();
    form.append('type', 'tts');
    form.append('title', sample.name.trim() || '我的声音');
    // fast: the model is usable as soon as Fish has processed the sample; private: only this account sees it.
    form.append('train_mode', 'fast');
    form.append('visibility', 'private');
    form.append('voices', await readSample(sample), `sample.${sample.ext}`);
    const res = await providerFetch(`${this.baseUrl}/model`, { method: 'POST', headers: this.auth(), body: form }, this.timeoutMs);
    if (res.status < 200 || res.status >= 300) {
      // A refused sample is the voice's failure, not the channel's: the user can fix it with another sample.
      if (res.status === 400 || res.status === 422) return { state: 'failed', reason: '语音服务拒绝了声音样本，请更换清晰的样本后重试' };
      throw fishError(res.status, 'clone');
    }
    return this.toState(parseJsonBody(res.body) as FishModel | undefined);
  }

  async trainingState(remoteId: string): Promise<TrainingState> {
    const res = await providerFetch(`${this.baseUrl}/model/${encodeURIComponent(remoteId)}`, { method: 'GET', headers: this.auth() }, this.timeoutMs);
    if (res.status === 404) return { state: 'failed', reason: '声音模型不存在或已被删除，请重新克隆' };
    if (res.status < 200 || res.status >= 300) throw fishError(res.status, 'state');
    return this.toState(parseJsonBody(res.body) as FishModel | undefined);
  }

  async discard(voice: EngineVoice): Promise<void> {
    const res = await providerFetch(`${this.baseUrl}/model/${encodeURIComponent(voice.remoteId)}`, { method: 'DELETE', headers: this.auth() }, this.timeoutMs);
    if (res.status !== 404 && (res.status < 200 || res.status >= 300)) throw fishError(res.status, 'state');
  }

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    const parts = splitScript(script);
    if (!parts.some((p) => p.kind === 'text' && p.text.trim())) throw new SpeechEngineError('文案不能为空');
    const onlyText = parts.length === 1 && parts[0]!.kind === 'text';
    if (onlyText) {
      await fs.writeFile(output, await this.tts(script, voice, params));
      return wholeStretch(output, script);
    }
    return withTempDir('aisa-fish-', async (dir) => {
      const audio: AudioPart[] = [];
      for (const part of parts) {
        if (part.kind === 'pause') {
          if (part.seconds > 0) audio.push({ silence: part.seconds });
        } else if (part.text.trim()) {
          const file = path.join(dir, `${audio.length}.mp3`);
          await fs.writeFile(file, await this.tts(part.text, voice, params));
          audio.push({ file, text: part.text });
        }
      }
      return joinAudio(audio, output);
    });
  }

  /** One POST /v1/tts; answers the mp3 bytes. */
  private async tts(text: string, voice: EngineVoice | undefined, params: SpeechParams): Promise<Buffer> {
    const gain = clamp(params.volume, 0.1, 3, 1);
    const body: Record<string, unknown> = {
      text,
      format: 'mp3',
      mp3_bitrate: 128,
      normalize: true,
      latency: 'normal',
      // Fish takes speed as a multiplier and volume in dB; the product's volume is a linear gain. Pitch has no
      // Fish counterpart and is left out.
      prosody: { speed: clamp(params.rate, 0.5, 2, 1), volume: Math.round(20 * Math.log10(gain) * 100) / 100 },
    };
    if (voice?.remoteId) body.reference_id = voice.remoteId;
    const res = await providerFetch(
      `${this.baseUrl}/v1/tts`,
      { method: 'POST', headers: { ...this.auth(), 'content-type': 'application/json', model: this.model }, body: JSON.stringify(body) },
      this.timeoutMs,
    );
    if (res.status < 200 || res.status >= 300) throw fishError(res.status, 'tts');
    if (!looksLikeMp3(res.body)) throw new SpeechEngineError('语音服务返回的音频无效，请稍后重试', true);
    return res.body;
  }

  private toState(model: FishModel | undefined): TrainingState {
    const id = typeof model?._id === 'string' ? model._id : typeof model?.id === 'string' ? model.id : '';
    if (!id) throw new SpeechEngineError('语音服务返回的声音模型无效，请稍后重试', true);
    switch (model?.state) {
      case 'trained':
        return { state: 'ready', voice: { remoteId: id } };
      case 'created':
      case 'training':
        return { state: 'training', voice: { remoteId: id } };
      case 'failed':
        return { state: 'failed', reason: FISH_FAILED_REASON };
      default:
        throw new SpeechEngineError('语音服务返回了无法识别的训练状态');
    }
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}` };
  }
}
