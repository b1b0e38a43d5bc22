/** Which engine speaks for a voice channel: the offline engine, a provider with the operator's keys, or a self-hosted cloning server. */
import { MSG } from '../../../src/contract';
import { OfflineSpeechEngine } from './offline/offline-engine';
import { createProviderEngine, isProviderEngine } from './providers';
import { SpeechEngineError, type EngineConfig, type SpeechEngine } from './speech-engine';

/** What a voice channel says of its engine: its name and the operator's settings of it. */
export interface SpeechChannel {
  engine: string;
  config: EngineConfig | null;
}

export class SpeechEngines {
  private offline?: OfflineSpeechEngine;

  /** The engine of a channel; a channel without a working engine is refused with a message the user can read. */
  for(channel: SpeechChannel | undefined): SpeechEngine {
    if (!channel) throw new SpeechEngineError(MSG.channelUnavailable);
    if (channel.engine === 'local') return (this.offline ??= new OfflineSpeechEngine());
    if (isProviderEngine(channel.engine)) return createProviderEngine(channel.engine, channel.config ?? {});
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
