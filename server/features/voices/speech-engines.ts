/** Which engine speaks for a voice channel: the offline engine, or a provider with the operator's keys. */
import { MSG } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { OfflineSpeechEngine } from '../../engines/speech/offline/offline-engine';
import { createProviderEngine } from '../../engines/speech/providers';
import { SpeechEngineError, type EngineConfig, type SpeechEngine } from '../../engines/speech/speech-engine';

export const VOICE_ENGINES = ['local', 'fish', 'minimax', 'none'] as const;
export type VoiceEngineName = (typeof VOICE_ENGINES)[number];

export interface VoiceChannelRow {
  api: string;
  name: string;
  description: string;
  version_name: string;
  credits: number;
  free_times: number;
  train_times: number;
  upload_tips: string;
  language: string;
  enabled: boolean;
  engine: VoiceEngineName;
  config: EngineConfig;
}

export async function voiceChannel(q: Queryable, api: string): Promise<VoiceChannelRow | undefined> {
  const { rows } = await q.query<VoiceChannelRow>(`SELECT * FROM channels WHERE kind = 'voice' AND api = $1`, [api]);
  return rows[0];
}

export class SpeechEngines {
  private offline?: OfflineSpeechEngine;

  /** The engine of a channel; a channel without a working engine is refused with a message the user can read. */
  for(channel: VoiceChannelRow | undefined): SpeechEngine {
    if (!channel) throw new SpeechEngineError(MSG.channelUnavailable);
    if (channel.engine === 'local') return (this.offline ??= new OfflineSpeechEngine());
    if (channel.engine === 'fish' || channel.engine === 'minimax') return createProviderEngine(channel.engine, channel.config ?? {});
    throw new SpeechEngineError(MSG.channelUnavailable);
  }

  async close(): Promise<void> {
    await this.offline?.close();
  }
}

/** Where each provider's API lives unless the operator says otherwise. */
export const PROVIDER_BASE_URLS: Record<'fish' | 'minimax', string> = {
  fish: 'https://api.fish.audio',
  minimax: 'https://api.minimaxi.com',
};
