/**
 * Burned-in captions, chosen at submit (/create, /multiples, the pet and photo-speak screens): `subtitles` 0 none
 * (the default) or 1 burned in, with their size, position and colour. Every spoken work also keeps its timed text
 * as an SRT (the works list's `srt`) whether or not captions are burned in.
 */
export const SUBTITLE_SIZES = ['S', 'M', 'L'] as const;
export const SUBTITLE_POSITIONS = ['bottom', 'middle'] as const;
export const SUBTITLE_COLORS = ['white', 'yellow'] as const;

export type SubtitleSize = (typeof SUBTITLE_SIZES)[number];
export type SubtitlePosition = (typeof SUBTITLE_POSITIONS)[number];
export type SubtitleColor = (typeof SUBTITLE_COLORS)[number];

export interface SubtitleStyle {
  size: SubtitleSize;
  position: SubtitlePosition;
  color: SubtitleColor;
}

export const DEFAULT_SUBTITLE_STYLE: SubtitleStyle = { size: 'M', position: 'bottom', color: 'white' };

/** What the options are called on screen. */
export const SUBTITLE_LABELS = {
  size: { S: '小', M: '中', L: '大' } satisfies Record<SubtitleSize, string>,
  position: { bottom: '底部', middle: '居中' } satisfies Record<SubtitlePosition, string>,
  color: { white: '白字黑边', yellow: '黄字黑边' } satisfies Record<SubtitleColor, string>,
};
