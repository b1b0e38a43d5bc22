/**
 * Subtitles, in one place for every feature that makes or reads them (works and their burned-in captions, video
 * translation, the dubbing studio) and for the screens that offer them. Pure text and times, no DOM, no Node:
 * burning cues into a picture is server/engines/media/captions.ts.
 *
 * - Caption options chosen at submit (/create, /multiples, the pet and photo-speak screens).
 * - Spoken stretches → timed sentences → cues of at most two lines broken as Chinese captions are → an SRT file;
 *   an SRT read back.
 *
 * Line breaking: at most `maxChars` a line (lineChars: about 16 on a 9:16 picture, 24 on 16:9; a Latin letter, digit
 * or ASCII sign is half a character), broken after clause punctuation or at a space where possible, never with a line
 * that starts with closing punctuation or ends with opening punctuation, and each line's trailing punctuation dropped
 * as 剪映 does (closing quotes and brackets stay). A sentence longer than two lines becomes several cues.
 */
import { LIMITS } from './limits';
import { splitScript, stripEmotionMarks, stripPauses } from './script';

// ------------------------------------------------------------------------------------------------ caption options

/**
 * Burned-in captions: `subtitles` 0 none (the default) or 1 burned in, with their size, position and colour. Every
 * spoken work also keeps its timed text as an SRT (the works list's `srt`) whether or not captions are burned in.
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

// ------------------------------------------------------------------------------------------------ timed text

/** Text and when it is heard, in seconds: a spoken stretch, a sentence, a recognised segment. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** One subtitle: one or two lines shown from `start` to `end`. */
export interface Cue {
  start: number;
  end: number;
  lines: string[];
}

/** What a caption shows of a script: its words, without pause markers and emotion marks, whitespace collapsed. */
export function captionText(script: string): string {
  return stripEmotionMarks(stripPauses(script)).replace(/\s+/g, ' ').trim();
}

/** Characters of a line on a picture of this size (about 16 for 9:16, 24 for 16:9, in between by the aspect); 24 without one. */
export function lineChars(size?: { width: number; height: number }): number {
  const { lineCharsPortrait: portrait, lineCharsLandscape: landscape } = LIMITS.subtitles;
  if (!size || !(size.width > 0 && size.height > 0)) return landscape;
  const narrow = 9 / 16;
  const wide = 16 / 9;
  const t = Math.min(1, Math.max(0, (size.width / size.height - narrow) / (wide - narrow)));
  return Math.round(portrait + t * (landscape - portrait));
}

const HAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}]/u;

/** How long a text takes to say, relative to others: a Chinese character 1, a Latin letter or digit 0.4, signs nothing. */
function speechWeight(text: string): number {
  let weight = 0;
  for (const ch of text) weight += HAN.test(ch) ? 1 : WORD.test(ch) ? 0.4 : 0;
  return weight;
}

/** Sentence ends; a period only before a space, a closing quote or the end (so 3.5 stays one number). */
const ENDS = new Set(['。', '！', '？', '!', '?', '；', ';', '…', '\n']);
const CLOSING = '，。、；：！？,.;:!?…）)》」』】〕”’"\'%～~';
const OPENING = '（(《「『【〔“‘';

/** A text's sentences, each with its end punctuation (and closing quotes after it); those without words dropped. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const chars = [...text];
  let current = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    current += ch;
    const ends = ENDS.has(ch) || (ch === '.' && (i + 1 === chars.length || /[\s”’"')）」』]/.test(chars[i + 1]!)));
    if (!ends) continue;
    while (i + 1 < chars.length && (ENDS.has(chars[i + 1]!) || '”’」』）)"\''.includes(chars[i + 1]!))) current += chars[++i];
    out.push(current);
    current = '';
  }
  out.push(current);
  return out.map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => WORD.test(s));
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The sentences of spoken stretches with their times. Each stretch's times are the engine's; inside a stretch the
 * times are shared out by characters (speechWeight), an estimate within a stretch only. Pause markers a stretch still
 * holds (an engine that voiced them itself) keep their seconds as silence without a sentence; emotion marks are dropped.
 */
