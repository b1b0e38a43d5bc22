/**
 * Where the image engine's configuration lives: the operator's settings, written by `npm run admin -- image engine …`
 * (image_engine, image_base_url, image_api_key, image_model, image_timeout_ms). Without an engine or an API key
 * text to image is not configured, and the screen says so.
 */
import type { ImageEngineKind } from '../../../src/contract';
import { IMAGE_DEFAULTS, type OpenAiImagesConfig } from './openai-images';

export const IMAGE_SETTING_KEYS = {
  engine: 'image_engine', baseUrl: 'image_base_url', apiKey: 'image_api_key', model: 'image_model', timeoutMs: 'image_timeout_ms',
} as const;

/** A whole generation may take a minute or two on a busy provider (gpt-image-1 at high quality). */
export const DEFAULT_IMAGE_TIMEOUT_MS = 180_000;

export function resolveImageConfig(settings: Record<string, string | undefined>): OpenAiImagesConfig | null {
  const pick = (key: string) => settings[key]?.trim() || '';
  const engine = pick(IMAGE_SETTING_KEYS.engine) as ImageEngineKind | '';
  const apiKey = pick(IMAGE_SETTING_KEYS.apiKey);
  if ((engine !== 'openai' && engine !== 'siliconflow') || !apiKey) return null;
  const timeoutMs = Number(pick(IMAGE_SETTING_KEYS.timeoutMs));
  return {
    dialect: engine,
    apiKey,
    baseUrl: pick(IMAGE_SETTING_KEYS.baseUrl) || IMAGE_DEFAULTS[engine].baseUrl,
    model: pick(IMAGE_SETTING_KEYS.model) || IMAGE_DEFAULTS[engine].model,
    timeoutMs: timeoutMs > 0 ? timeoutMs : DEFAULT_IMAGE_TIMEOUT_MS,
  };
}
