/**
 * GPT-SoVITS's API server (`python api_v2.py -a 0.0.0.0 -p 9880`) as a SpeechEngine: zero-shot cloning from a
 * 3–10 s reference clip, with whatever GPT and SoVITS weights the operator loaded on the server.
 *
 * Protocol as api_v2.py serves it (github.com/RVC-Boss/GPT-SoVITS at 48b1a0169a28582a8984402f82cf438d3bfa6aca,
 * 2026-08-18; GPT_SoVITS/TTS_infer_pack/TTS.py of the same commit for the checks behind it):
 * - GET /set_refer_audio?refer_audio_path= loads a reference (200 `{"message": "success"}`; 400
 *   `{"message": "set refer audio failed", "Exception"}` when the file is missing or outside 3–10 s). "Training" is
 *   placing the clip in the shared folder and having the server load it once, so a bad clip fails the clone.
 * - POST /tts `{text, text_lang, ref_audio_path, prompt_text, prompt_lang, text_split_method, batch_size,
 *   speed_factor, fragment_interval, media_type: "wav", streaming_mode: false, …}` → WAV bytes (200) or 400
 *   `{"message", "Exception"?}`. text_lang / prompt_lang are v2's `auto, auto_yue, en, zh, ja, yue, ko, all_*`
 *   (v1: auto, en, zh, ja, all_zh, all_ja). An empty prompt_text is its reference-free mode (v1, v2, v2Pro; the v3/v4
 *   SoVITS models refuse it), since we have no transcript of the clip.
 * - /set_gpt_weights and /set_sovits_weights switch the server's models for every caller; the operator chooses
 *   the weights on the server, so this engine never calls them.
 * ref_audio_path is a path on the server's disk: the clip is written to our mount of a shared folder (`share_dir`)
 * and named by that folder's path on the server (`server_dir`, default the same path). Speed is the server's
 * speed_factor; pauses, volume and pitch are ours (cloning-server.ts).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CLONING_SERVER_MSG } from '../../../src/contract';
import { parseJsonBody } from '../provider-http';
import { getUrl, planSpeech, postJson, serverSettings, serverStatusError, speakSteps, writeReference, type ServerSettings } from './cloning-server';
import { clamp } from './provider-shared';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechEngine, type SpeechParams, type SpokenStretch, type TrainingState } from './speech-engine';

/** Characters per /tts call (the server cuts further itself, cut5 = at punctuation). */
export const GPT_SOVITS_TEXT_LIMIT = 300;
/** The server refuses references outside 3–10 s (TTS.py `_set_prompt_semantic`). */
const REFERENCE_SECONDS = { min: 3, max: 9.5 } as const;
const REFERENCE_FOLDER = 'aisa-voices';

/** Our language values (channel cascaders, common codes) in api_v2's text_lang words. */
const LANGUAGES: Record<string, string> = {
  zh: 'zh', cmn: 'zh', 'zh-cn': 'zh', 中文: 'zh', 普通话: 'zh', yue: 'yue', 'zh-hk': 'yue', 粤语: 'yue',
  en: 'en', 'en-us': 'en', 'en-gb': 'en', 英语: 'en', ja: 'ja', 日语: 'ja', ko: 'ko', 韩语: 'ko',
};

export function gptSovitsLanguage(language: string): string {
  return LANGUAGES[language.trim().toLowerCase()] ?? 'auto';
}

export class GptSovitsEngine implements SpeechEngine {
  private readonly server: ServerSettings;
  private readonly serverDir: string;

  constructor(config: EngineConfig) {
    this.server = serverSettings(config);
    this.serverDir = config.server_dir?.trim() || this.server.shareDir;
  }

