import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../contract';
import { answerStreamUrl, takeEvents, typingStep } from './chat-stream';

describe('chat stream reading', () => {
  it('takes complete events, skips keep-alive comments, keeps the unfinished rest', () => {
    const { events, rest } = takeEvents(': keep-alive\n\ndata: {"message":"你好"}\n\ndata: {"message":"","reasoning":"想"}\n\ndata: {"mess');
    expect(events).toEqual([{ message: '你好' }, { message: '', reasoning: '想' }]);
    expect(rest).toBe('data: {"mess');
    expect(takeEvents(`${rest}age":"！","done":1}\n\n`).events).toEqual([{ message: '！', done: 1 }]);
  });

  it('puts the token and ids in the query', () => {
    expect(answerStreamUrl('tok', { cid: 3, mid: 9 })).toBe('/api/chat/index?token=tok&cid=3&mid=9');
  });

  it('types one character a tick and catches up when far behind', () => {
    expect(typingStep(0)).toBe(0);
    expect(typingStep(1)).toBe(1);
    expect(typingStep(LIMITS.chatTypingCatchUpChars)).toBe(1);
    expect(typingStep(LIMITS.chatTypingCatchUpChars * 10)).toBe(10);
    // A 6000-character backlog is typed within ~60 ticks plus the final one-a-tick stretch.
    let waiting = 6000;
    let ticks = 0;
    while (waiting > 0) {
      waiting -= typingStep(waiting);
      ticks++;
    }
    expect(ticks).toBeLessThan(LIMITS.chatTypingCatchUpChars * 6);
  });
});
