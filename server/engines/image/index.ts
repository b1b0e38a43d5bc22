/**
 * Text to image: the engine the operator configured (configure.ts: OpenAI-compatible images, SiliconFlow or Kling),
 * and the download of a made image the engine answers by URL.
 */
export { IMAGE_DEFAULTS, IMAGE_SETTING_KEYS, imageEngineFor, resolveImageConfig, type ImageEngineConfig, type ImageEngineName } from './configure';
export { ImageEngineError, type ImageEngine, type ImageRatio, type MadeImage } from './image-engine';
export { downloadWithDeadline, ProviderDownloadTooLarge, ProviderUnreachable } from '../provider-http';
