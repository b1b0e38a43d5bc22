import { describe, expect, it } from 'vitest';
import { LIMITS, MSG, SCRIPT_RAW_MAX, emotionMark, pauseMarker } from '../../contract';
import {
  PAUSE_CHOICES, applyChanges, brokenFragments, chipClasses, chipLabel, diffEdit, directionOf, editorLimit, findMarkers, fitToLimit, hasText, limitRefusal,
  limitState, markerAround, pauseClass, pausesAllowed, snapOffset, snapSelection, unitDeletion, type TextChange,
} from './markers';

// 大家好<#0.5#>欢迎<#2#>!  — the first marker spans 3..10, the second 12..17.
const TEXT = `大家好${pauseMarker(0.5)}欢迎${pauseMarker(2)}!`;
const MARKERS = findMarkers(TEXT);

/** Applies the changes, then removes the fragments brokenFragments reports: what the editor shows afterwards. */
function repaired(previous: string, changes: TextChange[]): string {
  let next = applyChanges(previous, changes);
  for (const f of brokenFragments(previous, changes).reverse()) next = next.slice(0, f.start) + next.slice(f.end);
  return next;
}

describe('finding markers', () => {
  it('finds every marker with its seconds', () => {
    expect(MARKERS).toEqual([
      { start: 3, end: 10, kind: 'pause', seconds: 0.5 },
      { start: 12, end: 17, kind: 'pause', seconds: 2 },
    ]);
    expect(findMarkers('没有停顿')).toEqual([]);
    // A half-typed marker is plain text.
    expect(findMarkers('<#0.5# 和 #0.5#>')).toEqual([]);
  });

  it('finds emotion marks too, in order with the pauses', () => {
    const text = `好开心${emotionMark('laughs')}${pauseMarker(1)}唉${emotionMark('clear-throat')}(smiles)`;
    expect(findMarkers(text)).toEqual([
      { start: 3, end: 11, kind: 'emotion', seconds: 0, name: 'laughs' },
      { start: 11, end: 16, kind: 'pause', seconds: 1 },
      { start: 17, end: 31, kind: 'emotion', seconds: 0, name: 'clear-throat' },
    ]);
    // Only what needs speaking is text.
    expect(hasText(`${pauseMarker(1)} ${emotionMark('sighs')}`)).toBe(false);
    expect(hasText(`${pauseMarker(1)}好`)).toBe(true);
  });

  it('is not confused by a previous global-regex search', () => {
    expect(findMarkers(TEXT)).toEqual(findMarkers(TEXT));
  });

  it('tells whether an offset is inside a marker (its edges are not)', () => {
    expect(markerAround(MARKERS, 3)).toBeUndefined();
    expect(markerAround(MARKERS, 4)?.start).toBe(3);
    expect(markerAround(MARKERS, 9)?.start).toBe(3);
    expect(markerAround(MARKERS, 10)).toBeUndefined();
  });
});

describe('the cursor skips a marker', () => {
  it('snaps to the edge it was heading for', () => {
    // ArrowRight at the marker's start lands one character in: it jumps to the end, past the chip.
    expect(snapOffset(MARKERS, 4, directionOf(3, 4))).toBe(10);
    // ArrowLeft at its end lands one character back: it jumps to the start.
    expect(snapOffset(MARKERS, 9, directionOf(10, 9))).toBe(3);
    // A click (or an up/down move) inside goes to the nearest edge.
    expect(snapOffset(MARKERS, 5, 'nearest')).toBe(3);
    expect(snapOffset(MARKERS, 8, 'nearest')).toBe(10);
    expect(snapOffset(MARKERS, 1, 'right')).toBe(1);
    expect(directionOf(undefined, 4)).toBe('nearest');
  });

  it('keeps a selection from cutting a marker in two', () => {
    // Shift+ArrowRight from the start: the selection takes the whole marker.
    expect(snapSelection(MARKERS, 3, 4, 3)).toEqual({ anchor: 3, active: 10 });
    // A selection dragged from inside a marker backwards: the anchor moves outward, the marker is included.
    expect(snapSelection(MARKERS, 6, 1, 2)).toEqual({ anchor: 10, active: 1 });
    expect(snapSelection(MARKERS, 6, 11)).toEqual({ anchor: 3, active: 11 });
    // A collapsed cursor stays collapsed.
    expect(snapSelection(MARKERS, 14, 14, 12)).toEqual({ anchor: 17, active: 17 });
    expect(snapSelection(MARKERS, 2, 11)).toEqual({ anchor: 2, active: 11 });
    // A click on the chip goes to the side the pointer is on, wherever the cursor was.
    expect(snapSelection(MARKERS, 5, 5, 13, 'right')).toEqual({ anchor: 10, active: 10 });
    expect(snapSelection(MARKERS, 5, 5, 0, 'left')).toEqual({ anchor: 3, active: 3 });
  });
});

