import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../contract';
import { answerDone, exchange, fromMessage, lastModel, materialName, patchLast, shownText, stopped, typeTick, typing } from './chat-view';

describe('chat view rules', () => {
  it('a sent question and its streaming answer; stored messages arrive typed out', () => {
    const [q, a] = exchange(7, '你好😀', 'r1');
    expect(q).toMatchObject({ key: 'q7', role: 'user', shown: 3, streaming: false });
    expect(a).toMatchObject({ key: 'm7', role: 'assistant', model: 'r1', shown: 0, streaming: true, content: '' });
    const m = fromMessage({ id: 3, role: 'assistant', content: '答😀', model: 'v3' });
    expect([m.key, m.shown, m.reasoning, answerDone(m), shownText(m)]).toEqual(['m3', 2, '', true, '答😀']);
  });

  it('types by characters, not code units, and catches up when far behind', () => {
    let bubbles = [{ ...exchange(1, 'q', 'v3')[1]!, content: '😀😀😀' }];
    expect(typing(bubbles)).toBe(true);
    bubbles = typeTick(bubbles);
    expect(shownText(bubbles[0]!)).toBe('😀');
    const far = [{ ...bubbles[0]!, content: 'x'.repeat(LIMITS.chatTypingCatchUpChars * 10), shown: 0 }];
    expect(typeTick(far)[0]!.shown).toBe(10);
    const done = typeTick(typeTick(bubbles));
    expect([typing(done), answerDone(done[0]!), answerDone(stopped({ ...far[0]! }))]).toEqual([false, false, true]);
  });

  it('changes only the last bubble, picks the last answer model, names a saved answer', () => {
    const bubbles = exchange(1, 'q', 'v3');
    const patched = patchLast(bubbles, (b) => ({ ...b, content: 'a' }));
    expect([patched[0], patched[1]!.content]).toEqual([bubbles[0], 'a']);
    expect(patchLast([], (b) => b)).toEqual([]);
    expect(lastModel([{ id: 1, role: 'assistant', content: '', model: 'r1' }, { id: 2, role: 'assistant', content: '', model: 'v3' }, { id: 3, role: 'user', content: '' }])).toBe('v3');
    expect(lastModel([{ id: 3, role: 'user', content: '' }])).toBeUndefined();
    expect(materialName('  a\n\n b  ')).toBe('a b');
    expect([...materialName('一'.repeat(20))]).toHaveLength(15);
  });
});
