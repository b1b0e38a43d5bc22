/**
 * The pure arithmetic of a dub: where each line is heard, from the real length of each spoken stretch and the
 * silences after it, and the SRT of those places.
 */
import { breakCaptionLines, captionText, formatSrt } from '../../../src/contract';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

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

/** The dub's subtitles: one cue a line, its words broken into caption lines. */
export function dubbingSrt(cues: readonly { start: number; end: number }[], lines: readonly { text: string }[]): string {
  return formatSrt(cues.map((c, i) => ({ ...c, text: breakCaptionLines(captionText(lines[i]?.text ?? '')).join('\n') })));
}

/** The script as a text material: one line a line, a dialogue's lines after their role's name. */
export function dubbingScript(lines: readonly { text: string; role?: string }[]): string {
  return lines.map((l) => (l.role ? `${l.role}：${l.text}` : l.text)).join('\n');
}