  async clone(sample: CloneSample): Promise<TrainingState> {
    const name = `aisa-${sample.trainingKey}-${randomUUID().slice(0, 8)}.wav`;
    const seconds = await writeReference(sample, this.server.shareDir, path.join(REFERENCE_FOLDER, name), {
      rate: 32_000, maxSeconds: REFERENCE_SECONDS.max, trimLeadingSilence: true,
    });
    // A clip that did not become a voice is of no further use: none is left in the shared folder.
    const state = await this.load(name, seconds).catch(async (err: unknown) => {
      await this.removeClip(name);
      throw err;
    });
    if (state.state !== 'ready') await this.removeClip(name);
    return state;
  }

  /** Has the server load the clip once ("training"). */
  private async load(name: string, seconds: number): Promise<TrainingState> {
    if (seconds < REFERENCE_SECONDS.min) return { state: 'failed', reason: CLONING_SERVER_MSG.referenceTooShort };
    const reference = path.posix.join(this.serverDir.replace(/\\/g, '/'), REFERENCE_FOLDER, name);
    const res = await getUrl(`${this.server.baseUrl}/set_refer_audio?refer_audio_path=${encodeURIComponent(reference)}`, this.server.timeoutMs);
    const statusError = serverStatusError(res.status);
    if (statusError) throw statusError;
    // 400: the server could not load the clip (unreadable, or outside what it accepts): the sample's failure.
    if (res.status === 400) return { state: 'failed', reason: CLONING_SERVER_MSG.trainingFailed };
    if (res.status < 200 || res.status >= 300) throw new SpeechEngineError(CLONING_SERVER_MSG.badReply);
    return { state: 'ready', voice: { remoteId: reference } };
  }

  private removeClip(name: string): Promise<void> {
    return fs.rm(path.join(this.server.shareDir, REFERENCE_FOLDER, name), { force: true });
  }

  /** Loading the reference answers at once, so there is never a run to ask about. */
  async trainingState(): Promise<TrainingState> {
    return { state: 'failed', reason: CLONING_SERVER_MSG.trainingFailed };
  }

  /** The clone is our clip in the shared folder (the server keeps no copy): deleting it ends the voice. */
  async discard(voice: EngineVoice): Promise<void> {
    const folder = `${path.posix.join(this.serverDir.replace(/\\/g, '/'), REFERENCE_FOLDER)}/`;
    const name = voice.remoteId.startsWith(folder) ? voice.remoteId.slice(folder.length) : '';
    // Only a clip this engine wrote: a name straight inside its folder.
    if (/^aisa-[\w-]+\.wav$/.test(name)) await this.removeClip(name);
  }

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    if (!voice?.remoteId) throw new SpeechEngineError(CLONING_SERVER_MSG.referenceMissing);
    const textLang = gptSovitsLanguage(params.language);
    const speed = Math.round(clamp(params.rate, 0.5, 2, 1) * 100) / 100;
    return speakSteps(planSpeech(script, GPT_SOVITS_TEXT_LIMIT), (text) => this.tts(text, textLang, voice.remoteId, speed), params, output, true);
  }

  private async tts(text: string, textLang: string, reference: string, speed: number): Promise<Buffer> {
    const body = {
      text, text_lang: textLang, ref_audio_path: reference, prompt_text: '', prompt_lang: 'auto',
      text_split_method: 'cut5', batch_size: 1, speed_factor: speed, fragment_interval: 0.3, media_type: 'wav', streaming_mode: false,
    };
    const res = await postJson(`${this.server.baseUrl}/tts`, body, this.server.timeoutMs);
    const statusError = serverStatusError(res.status);
    if (statusError) throw statusError;
    if (res.status === 400) {
      const answer = parseJsonBody(res.body) as { Exception?: unknown } | undefined;
      // TTS.py raises "<path> not exists" when the reference left the server's disk.
      if (typeof answer?.Exception === 'string' && answer.Exception.includes('not exists')) throw new SpeechEngineError(CLONING_SERVER_MSG.referenceMissing);
      throw new SpeechEngineError(CLONING_SERVER_MSG.refused);
    }
    if (res.status < 200 || res.status >= 300) throw new SpeechEngineError(CLONING_SERVER_MSG.badReply);
    return res.body;
  }
}
