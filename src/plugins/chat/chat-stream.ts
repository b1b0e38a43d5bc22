/** The answer stream as the browser reads it, and the typing effect's pace (part 2 §4, §9). */
import { API, LIMITS } from '../../contract';
import { readAnswer, StreamRefused, takeEvents } from '../../core';

// Read by the chat's state and spec from here (the reader is core's, shared with copy extraction's rewrites).
export { readAnswer, StreamRefused, takeEvents };

/** The stream's address: the token rides in the query (an event stream cannot set headers). */
export function answerStreamUrl(token: string, ids: { cid: number; mid: number }): string {
  return `${API.chat.stream.path}?${new URLSearchParams({ token, cid: String(ids.cid), mid: String(ids.mid) })}`;
}

/**
 * How many characters the typing effect shows on its next 30 ms tick: one, or more when the stream is far ahead,
 * so the backlog is gone within about LIMITS.chatTypingCatchUpChars ticks whatever its size.
 */
export function typingStep(waiting: number): number {
  if (waiting <= 0) return 0;
  return waiting > LIMITS.chatTypingCatchUpChars ? Math.ceil(waiting / LIMITS.chatTypingCatchUpChars) : 1;
}