describe('a marker deletes as one unit', () => {
  it('Backspace right after a marker, Delete right before one, remove all of it', () => {
    expect(unitDeletion(MARKERS, 10, 'backspace')).toEqual(MARKERS[0]);
    expect(unitDeletion(MARKERS, 3, 'delete')).toEqual(MARKERS[0]);
    expect(unitDeletion(MARKERS, 17, 'backspace')).toEqual(MARKERS[1]);
    expect(unitDeletion(MARKERS, 3, 'backspace')).toBeNull();
    expect(unitDeletion(MARKERS, 10, 'delete')).toBeNull();
    expect(unitDeletion(MARKERS, 11, 'backspace')).toBeNull();
  });

  it('treats an emotion mark the same way', () => {
    const text = `好${emotionMark('laughs')}呀`;
    const marks = findMarkers(text);
    expect(unitDeletion(marks, 9, 'backspace')).toEqual(marks[0]);
    expect(snapOffset(marks, 2, directionOf(1, 2))).toBe(9);
    expect(repaired(text, [{ rangeOffset: 8, rangeLength: 1, text: '' }])).toBe('好呀');
  });

  it('removes what is left when an edit broke a marker', () => {
    // One character of the marker deleted (an Android keyboard's Backspace): the rest goes too.
    expect(repaired(TEXT, [{ rangeOffset: 9, rangeLength: 1, text: '' }])).toBe(`大家好欢迎${pauseMarker(2)}!`);
    // A word deletion from after the marker that took `#>` and the text after it.
    expect(repaired(TEXT, [{ rangeOffset: 8, rangeLength: 4, text: '' }])).toBe(`大家好${pauseMarker(2)}!`);
    // A deletion from before into the marker.
    expect(repaired(TEXT, [{ rangeOffset: 1, rangeLength: 4, text: '' }])).toBe(`大欢迎${pauseMarker(2)}!`);
    // Typing inside a marker keeps the typed text and drops the marker.
    expect(repaired(TEXT, [{ rangeOffset: 5, rangeLength: 0, text: '啊' }])).toBe(`大家好啊欢迎${pauseMarker(2)}!`);
    // A replacement over parts of both markers.
    expect(repaired(TEXT, [{ rangeOffset: 8, rangeLength: 6, text: '新' }])).toBe('大家好新!');
  });

  it('leaves whole markers and unrelated edits alone', () => {
    expect(brokenFragments(TEXT, [{ rangeOffset: 3, rangeLength: 7, text: '' }])).toEqual([]);
    expect(brokenFragments(TEXT, [{ rangeOffset: 10, rangeLength: 0, text: '字' }])).toEqual([]);
    expect(brokenFragments(TEXT, [{ rangeOffset: 3, rangeLength: 0, text: '字' }])).toEqual([]);
    expect(brokenFragments(TEXT, [{ rangeOffset: 0, rangeLength: 3, text: '你好' }])).toEqual([]);
    expect(brokenFragments(TEXT, [{ rangeOffset: 0, rangeLength: TEXT.length, text: '' }])).toEqual([]);
  });

  it('handles several changes of one edit (several cursors)', () => {
    const changes = [
      { rangeOffset: 0, rangeLength: 1, text: 'X' },
      { rangeOffset: 16, rangeLength: 1, text: '' },
    ];
    expect(repaired(TEXT, changes)).toBe(`X家好${pauseMarker(0.5)}欢迎!`);
  });
});

