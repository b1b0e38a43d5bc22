/**
 * Background music as a creation screen chooses it (/create): none by default; a track of API.music.library (a
 * library track or one of the user's own marked as background music) and its level, sent with the work.
 */
import { LIMITS } from '../../contract';
import { isRecord } from '../../core';

export interface BgmChoice {
  /** `lib-<n>` or `my-<n>`, with its name for the draft (the list may load later than the draft). */
  track: { id: string; name: string } | null;
  volume: number;
}

const V = LIMITS.music.bgmVolume;

export const defaultBgm = (): BgmChoice => ({ track: null, volume: V.default });

/** The submission's fields: none without a track. */
export function bgmFields(choice: BgmChoice): { bgm?: string; bgm_volume?: number } {
  return choice.track ? { bgm: choice.track.id, bgm_volume: choice.volume } : {};
}

/** A stored choice laid over the default (a draft of an older version opens without one). */
export function reviveBgm(stored: unknown): BgmChoice {
  const empty = defaultBgm();
  if (!isRecord(stored)) return empty;
  const track = isRecord(stored.track) && typeof stored.track.id === 'string' && typeof stored.track.name === 'string' ? { id: stored.track.id, name: stored.track.name } : null;
  const volume = typeof stored.volume === 'number' && stored.volume >= V.min && stored.volume <= V.max ? stored.volume : empty.volume;
  return { track, volume };
}
