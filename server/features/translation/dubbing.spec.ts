import { describe, expect, it } from 'vitest';
import { MAX_DUB_SPEEDUP, fitSlots, parseTranslatedLines } from './dubbing';

describe('fitting dubbed speech into the original sentences', () => {
  const slots = [{ start: 1, end: 3 }, { start: 4, end: 5 }, { start: 8, end: 9 }];

  it('plays speech that fits as it is, at the original start', () => {
    expect(fitSlots(slots, [1.5, 0.8, 0.5], 10)).toEqual([
      { start: 1, speed: 1, length: 1.5, trimmed: false },
      { start: 4, speed: 1, length: 0.8, trimmed: false },
      { start: 8, speed: 1, length: 0.5, trimmed: false },
    ]);
  });

  it('speeds speech up just enough, never beyond the limit', () => {
    expect(fitSlots(slots, [2.4, 1, 1], 10)[0]).toEqual({ start: 1, speed: 1.2, length: 2, trimmed: false });
    const [first] = fitSlots(slots, [3.5, 1, 1], 10);
    expect(first!.speed).toBe(MAX_DUB_SPEEDUP);
    // 3.5 s at 1.4× is 2.5 s: it borrows half a second of the silence before the next sentence.
    expect(first).toEqual({ start: 1, speed: 1.4, length: 2.5, trimmed: false });
  });

  it('trims what runs past the next sentence or the end of the video', () => {
    const placed = fitSlots(slots, [5, 3, 4], 10);
    expect(placed[0]).toEqual({ start: 1, speed: 1.4, length: 3, trimmed: true });
    expect(placed[1]).toEqual({ start: 4, speed: 1.4, length: 2.143, trimmed: false });
    expect(placed[2]).toEqual({ start: 8, speed: 1.4, length: 2, trimmed: true });
    for (let i = 0; i < placed.length - 1; i++) expect(placed[i]!.start + placed[i]!.length).toBeLessThanOrEqual(placed[i + 1]!.start);
  });

  it('copes with a sentence past the end and an empty slot', () => {
    expect(fitSlots([{ start: 9.5, end: 12 }], [2], 10)).toEqual([{ start: 9.5, speed: 1.4, length: 0.5, trimmed: true }]);
    expect(fitSlots([{ start: 2, end: 2 }, { start: 3, end: 4 }], [0.5, 0.5], 5)[0]).toEqual({ start: 2, speed: 1.4, length: 0.357, trimmed: false });
  });
});

describe('reading translated lines back', () => {
  it('takes a JSON array of the asked length, fenced or not', () => {
    expect(parseTranslatedLines('["a", " b "]', 2)).toEqual(['a', 'b']);
    expect(parseTranslatedLines('Here you go:\n```json\n["一", "二"]\n```', 2)).toEqual(['一', '二']);
  });

  it('refuses a different count, blanks, non-strings and prose', () => {
    expect(parseTranslatedLines('["a"]', 2)).toBeUndefined();
    expect(parseTranslatedLines('["a", ""]', 2)).toBeUndefined();
    expect(parseTranslatedLines('["a", 2]', 2)).toBeUndefined();
    expect(parseTranslatedLines('a\nb', 2)).toBeUndefined();
    expect(parseTranslatedLines('[broken', 1)).toBeUndefined();
  });
});
