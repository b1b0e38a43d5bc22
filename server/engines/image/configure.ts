/**
 * Where the image engine's configuration lives: the operator's settings, written by `npm run admin -- image set …`
 * (image_engine, image_base_url, image_api_key, image_secret_key, image_model, image_timeout_ms). Without an engine
 * or its keys text to image is not configured, and the screen says so.
 */
import type { ImageEngine } from './image-engine';
import { KlingImages, type KlingImagesConfig } from './kling-images';
import { OpenAiCompatibleImages, type OpenAiImagesConfig } from './openai-images';

export const IMAGE_SETTING_KEYS = {
  engine: 'image_engine', baseUrl: 'image_base_url', apiKey: 'image_api_key', secretKey: 'image_secret_key', model: 'image_model', timeoutMs: 'image_timeout_ms',
} as const;

/** A whole generation may take a minute or two on a busy provider (gpt-image-1 at high quality, Kling's queue). */
export const DEFAULT_IMAGE_TIMEOUT_MS = 180_000;

export const IMAGE_DEFAULTS = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-image-1' },
  siliconflow: { baseUrl: 'https://api.siliconflow.cn/v1', model: 'Kwai-Kolors/Kolors' },
  kling: { baseUrl: 'https://api-beijing.klingai.com', model: 'kling-v1' },
} as const;
export type ImageEngineName = keyof typeof IMAGE_DEFAULTS;

export type ImageEngineConfig = ({ engine: 'openai' | 'siliconflow' } & OpenAiImagesConfig) | ({ engine: 'kling' } & KlingImagesConfig);

export function resolveImageConfig(settings: Record<string, string | undefined>): ImageEngineConfig | null {
  const pick = (key: string) => settings[key]?.trim() || '';
  const engine = pick(IMAGE_SETTING_KEYS.engine);
  const apiKey = pick(IMAGE_SETTING_KEYS.apiKey);
  if (!(engine in IMAGE_DEFAULTS) || !apiKey) return null;
  const name = engine as ImageEngineName;
  const timeoutMs = Number(pick(IMAGE_SETTING_KEYS.timeoutMs));
  const common = {
    baseUrl: pick(IMAGE_SETTING_KEYS.baseUrl) || IMAGE_DEFAULTS[name].baseUrl,
    model: pick(IMAGE_SETTING_KEYS.model) || IMAGE_DEFAULTS[name].model,
    timeoutMs: timeoutMs > 0 ? timeoutMs : DEFAULT_IMAGE_TIMEOUT_MS,
  };
  if (name !== 'kling') return { engine: name, dialect: name, apiKey, ...common };
  const secretKey = pick(IMAGE_SETTING_KEYS.secretKey);
  return secretKey ? { engine: name, accessKey: apiKey, secretKey, ...common } : null;
}

export function imageEngineFor(config: ImageEngineConfig): ImageEngine {
  return config.engine === 'kling' ? new KlingImages(config) : new OpenAiCompatibleImages(config);
}
