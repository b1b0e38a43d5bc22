/**
 * Speaking with a voice, for every feature that needs speech (auditions, text-driven works, multi-scene
 * scenes): which voices a user may use, and synthesis through the voice's channel engine.
 */
import { MSG, VoiceStatus, stripEmotionMarks } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Db, Queryable } from '../../infra/db';
import { SpeechEngines, type SpeechEngine, type SpeechParams, type SpokenStretch } from '../../engines/speech';
import type { SpeakableVoice, Speech } from '../../app-context';
import { VoicesRepository, type VoiceChannelRow, type VoiceRow } from './voices.repository';

export class SpeechService implements Speech {
  readonly engines = new SpeechEngines();

  constructor(private readonly db: Db) {}

  /** A voice the user may speak with (their own or a public one), trained; else the spec's message. */
  async usableVoice(q: Queryable, id: number, userId: number): Promise<VoiceRow> {
    const voice = await new VoicesRepository(q).speakableVoice(id, userId);
    if (!voice) throw new ApiError(MSG.notFound);
    if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
    if (Number(voice.generate_status) === VoiceStatus.Failed) throw new ApiError(MSG.voiceFailed);
    return voice;
  }

  /** The same, for a job: undefined when the voice is gone or no longer usable. */
  readyVoice(id: number | null, userId: number): Promise<VoiceRow | undefined> {
    return new VoicesRepository(this.db).readyVoice(id, userId);
  }

  /** A voice channel and the engine that works for it (refused with a readable SpeechEngineError). */
  async channelEngine(api: string): Promise<{ channel: VoiceChannelRow; engine: SpeechEngine }> {
    const channel = await new VoicesRepository(this.db).voiceChannel(api);
    const engine = this.engines.for(channel);
    return { channel: channel!, engine };
  }

  /** Speaks a script with the voice's engine into an mp3 at `output`; answers where its stretches landed. */
  async synthesize(voice: SpeakableVoice, text: string, params: SpeechParams, output: string): Promise<SpokenStretch[]> {
    const { channel, engine } = await this.channelEngine(voice.api);
    // Emotion marks are MiniMax's grammar; any other engine would read them out.
    const script = channel.engine === 'minimax' ? text : stripEmotionMarks(text);
    return engine.synthesize(script, voice.engine_voice ?? undefined, params, output);
  }

  close(): Promise<void> {
    return this.engines.close();
  }
}
