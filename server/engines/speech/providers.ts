/** The speech engines that call a provider's API, chosen by a channel's configured engine name. */
import { FishAudioEngine } from './fish-audio';
import { MSG_NOT_CONFIGURED } from './provider-http';
import { MiniMaxEngine } from './minimax';
import { SpeechEngineError, type EngineConfig, type SpeechEngine } from './speech-engine';

export type ProviderEngineName = 'fish' | 'minimax';

export function createProviderEngine(engine: ProviderEngineName, config: EngineConfig): SpeechEngine {
  if (!config.api_key?.trim() || !config.base_url?.trim()) throw new SpeechEngineError(MSG_NOT_CONFIGURED);
  switch (engine) {
    case 'fish':
      return new FishAudioEngine(config);
    case 'minimax':
      return new MiniMaxEngine(config);
    default:
      // The name comes from the database; an unknown one is a configuration mistake, not a user's.
      throw new SpeechEngineError('该渠道的语音引擎配置有误，请联系管理员');
  }
}
