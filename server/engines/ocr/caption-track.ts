/**
 * From what a reader saw in each sampled frame to timed caption sentences. Pure arithmetic on boxes, texts and times:
 * - static text (watermarks, account names, logos) is the same text in the same place in most frames: dropped;
 * - the caption band is the horizontal strip where the remaining text (Chinese text first) changes most often: only
 *   lines in it count;
 * - consecutive frames that read (nearly) the same caption are one sentence, its text the reading seen most often,
 *   its times half a sampling step around the first and last frame that showed it.
 */

/** One line of text a reader found in a frame: its box in pixels and how sure the reader was (0–1). */
export interface FrameLine {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  score: number;
}

export interface FrameReading {
  at: number;
  lines: FrameLine[];
}

export interface CaptionSentence {
  start: number;
  end: number;
  text: string;
}

export interface TrackOptions {
  /** Seconds between sampled frames. */
  step: number;
  /** The picture's height in pixels. */
  height: number;
  /** A text seen in at least this share of the frames is static. */
  staticShare?: number;
  /** Lines the reader is less sure of are ignored. */
  minScore?: number;
}

/** Characters that count: letters and digits of any script (spaces and punctuation vary between readings). */
const normal = (text: string) => [...text.normalize('NFKC')].filter((ch) => /[\p{L}\p{N}]/u.test(ch)).join('');

/** Length of the longest common subsequence of two strings' characters. */
export function lcsLength(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = new Array<number>(y.length + 1).fill(0);
  for (const cx of x) {
    const row = [0];
    for (let j = 0; j < y.length; j++) row.push(cx === y[j] ? prev[j]! + 1 : Math.max(prev[j + 1]!, row[j]!));
    prev = row;
  }
  return prev[y.length]!;
}

/** How alike two readings are, 0–1: the common subsequence against the longer one. */
export function likeness(a: string, b: string): number {
  const longer = Math.max([...a].length, [...b].length);
  return longer === 0 ? 1 : lcsLength(a, b) / longer;
}

const SAME_CAPTION = 0.6;
const centreY = (l: FrameLine) => (l.y0 + l.y1) / 2;

/** The lines of each frame less the static ones (a text in the same place in at least `staticShare` of the frames). */
function movingLines(frames: readonly FrameReading[], o: TrackOptions): FrameLine[][] {
  const minScore = o.minScore ?? 0.5;
  const lines = frames.map((f) => f.lines.map((l) => ({ ...l, text: normal(l.text) })).filter((l) => l.text && l.score >= minScore));
  // Place: the line's vertical centre in tenths of the picture.
  const place = (l: FrameLine) => `${l.text}@${Math.round((centreY(l) / o.height) * 10)}`;
  const seen = new Map<string, number>();
  for (const frame of lines) for (const key of new Set(frame.map(place))) seen.set(key, (seen.get(key) ?? 0) + 1);
  const staticMin = Math.max(2, (o.staticShare ?? 0.5) * frames.length);
  return lines.map((frame) => frame.filter((l) => (seen.get(place(l)) ?? 0) < staticMin));
}

/** A horizontal strip of the picture, in pixels. */
export interface Band {
  y0: number;
  y1: number;
}

const STRIPS = 20;

/**
 * The caption band: around the strip (a twentieth of the height, with its neighbours) that holds the most distinct
 * moving texts, spanning the boxes of the lines near it plus half a line's height; null when no text moves.
 */
export function locateBand(frames: readonly FrameReading[], o: Omit<TrackOptions, 'step'>): Band | null {
  const moving = movingLines(frames, { ...o, step: 0 });
  const stripOf = (l: FrameLine) => Math.min(STRIPS - 1, Math.max(0, Math.floor((centreY(l) / o.height) * STRIPS)));
  // Chinese captions: texts with Chinese characters count; others (a running clock, a score) only when there are none.
  const han = moving.map((frame) => frame.filter((l) => (l.text.match(/\p{Script=Han}/gu)?.length ?? 0) >= 2));
  const counted = han.some((frame) => frame.length) ? han : moving;
  const textsIn = Array.from({ length: STRIPS }, () => new Set<string>());
  for (const frame of counted) for (const l of frame) textsIn[stripOf(l)]!.add(l.text);
  const around = (s: number) => [s - 1, s, s + 1].filter((i) => i >= 0 && i < STRIPS).reduce((n, i) => n + textsIn[i]!.size, 0);
  let best = -1;
  for (let s = 0; s < STRIPS; s++) if (textsIn[s]!.size > 0 && (best < 0 || around(s) > around(best))) best = s;
  if (best < 0) return null;
  // A two-line caption spans about two strips: lines within two strips of the best belong to the band.
  const near = counted.flat().filter((l) => Math.abs(stripOf(l) - best) <= 2);
  const lineHeight = Math.max(...near.map((l) => l.y1 - l.y0));
  return { y0: Math.max(0, Math.min(...near.map((l) => l.y0)) - lineHeight / 2), y1: Math.min(o.height, Math.max(...near.map((l) => l.y1)) + lineHeight / 2) };
}

/**
 * The timed caption sentences in the frames' readings (frames in time order, `step` apart), from the lines whose
 * centre lies in `band` (none: the band is located in these frames).
 */
export function captionSentences(frames: readonly FrameReading[], o: TrackOptions & { band?: Band }): CaptionSentence[] {
  const moving = movingLines(frames, o);
  const band = o.band ?? locateBand(frames, o);
  if (!band) return [];
  const inBand = (l: FrameLine) => centreY(l) >= band.y0 && centreY(l) <= band.y1;

  // Each frame's caption: its band lines top to bottom, left to right.
  const captions = moving.map((frame) =>
    frame
      .filter(inBand)
      .sort((a, b) => (Math.abs(centreY(a) - centreY(b)) > (a.y1 - a.y0) / 2 ? centreY(a) - centreY(b) : a.x0 - b.x0))
      .map((l) => l.text)
      .join(''),
  );

  const sentences: CaptionSentence[] = [];
  let run: { first: number; last: number; readings: string[] } | null = null;
  const close = () => {
    if (!run) return;
    const counts = new Map<string, number>();
    for (const r of run.readings) counts.set(r, (counts.get(r) ?? 0) + 1);
    // The reading seen most often; among equals, the longest (a reader drops characters more often than it adds them).
    const text = [...counts].sort((a, b) => b[1] - a[1] || [...b[0]].length - [...a[0]].length)[0]![0];
    sentences.push({ start: Math.max(0, frames[run.first]!.at - o.step / 2), end: frames[run.last]!.at + o.step / 2, text });
    run = null;
  };
  captions.forEach((text, i) => {
    if (!text) return close();
    if (run && run.last === i - 1 && likeness(text, run.readings[run.readings.length - 1]!) >= SAME_CAPTION) {
      run.last = i;
      run.readings.push(text);
      return;
    }
    close();
    run = { first: i, last: i, readings: [text] };
  });
  close();
  return sentences;
}
