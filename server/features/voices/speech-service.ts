/**
 * Speaking with a voice, for every feature that needs speech (auditions, text-driven works, multi-scene
 * scenes): which voices a user may use, and synthesis through the voice's channel engine.
 */
import { MSG, VoiceStatus, stripEmotionMarks } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Db, Queryable } from '../../infra/db';
import type { EngineVoice, SpeechParams } from '../../engines/speech/speech-engine';
import { SpeechEngines, voiceChannel } from './speech-engines';

/** generate_status of a usable voice (1 training and 3 failed are VoiceStatus). */
export const READY = 2;

export interface VoiceRow {
  id: number;
  user_id: number | null;
  name: string;
  audio_key: string;
  sample_key: string | null;
  api: string;
  type: number;
  remained_times: number;
  generate_status: number;
  rate: number;
  volume: number;
  pitch: number;
  file_id: number | null;
  confirmed: number;
  reason: string;
  channel_name: string | null;
  version_name: string | null;
  engine_voice: EngineVoice | null;
}

export const VOICE_SELECT = `SELECT v.*, f.object_key AS sample_key, c.name AS channel_name, c.version_name
  FROM voices v LEFT JOIN files f ON f.id = v.file_id LEFT JOIN channels c ON c.kind = 'voice' AND c.api = v.api`;

export class SpeechService {
  readonly engines = new SpeechEngines();

  constructor(private readonly db: Db) {}

  /** A voice the user may speak with (their own or a public one), trained; else the spec's message. */
  async usableVoice(q: Queryable, id: number, userId: number): Promise<VoiceRow> {
    const { rows } = await q.query<VoiceRow>(`${VOICE_SELECT} WHERE v.id = $1 AND (v.user_id = $2 OR v.user_id IS NULL)`, [id, userId]);
    const voice = rows[0];
    if (!voice) throw new ApiError(MSG.notFound);
    if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
    if (Number(voice.generate_status) === VoiceStatus.Failed) throw new ApiError(MSG.voiceFailed);
    return voice;
  }

  /** The same, for a job: undefined when the voice is gone or no longer usable. */
  async readyVoice(id: number | null, userId: number): Promise<VoiceRow | undefined> {
    const { rows } = await this.db.query<VoiceRow>(`${VOICE_SELECT} WHERE v.id = $1 AND (v.user_id = $2 OR v.user_id IS NULL) AND v.generate_status = ${READY}`, [id, userId]);
    return rows[0];
  }

  /** Speaks a script with the voice's engine into an mp3 at `output`. */
  async synthesize(voice: VoiceRow, text: string, params: SpeechParams, output: string): Promise<void> {
    const channel = await voiceChannel(this.db, voice.api);
    const engine = this.engines.for(channel);
    // Emotion marks are MiniMax's grammar; any other engine would read them out.
    const script = channel?.engine === 'minimax' ? text : stripEmotionMarks(text);
    await engine.synthesize(script, voice.engine_voice ?? undefined, params, output);
  }

  close(): Promise<void> {
    return this.engines.close();
  }
}
