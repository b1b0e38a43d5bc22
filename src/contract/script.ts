/** The pause-marker grammar `<#0.5#>` and the script character counter (ARCHITECTURE.md). */
import { LIMITS } from './limits';

export const PAUSE_MARKER = /<#(\d+(?:\.\d+)?)#>/g;

export const pauseMarker = (seconds: number) => `<#${seconds}#>`;

/** A marker's silence as every engine speaks it: its seconds, at most LIMITS.pauseMaxSeconds (the one cap). */
export function pauseLength(marker: RegExpMatchArray): number {
  return Math.min(Number(marker[1]), LIMITS.pauseMaxSeconds);
}

export function stripPauses(text: string): string {
  return text.replace(PAUSE_MARKER, '');
}

/**
 * Emotion marks, added by polish with action=emotion: MiniMax-style interjection tags written inline, e.g.
 * `很开心呀(laughs)`. MiniMax voices them; every other engine drops them before speaking (stripEmotionMarks).
 */
/** The marks the model may insert, with the Chinese gloss given to it. */
export const EMOTION_MARKS = {
  laughs: '笑声',
  chuckle: '轻笑',
  sighs: '叹气',
  breath: '换气',
  gasps: '惊讶地吸气',
  emm: '沉吟（嗯…）',
  'clear-throat': '清嗓子',
} as const;
export type EmotionMark = keyof typeof EMOTION_MARKS;

export const EMOTION_MARK_NAMES = Object.keys(EMOTION_MARKS) as EmotionMark[];

/** One mark, e.g. `(laughs)`. */
export const emotionMark = (name: EmotionMark) => `(${name})`;

/** Any mark of the list, in the script. */
export const EMOTION_MARK = new RegExp(`\\((?:${EMOTION_MARK_NAMES.map((n) => n.replace('-', '\\-')).join('|')})\\)`, 'g');

/** The script as a speech engine without interjection support should read it. */
export function stripEmotionMarks(text: string): string {
  return text.replace(EMOTION_MARK, '');
}

/** Characters that count toward the limit: code points, pause markers and emotion marks excluded. */
export function countChars(text: string): number {
  return [...stripEmotionMarks(stripPauses(text))].length;
}

export function pauseSeconds(text: string): number {
  let total = 0;
  for (const m of text.matchAll(PAUSE_MARKER)) total += pauseLength(m);
  return Math.round(total * 1000) / 1000;
}

/**
 * Estimated duration in seconds: characters / (4.2 × rate) + pause seconds (each capped as the engines cap it). `rate` is the voice's speed slider
 * (0.5 speaks half as fast, so twice as long); pauses are real silence and do not change with it.
 */
export function estimateSeconds(text: string, rate = 1): number {
  return countChars(text) / (LIMITS.charsPerSecond * rate) + pauseSeconds(text);
}

/**
 * A single work's reservation: its seconds at the channel's credits per second, rounded up (what works.create
 * reserves). The product is rounded to thousandths first, so float noise (2.1 × 3 = 6.3000000000000001) is not a
 * credit more.
 */
export const workCredits = (seconds: number, creditsPerSecond: number): number => Math.ceil(Math.round(seconds * creditsPerSecond * 1000) / 1000);

export function scriptLimit(channelApi?: string): number {
  return channelApi === 'nw' ? LIMITS.scriptMaxCharsNw : LIMITS.scriptMaxChars;
}

export type ScriptPart = { kind: 'text'; text: string } | { kind: 'pause'; seconds: number };

/** Splits a script at markers, for engines that need real silence inserted (pauses already capped). */
export function splitScript(text: string): ScriptPart[] {
  const parts: ScriptPart[] = [];
  let last = 0;
  for (const m of text.matchAll(PAUSE_MARKER)) {
    if (m.index! > last) parts.push({ kind: 'text', text: text.slice(last, m.index) });
    parts.push({ kind: 'pause', seconds: pauseLength(m) });
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/**
 * A work's name when the user kept the default (未命名): the script's first words, else `other` (an audio's or an
 * avatar's name), else 未命名 (issue 33: every download was 未命名.mp4; downloads are named after the work).
 */
export function workNameOr(name: string, script: string, other = ''): string {
  const given = name.trim();
  if (given && given !== LIMITS.defaultWorkName) return given;
  const words = [...stripEmotionMarks(stripPauses(script)).replace(/\s+/g, ' ').trim()].slice(0, LIMITS.workNameFromScriptChars).join('').trim();
  return words || other.trim() || LIMITS.defaultWorkName;
}
