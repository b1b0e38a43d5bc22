/**
 * Pure helpers of the script editor: where the script's marks are — pause markers (`<#0.5#>`) and emotion marks
 * (`(laughs)`), both grammar of src/contract/script.ts and both shown as chips —, how the cursor skips them, how they
 * delete as one unit, how an edit that broke one is repaired, and the character limit (marks do not count). Offsets
 * are UTF-16 offsets into the script, as Monaco's model uses them.
 */
import {
  EMOTION_MARK, EMOTION_MARKS, LIMITS, MSG, PAUSE_MARKER, SCRIPT_RAW_MAX, countChars, pauseMarker, scriptLimit, stripEmotionMarks, stripPauses,
  type EmotionMark,
} from '../../contract';

export interface MarkerRange {
  /** Offset of the first character (`<` or `(`). */
  start: number;
  /** Offset just after the last one. */
  end: number;
  kind: 'pause' | 'emotion';
  /** A pause's length (0 for an emotion mark). */
  seconds: number;
  /** An emotion mark's name (laughs, sighs, …). */
  name?: EmotionMark;
}

/** Every mark of a script, pauses and emotion marks, in order. */
export function findMarkers(text: string): MarkerRange[] {
  const out: MarkerRange[] = [];
  for (const m of text.matchAll(new RegExp(PAUSE_MARKER.source, 'g'))) {
    out.push({ start: m.index, end: m.index + m[0].length, kind: 'pause', seconds: Number(m[1]) });
  }
  for (const m of text.matchAll(new RegExp(EMOTION_MARK.source, 'g'))) {
    out.push({ start: m.index, end: m.index + m[0].length, kind: 'emotion', seconds: 0, name: m[0].slice(1, -1) as EmotionMark });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the script has anything to speak (marks alone are not text): polish and AI writing need some. */
export function hasText(text: string): boolean {
  return stripEmotionMarks(stripPauses(text)).trim() !== '';
}

/** The marker that strictly contains the offset (a cursor there would sit inside the chip), if any. */
export function markerAround(markers: readonly MarkerRange[], offset: number): MarkerRange | undefined {
  return markers.find((m) => m.start < offset && offset < m.end);
}

export type SnapDirection = 'left' | 'right' | 'nearest';

/** Moves an offset that fell inside a marker to one of its edges: the way the cursor was going, else the nearest. */
export function snapOffset(markers: readonly MarkerRange[], offset: number, direction: SnapDirection): number {
  const m = markerAround(markers, offset);
  if (!m) return offset;
  if (direction === 'left') return m.start;
  if (direction === 'right') return m.end;
  return offset - m.start <= m.end - offset ? m.start : m.end;
}

/** Which way a cursor went: from `previous` to `offset` (nearest when unknown or unmoved). */
export function directionOf(previous: number | undefined, offset: number): SnapDirection {
  if (previous === undefined || previous === offset) return 'nearest';
  return offset > previous ? 'right' : 'left';
}

/**
 * A selection (anchor → active) with both ends outside markers. The active end follows its movement (the keyboard)
 * or the side of the chip the pointer is on (the mouse); the anchor moves outward, so a marker the selection touches is either wholly in it or wholly out.
 */
export function snapSelection(
  markers: readonly MarkerRange[],
  anchor: number,
  active: number,
  previousActive?: number,
  /** For the pointer: the side of the chip it is on (where a click inside the chip should go). */
  activeDirection?: SnapDirection,
): { anchor: number; active: number } {
  const nextActive = snapOffset(markers, active, activeDirection ?? directionOf(previousActive, active));
  if (anchor === active) return { anchor: nextActive, active: nextActive };
  const nextAnchor = snapOffset(markers, anchor, anchor < nextActive ? 'left' : anchor > nextActive ? 'right' : 'nearest');
  return { anchor: nextAnchor, active: nextActive };
}

/**
 * What Backspace (or Delete) removes when the cursor stands right after (or before) a marker: the whole marker.
 * Null when the key is not next to one (the editor's own deletion then runs).
 */
export function unitDeletion(markers: readonly MarkerRange[], offset: number, key: 'backspace' | 'delete'): MarkerRange | null {
  const hit = markers.find((m) => (key === 'backspace' ? m.end === offset : m.start === offset));
  return hit ?? null;
}

/** One change of an edit, in offsets of the text before it (Monaco's IModelContentChange). */
export interface TextChange {
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

/** Applies non-overlapping changes (all in offsets of `text`). */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  let out = text;
  for (const c of [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset)) {
    out = out.slice(0, c.rangeOffset) + c.text + out.slice(c.rangeOffset + c.rangeLength);
  }
  return out;
}

/** Where an offset of the old text lands in the new text (offsets inside a replaced range go to its start). */
function mapOffset(changes: readonly TextChange[], offset: number): number {
  let delta = 0;
  for (const c of changes) {
    if (c.rangeOffset + c.rangeLength <= offset) delta += c.text.length - c.rangeLength;
  }
  return offset + delta;
}

/**
 * The safety net behind unit deletion: an edit that removed part of a marker (a word deletion, an Android keyboard's
 * Backspace, a cut of a stray selection) leaves a fragment such as `<#0.5#`. Returns the fragments' ranges in the new
 * text, so they can be removed in the same undo step. Markers wholly kept or wholly removed need nothing.
 */
export function brokenFragments(previous: string, changes: readonly TextChange[]): { start: number; end: number }[] {
  const sorted = [...changes].sort((a, b) => a.rangeOffset - b.rangeOffset);
  const out: { start: number; end: number }[] = [];
  for (const m of findMarkers(previous)) {
    // Changes that cut into the marker: a deletion overlapping it, or an insertion strictly inside it.
    const cutting = sorted.filter((c) =>
      c.rangeLength > 0 ? c.rangeOffset < m.end && c.rangeOffset + c.rangeLength > m.start : c.text.length > 0 && c.rangeOffset > m.start && c.rangeOffset < m.end,
    );
    if (cutting.length === 0) continue;
    // What is left of the marker: its range minus the deleted ranges, split at insertions.
    let segments = [{ start: m.start, end: m.end }];
    for (const c of cutting) {
      const cutStart = c.rangeOffset;
      const cutEnd = c.rangeOffset + c.rangeLength;
      segments = segments.flatMap((s) => {
        if (cutEnd < s.start || cutStart > s.end || (c.rangeLength > 0 && (cutEnd === s.start || cutStart === s.end))) return [s];
        const parts = [];
        if (cutStart > s.start) parts.push({ start: s.start, end: cutStart });
        if (cutEnd < s.end) parts.push({ start: cutEnd, end: s.end });
        return parts;
      });
    }
    for (const s of segments) {
      const at = mapOffset(sorted, s.start);
      out.push({ start: at, end: at + (s.end - s.start) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The single replacement that turns `from` into `to` (common prefix and suffix kept). */
export function diffEdit(from: string, to: string): TextChange {
  let prefix = 0;
  const max = Math.min(from.length, to.length);
  while (prefix < max && from.charCodeAt(prefix) === to.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && from.charCodeAt(from.length - 1 - suffix) === to.charCodeAt(to.length - 1 - suffix)) suffix++;
  return { rangeOffset: prefix, rangeLength: from.length - prefix - suffix, text: to.slice(prefix, to.length - suffix) };
}

/** The counter's state: characters (markers excluded) against the channel's limit. */
export interface LimitState {
  count: number;
  limit: number;
  over: boolean;
  /** Within the last tenth of the limit. */
  near: boolean;
}

export function limitState(text: string, limit: number): LimitState {
  const count = countChars(text);
  return { count, limit, over: count > limit, near: count > limit * 0.9 };
}

/**
 * Whether an edit from `previous` to `next` may stand: refused when it adds characters beyond the limit (deleting
 * is always allowed, also while over a limit that shrank, e.g. on switching to channel nw), or when the raw text
 * (markers included) outgrows what the server takes. Returns the message to show, or null.
 */
export function limitRefusal(previous: string, next: string, limit: number): string | null {
  const before = countChars(previous);
  const after = countChars(next);
  if (after > limit && after > before) return MSG.scriptTooLong(limit);
  if (next.length > SCRIPT_RAW_MAX && next.length > previous.length) return MSG.scriptTooLong(limit);
  return null;
}

/** An addition cut down to what fits: the text to keep, where the cursor goes, and the message to show once. */
export interface LimitFit {
  text: string;
  cursor: number;
  message: string;
}

/**
 * An edit from `previous` to `next` that adds past the limit (a long paste), cut down to what fits: the inserted
 * text keeps its first characters up to the limit (and the server's raw bound), never half a marker. Null when the
 * edit may stand as it is, or when nothing of it fits (then limitRefusal's message applies and the edit goes back).
 */
export function fitToLimit(previous: string, next: string, limit: number): LimitFit | null {
  if (!limitRefusal(previous, next, limit)) return null;
  const edit = diffEdit(previous, next);
  const head = previous.slice(0, edit.rangeOffset);
  const tail = previous.slice(edit.rangeOffset + edit.rangeLength);
  const fits = (inserted: string) => {
    const text = head + inserted + tail;
    return countChars(text) <= limit && text.length <= SCRIPT_RAW_MAX;
  };
  // The longest prefix that fits, by halving (counting is linear, so this stays fast for any paste).
  let low = 0;
  let high = edit.text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(edit.text.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  let cut = low;
  // Never half a marker, nor half a surrogate pair.
  const split = findMarkers(edit.text).find((m) => m.start < cut && cut < m.end);
  if (split) cut = split.start;
  if (cut > 0 && /[\uD800-\uDBFF]/.test(edit.text[cut - 1] ?? '')) cut--;
  if (cut === 0) return null;
  const kept = edit.text.slice(0, cut);
  return { text: head + kept + tail, cursor: head.length + kept.length, message: MSG.scriptTruncated(limit) };
}

/** The editor's limit for a channel (10,000, or 500 for nw), unless the host gives its own. */
export function editorLimit(channelApi: string | undefined, explicit?: number): number {
  return explicit ?? scriptLimit(channelApi);
}

/** Channels without pause insertion (part 2 §5). */
const NO_PAUSE_CHANNELS: readonly string[] = ['fish', 'nw'];
export function pausesAllowed(channelApi: string | undefined): boolean {
  return !channelApi || !NO_PAUSE_CHANNELS.includes(channelApi);
}

/** The pause menu: the spec's choices with their markers. */
export const PAUSE_CHOICES = LIMITS.pauseChoices.map((seconds) => ({ seconds, marker: pauseMarker(seconds), label: `${seconds}秒` }));

/** The chip's text: the pause's length, or the emotion mark's Chinese gloss (without its aside). */
export function chipLabel(m: Pick<MarkerRange, 'kind' | 'seconds' | 'name'>): string {
  if (m.kind === 'pause') return `${m.seconds}s`;
  return (EMOTION_MARKS[m.name!] ?? m.name ?? '').replace(/（.*）$/, '');
}

/**
 * The chip's classes; the last one is per pause length or mark name, and the chip's text comes from a CSS rule keyed
 * on it (Monaco decorations carry classes, not attributes): 0.5 s → se-pause-v0_5, (laughs) → se-emo-laughs.
 */
export function chipClasses(m: Pick<MarkerRange, 'kind' | 'seconds' | 'name'>): string {
  return m.kind === 'pause' ? `se-chip se-pause ${pauseClass(m.seconds)}` : `se-chip se-emo se-emo-${m.name}`;
}

export function pauseClass(seconds: number): string {
  return `se-pause-v${String(seconds).replace(/[^0-9]/g, '_')}`;
}
