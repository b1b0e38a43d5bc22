/**
 * Where video generation's configuration comes from: the operator's settings (`npm run admin -- videogen kling …`,
 * which writes kling_base_url, kling_access_key, kling_secret_key, kling_model, video_pro_enabled and
 * video_image_engine). Text to video needs Kling; image to video runs on the offline camera motion unless the
 * operator picks Kling for it (and Kling is configured).
 */
import { LIMITS, type VideoEngine, type VideoEngines } from '../../../src/contract';
import { DEFAULT_KLING_BASE_URL, DEFAULT_KLING_MODEL, type KlingConfig } from './kling';

export const VIDEO_SETTING_KEYS = {
  baseUrl: 'kling_base_url', accessKey: 'kling_access_key', secretKey: 'kling_secret_key', model: 'kling_model',
  proEnabled: 'video_pro_enabled', imageEngine: 'video_image_engine', localPercent: 'videogen_local_percent',
} as const;

export function resolveKlingConfig(settings: Record<string, string | undefined>): KlingConfig | null {
  const pick = (key: string) => settings[key]?.trim() ?? '';
  const accessKey = pick(VIDEO_SETTING_KEYS.accessKey);
  const secretKey = pick(VIDEO_SETTING_KEYS.secretKey);
  if (!accessKey || !secretKey) return null;
  return { accessKey, secretKey, baseUrl: pick(VIDEO_SETTING_KEYS.baseUrl) || DEFAULT_KLING_BASE_URL, model: pick(VIDEO_SETTING_KEYS.model) || DEFAULT_KLING_MODEL };
}

/** Each screen's engine and whether 高品质 may be chosen there (only on Kling, when the operator opened it). */
export function videoEngines(settings: Record<string, string | undefined>): VideoEngines {
  const kling = resolveKlingConfig(settings) !== null;
  const proOpen = ['1', 'true'].includes(settings[VIDEO_SETTING_KEYS.proEnabled]?.trim() ?? '');
  const image: VideoEngine = kling && settings[VIDEO_SETTING_KEYS.imageEngine]?.trim() === 'kling' ? 'kling' : 'local';
  const pro = (engine: VideoEngine | null) => (engine === 'kling' && proOpen ? 1 : 0) as 0 | 1;
  const asked = Number(settings[VIDEO_SETTING_KEYS.localPercent]);
  const localPercent = Number.isInteger(asked) && asked >= 1 && asked <= 100 ? asked : LIMITS.videoLocalPercent;
  const percent = (engine: VideoEngine | null) => (engine === 'local' ? localPercent : 100);
  const text = kling ? 'kling' : null;
  return { text: { engine: text, pro: pro(text), percent: percent(text) }, image: { engine: image, pro: pro(image), percent: percent(image) } };
}
