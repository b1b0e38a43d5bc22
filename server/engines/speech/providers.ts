/** The speech engines that call a provider's API or a self-hosted server, chosen by a channel's configured engine name. */
import { FishAudioEngine } from './fish-audio';
import { FishSpeechEngine } from './fish-speech';
import { GptSovitsEngine } from './gpt-sovits';
import { MSG_NOT_CONFIGURED } from './provider-shared';
import { MiniMaxEngine } from './minimax';
import { SpeechEngineError, type EngineConfig, type SpeechEngine } from './speech-engine';

/** Cloud providers (keys) and self-hosted cloning TTS servers (an address and a shared folder). */
export const CLOUD_ENGINES = ['fish', 'minimax'] as const;
export const CLONING_SERVER_ENGINES = ['fishspeech', 'gptsovits'] as const;
export type ProviderEngineName = (typeof CLOUD_ENGINES)[number] | (typeof CLONING_SERVER_ENGINES)[number];

export const isProviderEngine = (engine: string): engine is ProviderEngineName => (CLOUD_ENGINES as readonly string[]).includes(engine) || isCloningServer(engine);
export const isCloningServer = (engine: string): engine is (typeof CLONING_SERVER_ENGINES)[number] => (CLONING_SERVER_ENGINES as readonly string[]).includes(engine);

export function createProviderEngine(engine: ProviderEngineName, config: EngineConfig): SpeechEngine {
  // Self-hosted servers check their own settings (they need no key).
  if (engine === 'fishspeech') return new FishSpeechEngine(config);
  if (engine === 'gptsovits') return new GptSovitsEngine(config);
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