export function sentencesOf(stretches: readonly TimedText[]): TimedText[] {
  const out: TimedText[] = [];
  for (const stretch of stretches) {
    const parts = splitScript(stripEmotionMarks(stretch.text));
    const span = Math.max(0, stretch.end - stretch.start);
    const paused = parts.reduce((sum, p) => sum + (p.kind === 'pause' ? p.seconds : 0), 0);
    // Markers longer than the stretch itself (an engine that shortened them): they share it with the speech.
    const pauseScale = paused > span ? span / (paused * 2) : 1;
    const speech = span - paused * pauseScale;
    const words = parts.reduce((sum, p) => sum + (p.kind === 'text' ? speechWeight(p.text) : 0), 0);
    if (!(words > 0)) continue;
    let at = stretch.start;
    for (const part of parts) {
      if (part.kind === 'pause') {
        at += part.seconds * pauseScale;
        continue;
      }
      for (const sentence of splitSentences(part.text)) {
        const seconds = (speech * speechWeight(sentence)) / words;
        if (speechWeight(sentence) > 0) out.push({ start: round3(at), end: round3(at + seconds), text: sentence });
        at += seconds;
      }
      // Signs between sentences take no time; what is left of the part (none) is already counted.
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ line breaking

interface Token {
  text: string;
  width: number;
  /** A place to break after: clause punctuation or a space. */
  breakAfter: boolean;
}

/** The text as unbreakable tokens: a Latin word or number, a space, or one character. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9][A-Za-z0-9'’.%+\-_/:]*|\s+|[\s\S]/gu)) {
    const t = m[0];
    if (/^\s+$/.test(t)) out.push({ text: ' ', width: 0.5, breakAfter: true });
    else if (/^[A-Za-z0-9]/.test(t)) out.push({ text: t, width: t.length / 2, breakAfter: false });
    else out.push({ text: t, width: t.charCodeAt(0) < 0x2000 ? 0.5 : 1, breakAfter: '，、；：,;:。！？!?…—'.includes(t) });
  }
  return out;
}

const widthOf = (line: Token[]) => line.reduce((w, t) => w + t.width, 0);

/** A token wider than a line (a very long word or number), cut into pieces that fit. */
function splitWide(token: Token, max: number): Token[] {
  if (token.width <= max) return [token];
  const per = Math.max(1, Math.floor(max * 2));
  const pieces: Token[] = [];
  for (let i = 0; i < token.text.length; i += per) pieces.push({ text: token.text.slice(i, i + per), width: token.text.slice(i, i + per).length / 2, breakAfter: false });
  return pieces;
}

/** The lines of one sentence (any number of them; cuesOf groups them in twos). */
export function breakLines(text: string, maxChars: number): string[] {
  const lines: Token[][] = [];
  let line: Token[] = [];
  for (const token of tokens(text).flatMap((t) => splitWide(t, maxChars))) {
    if (line.length === 0 && token.text === ' ') continue;
    if (widthOf(line) + token.width <= maxChars || line.length === 0) {
      line.push(token);
      continue;
    }
    // Over the limit: break after the last clause sign or space of the line's second half, else here.
    let cut = line.length;
    for (let i = line.length - 1; i > 0; i--) {
      if (line[i]!.breakAfter && widthOf(line.slice(0, i + 1)) >= maxChars / 2) {
        cut = i + 1;
        break;
      }
    }
    lines.push(line.slice(0, cut));
    line = [...line.slice(cut), token];
    while (line[0]?.text === ' ') line.shift();
  }
  if (line.length) lines.push(line);

  // Closing punctuation never starts a line (it joins the line before); opening punctuation never ends one.
  for (let i = 1; i < lines.length; i++) {
    while (lines[i]!.length && CLOSING.includes(lines[i]![0]!.text)) lines[i - 1]!.push(lines[i]!.shift()!);
    while (lines[i - 1]!.length > 1 && OPENING.includes(lines[i - 1]!.at(-1)!.text)) lines[i]!.unshift(lines[i - 1]!.pop()!);
  }
  return lines.map((l) => dropTrailingPunctuation(l.map((t) => t.text).join(''))).filter((l) => WORD.test(l));
}

/** What 剪映 drops at the end of a line: clause and sentence punctuation, dashes, ellipses (closing quotes and brackets stay). */
export function dropTrailingPunctuation(line: string): string {
  return line.replace(/[\s，。、；：！？,.;:!?…～~—-]+$/u, '').trim();
}

/** Cues of timed sentences: each sentence's lines two to a cue (linesPerCue), its time shared among its cues by characters. */
export function cuesOf(sentences: readonly TimedText[], o: { maxChars: number }): Cue[] {
  const cues: Cue[] = [];
  for (const sentence of sentences) {
    const lines = breakLines(sentence.text, o.maxChars);
    const per = LIMITS.subtitles.linesPerCue;
    const groups: string[][] = [];
    for (let i = 0; i < lines.length; i += per) groups.push(lines.slice(i, i + per));
    const total = groups.reduce((sum, g) => sum + Math.max(speechWeight(g.join('')), 0.1), 0);
    let at = sentence.start;
    for (const group of groups) {
      const seconds = ((sentence.end - sentence.start) * Math.max(speechWeight(group.join('')), 0.1)) / total;
      cues.push({ start: round3(at), end: round3(at + seconds), lines: group });
      at += seconds;
    }
  }
  return cues;
}

/** Timed text moved later by `seconds` (a scene's place in a joined work). */
export const shiftTimed = (timed: readonly TimedText[], seconds: number): TimedText[] =>
  timed.map((t) => ({ ...t, start: round3(t.start + seconds), end: round3(t.end + seconds) }));

// ------------------------------------------------------------------------------------------------ SRT

/** 00:01:02,345 */
export function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

/**
 * An SRT file: numbered cues from 1, each line of a cue on its own line, CRLF line ends as players expect. A line
 * break inside a line is read as a space, and a blank line is dropped (it would end the cue).
 */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((c, i) => {
      const lines = c.lines.map((l) => l.replace(/\s*\r?\n\s*/g, ' ').trim()).filter(Boolean);
      return `${i + 1}\r\n${srtTime(c.start)} --> ${srtTime(Math.max(c.end, c.start))}\r\n${lines.join('\r\n')}\r\n`;
    })
    .join('\r\n');
}

/** Seconds of `00:01:02,345` (a dot is accepted for the comma); NaN when it is not a time. */
export function srtSeconds(time: string): number {
  const m = /^\s*(\d+):(\d{2}):(\d{2})[,.](\d{1,3})\s*$/.exec(time);
  if (!m) return Number.NaN;
  return (Number(m[1]) * 3_600_000 + Number(m[2]) * 60_000 + Number(m[3]) * 1000 + Number(m[4]!.padEnd(3, '0'))) / 1000;
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
    cues.push({ start, end, lines: lines.slice(at + 1) });
  }
  return cues;
}
