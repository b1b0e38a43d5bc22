import { stripEmotionMarks, stripPauses } from './script';

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


export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  /** One or more caption lines, joined by `\n`. */
  text: string;
}

/** A stretch of speech with its words: what recognition answers, or what a synthesis measured. */
export interface TimedSegment {
  start: number;
  end: number;
  text: string;
}

/** How wide a caption line may be, in full-width characters (a Latin letter or digit counts half). */
export const CAPTION_LINE_WIDTH = 16;
/** Lines a cue shows at once before a long segment is cut into several cues. */
export const CAPTION_MAX_LINES = 2;

/** 00:01:02,345 */
export function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/** Seconds of `00:01:02,345` (a dot is accepted for the comma); NaN when it is not a time. */
export function srtSeconds(time: string): number {
  const m = /^\s*(\d+):(\d{2}):(\d{2})[,.](\d{1,3})\s*$/.exec(time);
  if (!m) return Number.NaN;
  return (Number(m[1]) * 3_600_000 + Number(m[2]) * 60_000 + Number(m[3]) * 1000 + Number(m[4]!.padEnd(3, '0'))) / 1000;
}

/**
 * An SRT file: cues numbered from 1, CRLF line ends as players expect. A cue's caption lines stay lines; blank ones
 * are dropped (a blank line would end the cue).
 */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((c, i) => {
      const lines = c.text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
      return `${i + 1}\r\n${srtTime(c.start)} --> ${srtTime(Math.max(c.end, c.start))}\r\n${lines.join('\r\n')}\r\n`;
    })
    .join('\r\n');
}

/** The cues of an SRT file, in file order (numbers are not trusted; a block without a time line is skipped). */
export function parseSrt(srt: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of srt.replace(/^\uFEFF/, '').split(/\r?\n\s*\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((l) => l.trim() !== '');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, to] = lines[at]!.split('-->');
    const start = srtSeconds(from ?? '');
    const end = srtSeconds((to ?? '').trim().split(/\s+/)[0] ?? '');
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    cues.push({ start, end, text: lines.slice(at + 1).join('\n') });
  }
  return cues;
}

/** What a caption shows of a script: its words, without pause markers and emotion marks, whitespace collapsed. */
export function captionText(script: string): string {
  return stripEmotionMarks(stripPauses(script)).replace(/\s+/g, ' ').trim();
}

/** Marks a line never starts with. */
const NO_START = new Set([...'，。、；：！？）」』》〉】〕”’…—,.;:!?)]}%', '·']);
/** Marks a line never ends with. */
const NO_END = new Set([...'（「『《〈【〔“‘([{']);
/** Marks a break comes best after. */
const BREAK_AFTER = new Set([...'，。、；：！？,.;:!?…']);

/** Half width for ASCII letters, digits and marks; full for everything else. */
const charWidth = (ch: string) => (ch.charCodeAt(0) < 0x80 ? 0.5 : 1);

/** The text in units that never break inside: a run of Latin letters or digits (a word, a number), or one character. */
function units(text: string): string[] {
  return text.match(/[A-Za-z0-9][A-Za-z0-9'’\-_.%]*|[\s\S]/gu) ?? [];
}

const widthOf = (s: string) => [...s].reduce((w, ch) => w + charWidth(ch), 0);

/**
 * Breaks a caption into lines at most `width` wide. Greedy, with two rules of Chinese typesetting: a closing mark
 * stays with the line before it and an opening mark with the line after; within the last third of a line a
 * break after punctuation is taken over a later one. A word wider than a line is cut where it must be.
 */
export function breakCaptionLines(text: string, width: number = CAPTION_LINE_WIDTH): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return [];
  const lines: string[] = [];
  let line: string[] = [];
  let lineWidth = 0;
  const flush = (upTo = line.length) => {
    const taken = line.slice(0, upTo).join('').trim();
    if (taken) lines.push(taken);
    line = line.slice(upTo);
    while (line[0] === ' ') line.shift();
    lineWidth = widthOf(line.join(''));
  };
  for (const unit of units(clean)) {
    if (unit === ' ' && line.length === 0) continue;
    const w = widthOf(unit);
    if (lineWidth + w > width + 1e-9 && line.length > 0 && !NO_START.has(unit)) {
      // Prefer the last break after punctuation in the line's last third; never leave an opening mark at its end.
      let at = line.length;
      for (let i = line.length - 1; i >= 0 && widthOf(line.slice(0, i + 1).join('')) >= (width * 2) / 3; i--) {
        if (BREAK_AFTER.has(line[i]!)) {
          at = i + 1;
          break;
        }
      }
      while (at > 1 && NO_END.has(line[at - 1]!)) at--;
      flush(at);
    }
    if (w > width) {
      // A word wider than a line: cut it where it must be.
      for (const ch of unit) {
        if (lineWidth + charWidth(ch) > width + 1e-9) flush();
        line.push(ch);
        lineWidth += charWidth(ch);
      }
      continue;
    }
    line.push(unit);
    lineWidth += w;
  }
  flush();
  return lines;
}

/**
 * Cues from timed segments: each segment's caption broken into lines; a segment that needs more than `maxLines`
 * lines is cut into several cues of at most that many, its time shared out by their widths. Segments with no words
 * give no cue.
 */
export function cuesFromSegments(
  segments: readonly TimedSegment[],
  options: { width?: number; maxLines?: number } = {},
): Cue[] {
  const width = options.width ?? CAPTION_LINE_WIDTH;
  const maxLines = options.maxLines ?? CAPTION_MAX_LINES;
  const cues: Cue[] = [];
  for (const s of segments) {
    const lines = breakCaptionLines(captionText(s.text), width);
    if (!lines.length) continue;
    const groups: string[][] = [];
    for (let i = 0; i < lines.length; i += maxLines) groups.push(lines.slice(i, i + maxLines));
    const total = groups.reduce((n, g) => n + widthOf(g.join('')), 0);
    let at = s.start;
    groups.forEach((g, i) => {
      const end = i === groups.length - 1 ? s.end : at + ((s.end - s.start) * widthOf(g.join(''))) / total;
      cues.push({ start: round3(at), end: round3(end), text: g.join('\n') });
      at = end;
    });
  }
  return cues;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
