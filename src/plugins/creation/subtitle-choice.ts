/**
 * Burned-in captions as a creation screen chooses them (/create, the pet and photo-speak screens, /multiples): off
 * by default; when on, the size, position and colour sent with the work (src/contract/subtitles.ts).
 */
import {
  DEFAULT_SUBTITLE_STYLE, SUBTITLE_COLORS, SUBTITLE_LABELS, SUBTITLE_POSITIONS, SUBTITLE_SIZES, type SubtitleStyle,
} from '../../contract';
import { isRecord } from '../../core';

export interface SubtitleChoice extends SubtitleStyle {
  /** Burn the captions into the picture. */
  on: boolean;
}

export const defaultSubtitles = (): SubtitleChoice => ({ on: false, ...DEFAULT_SUBTITLE_STYLE });

/** The submission's fields: none while off (the server's default is no captions). */
export function subtitleFields(choice: SubtitleChoice): { subtitles?: 1; subtitle_size?: string; subtitle_position?: string; subtitle_color?: string } {
  if (!choice.on) return {};
  return { subtitles: 1, subtitle_size: choice.size, subtitle_position: choice.position, subtitle_color: choice.color };
}

const pick = <T extends string>(values: readonly T[], value: unknown, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);

/** A stored choice laid over the default, value by value (a draft of an older version opens without one). */
export function reviveSubtitles(stored: unknown): SubtitleChoice {
  const empty = defaultSubtitles();
  if (!isRecord(stored)) return empty;
  return {
    on: stored.on === true,
    size: pick(SUBTITLE_SIZES, stored.size, empty.size),
    position: pick(SUBTITLE_POSITIONS, stored.position, empty.position),
    color: pick(SUBTITLE_COLORS, stored.color, empty.color),
  };
}

/** The segmented choices, as [value, label] pairs. */
export const SUBTITLE_OPTIONS = {
  size: SUBTITLE_SIZES.map((v) => [v, SUBTITLE_LABELS.size[v]] as const),
  position: SUBTITLE_POSITIONS.map((v) => [v, SUBTITLE_LABELS.position[v]] as const),
  color: SUBTITLE_COLORS.map((v) => [v, SUBTITLE_LABELS.color[v]] as const),
};
