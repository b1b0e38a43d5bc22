/**
 * Music generation: MiniMax (music_generation, lyrics written by lyrics_generation) when the operator turned it on
 * (`npm run admin -- music set --engine minimax …`, settings music_engine, music_api_key, music_base_url,
 * music_model), or none. Without its own key MiniMax uses the voice channel mm's key, base URL and group.
 */
import type { EngineConfig } from '../speech';
import { MINIMAX_MUSIC_DEFAULT_BASE_URL, MINIMAX_MUSIC_DEFAULT_MODEL, MiniMaxMusic, type MiniMaxMusicConfig } from './minimax-music';

export { MiniMaxMusic, MusicEngineError, MUSIC_RESULT_MAX_BYTES, minimaxMusicReason, type MiniMaxMusicConfig, type MusicRequest } from './minimax-music';

export const MUSIC_SETTING_KEYS = { engine: 'music_engine', baseUrl: 'music_base_url', apiKey: 'music_api_key', model: 'music_model', credits: 'music_credits' } as const;

/** What the music feature asks of an engine. */
export interface MusicEngine {
  writeLyrics(prompt: string, title: string): Promise<string>;
  generate(request: { prompt: string; lyrics: string; instrumental: boolean }, dir: string): Promise<string>;
}

/** Where the key comes from: the music settings, the voice channel mm, or nowhere (generation is off). */
export type MusicKeySource = 'own' | 'voice-channel' | 'none';

/** The MiniMax configuration the settings make, and where its key came from; null when generation is off. */
export function resolveMusicConfig(
  settings: Record<string, string | undefined>,
  voiceChannel: EngineConfig | null | undefined,
): { config: MiniMaxMusicConfig; key: Exclude<MusicKeySource, 'none'> } | null {
  const pick = (key: string) => settings[key]?.trim() ?? '';
  if (pick(MUSIC_SETTING_KEYS.engine) !== 'minimax') return null;
  const own = pick(MUSIC_SETTING_KEYS.apiKey);
  const shared = voiceChannel?.api_key?.trim() ?? '';
  if (!own && !shared) return null;
  const model = pick(MUSIC_SETTING_KEYS.model) || MINIMAX_MUSIC_DEFAULT_MODEL;
  const baseUrl = pick(MUSIC_SETTING_KEYS.baseUrl) || (own ? '' : voiceChannel?.base_url?.trim() ?? '') || MINIMAX_MUSIC_DEFAULT_BASE_URL;
  if (own) return { config: { baseUrl, apiKey: own, model }, key: 'own' };
  return { config: { baseUrl, apiKey: shared, model, groupId: voiceChannel?.group_id?.trim() || undefined }, key: 'voice-channel' };
}

export function musicEngineFor(config: MiniMaxMusicConfig): MusicEngine {
  return new MiniMaxMusic(config);
}