describe('edits and the limit', () => {
  it('applies and diffs edits', () => {
    expect(applyChanges('abcdef', [{ rangeOffset: 4, rangeLength: 1, text: 'E' }, { rangeOffset: 0, rangeLength: 2, text: '' }])).toBe('cdEf');
    const d = diffEdit('大家好，欢迎', '大家好啊，欢迎');
    expect(d).toEqual({ rangeOffset: 3, rangeLength: 0, text: '啊' });
    expect(applyChanges('大家好，欢迎', [d])).toBe('大家好啊，欢迎');
    expect(diffEdit('aaa', 'aa')).toEqual({ rangeOffset: 2, rangeLength: 1, text: '' });
    expect(diffEdit('same', 'same')).toEqual({ rangeOffset: 4, rangeLength: 0, text: '' });
  });

  it('counts characters without markers against the channel limit', () => {
    expect(editorLimit(undefined)).toBe(LIMITS.scriptMaxChars);
    expect(editorLimit('nw')).toBe(500);
    expect(editorLimit('fish')).toBe(10_000);
    expect(editorLimit('nw', 80)).toBe(80);
    expect(limitState(TEXT, 10)).toEqual({ count: 6, limit: 10, over: false, near: false });
    expect(limitState('一二三四五六七八九十', 10)).toMatchObject({ count: 10, over: false, near: true });
    expect(limitState('一二三', 2).over).toBe(true);
  });

  it('refuses additions past the limit, never deletions', () => {
    const full = '字'.repeat(500);
    expect(limitRefusal(full.slice(1), full, 500)).toBeNull();
    expect(limitRefusal(full, `${full}多`, 500)).toBe(MSG.scriptTooLong(500));
    // Markers do not count: one more pause at the limit is fine.
    expect(limitRefusal(full, `${full}${pauseMarker(1)}`, 500)).toBeNull();
    // Over a limit that shrank (switching to nw): deleting is allowed, adding is not.
    const long = '字'.repeat(800);
    expect(limitRefusal(long, long.slice(1), 500)).toBeNull();
    expect(limitRefusal(long, `${long}字`, 500)).toBe(MSG.scriptTooLong(500));
    // The raw text stays within what the server accepts.
    const manyPauses = pauseMarker(0.5).repeat(Math.ceil(SCRIPT_RAW_MAX / 7));
    expect(limitRefusal('', manyPauses, 10_000)).toBe(MSG.scriptTooLong(10_000));
  });

  it('cuts a paste past the limit down to its first characters that fit, never half a marker (issue 33)', () => {
    const limit = LIMITS.scriptMaxChars;
    // 12,000 characters pasted into an empty script: the first 10,000 stay, the cursor after them, one message.
    const pasted = Array.from({ length: 12_000 }, (_, i) => '一二三四五六七八九十'[i % 10]).join('');
    const fit = fitToLimit('', pasted, limit)!;
    expect(fit.text).toBe(pasted.slice(0, limit));
    expect(fit.cursor).toBe(limit);
    expect(fit.message).toBe(MSG.scriptTruncated(limit));
    // Pasted between existing text: what was there stays, the paste gets the room that is left.
    const fitIn = fitToLimit('开头结尾', `开头${pasted}结尾`, 10)!;
    expect(fitIn).toMatchObject({ text: `开头${pasted.slice(0, 6)}结尾`, cursor: 8 });
    // Markers in the paste do not count, and a cut never leaves half of one.
    const withPauses = `一二${pauseMarker(0.5)}三四${pauseMarker(1)}五六`;
    expect(fitToLimit('', withPauses, 4)!.text).toBe(`一二${pauseMarker(0.5)}三四`);
    const cutInMarker = fitToLimit('一', `一二${pauseMarker(0.5)}三`, 2)!;
    expect(findMarkers(cutInMarker.text).every((m) => cutInMarker.text.slice(m.start, m.end) === pauseMarker(0.5))).toBe(true);
    expect(cutInMarker.text.startsWith('一二')).toBe(true);
    // Surrogate pairs are one character and are never split.
    expect(fitToLimit('', '😀😀😀', 2)!.text).toBe('😀😀');
    // Within the limit: nothing to cut; nothing fits at all: refused as before.
    expect(fitToLimit('', '一二', 10)).toBeNull();
    expect(fitToLimit('一二', '一二三', 2)).toBeNull();
    expect(limitRefusal('一二', '一二三', 2)).toBe(MSG.scriptTooLong(2));
  });

  it('cuts 12,000 characters with 300 pauses quickly (the editor stays responsive)', () => {
    const script = Array.from({ length: 300 }, () => `${'字'.repeat(40)}${pauseMarker(0.5)}`).join('');
    const started = performance.now();
    const fit = fitToLimit('', script, LIMITS.scriptMaxChars)!;
    expect(performance.now() - started).toBeLessThan(250);
    expect(limitState(fit.text, LIMITS.scriptMaxChars)).toMatchObject({ count: LIMITS.scriptMaxChars, over: false });
  });

  it('hides pauses for fish and nw', () => {
    expect(pausesAllowed(undefined)).toBe(true);
    expect(pausesAllowed('mm')).toBe(true);
    expect(pausesAllowed('fish')).toBe(false);
    expect(pausesAllowed('nw')).toBe(false);
  });

  it('labels the pause menu and chips', () => {
    expect(PAUSE_CHOICES.map((c) => c.marker)).toEqual(['<#0.2#>', '<#0.3#>', '<#0.5#>', '<#1#>', '<#2#>']);
    expect(chipLabel(MARKERS[0]!)).toBe('0.5s');
    expect(pauseClass(0.5)).toBe('se-pause-v0_5');
    expect(pauseClass(2)).toBe('se-pause-v2');
    expect(chipClasses(MARKERS[1]!)).toBe('se-chip se-pause se-pause-v2');
    const [laughs, emm] = findMarkers(`${emotionMark('laughs')}${emotionMark('emm')}`);
    expect(chipLabel(laughs!)).toBe('笑声');
    expect(chipLabel(emm!)).toBe('沉吟');
    expect(chipClasses(emm!)).toBe('se-chip se-emo se-emo-emm');
  });
});
