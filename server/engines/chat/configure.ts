/**
 * Where the chat engine's configuration comes from, one fact each: the environment (CHAT_BASE_URL, CHAT_API_KEY,
 * CHAT_MODEL, CHAT_REASONING_MODEL, CHAT_TIMEOUT_MS, read by server/infra/config.ts) wins; otherwise the operator's settings
 * (`npm run admin -- site set chat_base_url=… chat_api_key=… chat_model=… chat_reasoning_model=…`); otherwise the defaults of
 * openai-compatible.ts. Without an API key the engine is not configured.
 */
import type { ChatEnvConfig } from '../../infra/config';
import { DEFAULT_CHAT_BASE_URL, DEFAULT_CHAT_MODEL, DEFAULT_CHAT_TIMEOUT_MS, DEFAULT_REASONING_MODEL, type OpenAiCompatibleConfig } from './openai-compatible';

/** The operator settings read here (listed in OPERATOR_SETTINGS of the contract). */
export const CHAT_SETTING_KEYS = {
  baseUrl: 'chat_base_url', apiKey: 'chat_api_key', model: 'chat_model', reasoningModel: 'chat_reasoning_model',
} as const;

export function resolveChatConfig(env: ChatEnvConfig | undefined, settings: Record<string, string | undefined>): OpenAiCompatibleConfig | null {
  const pick = (fromEnv: string | undefined, key: string) => fromEnv?.trim() || settings[key]?.trim() || '';
  const apiKey = pick(env?.apiKey, CHAT_SETTING_KEYS.apiKey);
  if (!apiKey) return null;
  return {
    apiKey,
    baseUrl: pick(env?.baseUrl, CHAT_SETTING_KEYS.baseUrl) || DEFAULT_CHAT_BASE_URL,
    model: pick(env?.model, CHAT_SETTING_KEYS.model) || DEFAULT_CHAT_MODEL,
    reasoningModel: pick(env?.reasoningModel, CHAT_SETTING_KEYS.reasoningModel) || DEFAULT_REASONING_MODEL,
    timeoutMs: env?.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS,
  };
}
