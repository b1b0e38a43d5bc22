/**
 * fish-speech as HeyGem / Duix.Avatar ships it (the `guiji2025/fish-speech-ziming` container, `tools/api_server.py`,
 * port 18180 on the host) as a SpeechEngine.
 *
 * Protocol as Duix.Avatar's own client speaks it (github.com/duixcom/Duix-Avatar at 1328feb, 2026-04:
 * src/main/service/voice.js, src/main/api/tts.js, README_zh.md「开放 API」):
 * - training: POST /v1/preprocess_and_tran `{format, reference_audio, lang}`, where reference_audio is a path
 *   relative to the server's data volume (/code/data in the container; Duix.Avatar puts samples in its
 *   origin_audio/ folder). Answered `{code: 0, asr_format_audio_url, reference_audio_text}`: the server's prepared
 *   reference and what its ASR heard in it; any other code is a failure.
 * - synthesis: POST /v1/invoke `{speaker, text, format: "wav", topP, max_new_tokens, chunk_length,
 *   repetition_penalty, temperature, need_asr, streaming: false, is_fixed_seed, is_norm, reference_audio,
 *   reference_text}` with the training result, answered with WAV bytes.
 * The training result is the voice's EngineVoice (remoteId = asr_format_audio_url, profile.referenceText; profile.sample
 * names our copy of the sample) and goes with every synthesis. Discarding a voice deletes both files from the shared
 * volume (`server_dir` is that volume as the server names it, default /code/data). The server has no pause syntax and no speed, volume or pitch: see cloning-server.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CLONING_SERVER_MSG } from '../../../src/contract';
import { parseJsonBody } from '../provider-http';
import { planSpeech, postJson, serverSettings, serverStatusError, speakSteps, writeReference, type ServerSettings } from './cloning-server';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechEngine, type SpeechParams, type SpokenStretch, type TrainingState } from './speech-engine';

/** Characters per /v1/invoke: the server generates at most max_new_tokens per call, so long scripts go in parts. */
export const FISH_SPEECH_TEXT_LIMIT = 200;
/** The reference is sent with every synthesis: a minute of it is plenty and keeps each call fast. */
const REFERENCE_MAX_SECONDS = 60;
/** The folder of the data volume Duix.Avatar's client puts samples in. */
const SAMPLE_FOLDER = 'origin_audio';
/** The data volume as the container names it. */
const CONTAINER_DATA = '/code/data';
/** What discard deletes: files of the shape the client and the server write, one folder deep. */
const VOLUME_FILE = /^[\w-]+\/[\w-]+\.wav$/;

/** The sampling settings Duix.Avatar's client sends with every synthesis. */
const INVOKE_SETTINGS = {
  format: 'wav', topP: 0.7, max_new_tokens: 1024, chunk_length: 100, repetition_penalty: 1.2, temperature: 0.7,
  need_asr: false, streaming: false, is_fixed_seed: 0, is_norm: 1,
} as const;

export class FishSpeechEngine implements SpeechEngine {
  private readonly server: ServerSettings;
  private readonly dataDir: string;

  constructor(config: EngineConfig) {
    this.server = serverSettings(config);
    this.dataDir = (config.server_dir?.trim() || CONTAINER_DATA).replace(/\/+$/, '');
  }

  async clone(sample: CloneSample): Promise<TrainingState> {
    const relative = `${SAMPLE_FOLDER}/aisa-${sample.trainingKey}-${randomUUID().slice(0, 8)}.wav`;
    await writeReference(sample, this.server.shareDir, relative, { rate: 44_100, maxSeconds: REFERENCE_MAX_SECONDS });
    // A sample that did not become a voice is of no further use: none is left on the volume.
    const state = await this.train(relative).catch(async (err: unknown) => {
      await this.removeFile(relative);
      throw err;
    });
    if (state.state !== 'ready') await this.removeFile(relative);
    return state;
  }

  /** Deletes the voice's files from the volume: our sample and the server's prepared reference. */
  async discard(voice: EngineVoice): Promise<void> {
    const sample = voice.profile?.sample;
    if (typeof sample === 'string') await this.removeFile(sample);
    if (voice.remoteId.startsWith(`${this.dataDir}/`)) await this.removeFile(voice.remoteId.slice(this.dataDir.length + 1));
  }

  private async removeFile(relative: string): Promise<void> {
    if (VOLUME_FILE.test(relative)) await fs.rm(path.join(this.server.shareDir, relative), { force: true });
  }

  private async train(relative: string): Promise<TrainingState> {
    const res = await postJson(`${this.server.baseUrl}/v1/preprocess_and_tran`, { format: 'wav', reference_audio: relative, lang: 'zh' }, this.server.timeoutMs);
    const statusError = serverStatusError(res.status);
    if (statusError) throw statusError;
    const answer = parseJsonBody(res.body) as { code?: unknown; asr_format_audio_url?: unknown; reference_audio_text?: unknown } | undefined;
    if (res.status < 200 || res.status >= 300 || !answer || typeof answer.code !== 'number') throw new SpeechEngineError(CLONING_SERVER_MSG.badReply, res.status >= 200 && res.status < 300);
    // A refused sample is the voice's failure (no speech the ASR could read, an unreadable file), not the channel's.
    if (answer.code !== 0) return { state: 'failed', reason: CLONING_SERVER_MSG.trainingFailed };
    const reference = typeof answer.asr_format_audio_url === 'string' ? answer.asr_format_audio_url.trim() : '';
    const text = typeof answer.reference_audio_text === 'string' ? answer.reference_audio_text.trim() : '';
    if (!reference) throw new SpeechEngineError(CLONING_SERVER_MSG.badReply, true);
    if (!text) return { state: 'failed', reason: CLONING_SERVER_MSG.trainingFailed };
    return { state: 'ready', voice: { remoteId: reference, profile: { referenceText: text, sample: relative } } };
  }

  /** Training answers at once, so there is never a run to ask about. */
  async trainingState(): Promise<TrainingState> {
    return { state: 'failed', reason: CLONING_SERVER_MSG.trainingFailed };
  }

  async synthesize(script: string, voice: EngineVoice | undefined, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    const referenceText = voice?.profile?.referenceText;
    // fish-speech speaks only cloned voices here: a voice without its training result cannot be spoken.
    if (!voice?.remoteId || typeof referenceText !== 'string') throw new SpeechEngineError(CLONING_SERVER_MSG.referenceMissing);
    return speakSteps(planSpeech(script, FISH_SPEECH_TEXT_LIMIT), (text) => this.invoke(text, voice.remoteId, referenceText), params, output, false);
  }

  private async invoke(text: string, reference: string, referenceText: string): Promise<Buffer> {
    const body = { speaker: randomUUID(), text, ...INVOKE_SETTINGS, reference_audio: reference, reference_text: referenceText };
    const res = await postJson(`${this.server.baseUrl}/v1/invoke`, body, this.server.timeoutMs);
    const statusError = serverStatusError(res.status);
    if (statusError) throw statusError;
    if (res.status < 200 || res.status >= 300) throw new SpeechEngineError(CLONING_SERVER_MSG.refused);
    return res.body;
  }
}
