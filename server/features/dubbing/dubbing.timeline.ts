/**
 * The pure arithmetic of a dub: where each line is heard, from the real length of each spoken stretch and the
 * silences after it, and the SRT of those places (made with the shared subtitle module, src/contract/subtitles.ts).
 */
import { LIMITS, cuesOf, formatSrt, sentencesOf, stripEmotionMarks, type TimedText } from '../../../src/contract';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Characters a line of a dub's SRT: a dub has no picture, and is most often laid under a 9:16 digital-human work or a
 * short video, so its lines are as long as a portrait picture's (16); they fit a landscape one as well.
 */
export const DUB_LINE_CHARS = LIMITS.subtitles.lineCharsPortrait;

/**
 * Each line's cue: it starts where the lines before it, with their silences after, end; it lasts its stretch.
 * `after[i]` is the silence after line i (its pause, plus the gap unless it is the last).
 */
export function placeLines(lengths: readonly number[], after: readonly number[]): { start: number; end: number }[] {
  let at = 0;
  return lengths.map((length, i) => {
    const cue = { start: round3(at), end: round3(at + length) };
    at += length + Math.max(0, after[i] ?? 0);
    return cue;
  });
}

/** The silence after each line: its own pause, and the gap between it and the next. */
export function silencesAfter(lines: readonly { pause_after?: number }[], gap: number): number[] {
  return lines.map((l, i) => (l.pause_after ?? 0) + (i < lines.length - 1 ? gap : 0));
}

/** Pause markers at the start or the end of a text (emotion marks dropped first: they carry no words). */
const LEADING_PAUSES = /^(?:\s*<#\d+(?:\.\d+)?#>)+/;
const TRAILING_PAUSES = /(?:<#\d+(?:\.\d+)?#>\s*)+$/;
const withoutEdgePauses = (text: string) => stripEmotionMarks(text).replace(LEADING_PAUSES, '').replace(TRAILING_PAUSES, '');

/**
 * Where a line's words are heard in the dub. The speech engine answered its stretches (between the line's pause
 * markers) in the line's own speech file; that file's silent edges were trimmed (`lead` seconds off its start) and the
 * rest placed at `cue`. So each stretch moves by cue.start − lead and is held inside the cue; a pause marker at a
 * stretch's trimmed edge stands for no time any more (its silence went with the edge). Sentences share a stretch by
 * characters (sentencesOf). When the engine's stretches give no words there, the line over its whole cue.
 */
export function lineSentences(text: string, cue: { start: number; end: number }, stretches: readonly TimedText[], lead: number): TimedText[] {
  const offset = cue.start - lead;
  const within = (t: number) => round3(Math.min(cue.end, Math.max(cue.start, t)));
  const placed = stretches
    .map((s) => {
      const [start, end] = [s.start + offset, s.end + offset];
      let words = stripEmotionMarks(s.text);
      if (start <= cue.start) words = words.replace(LEADING_PAUSES, '');
      if (end >= cue.end) words = words.replace(TRAILING_PAUSES, '');
      return { text: words, start: within(start), end: within(end) };
    })
    .filter((s) => s.end > s.start);
  const sentences = sentencesOf(placed);
  return sentences.length ? sentences : sentencesOf([{ text: withoutEdgePauses(text), ...cue }]);
}

/** The dub's subtitles: each line's sentences where they are spoken, broken into caption lines, two lines a cue at most. */
export function dubbingSrt(sentences: readonly TimedText[]): string {
  return formatSrt(cuesOf(sentences, { maxChars: DUB_LINE_CHARS }));
}

/** The script as a text material: one line a line, a dialogue's lines after their role's name. */
export function dubbingScript(lines: readonly { text: string; role?: string }[]): string {
  return lines.map((l) => (l.role ? `${l.role}：${l.text}` : l.text)).join('\n');
}
