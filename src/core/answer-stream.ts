/**
 * Answer streams as the browser reads them: the copy chat's answers and the 二创 rewrites of copy extraction are
 * server-sent events of ChatStreamEvent, opened by GET with the session token in the query.
 */
import type { z } from 'zod';
import { MSG, ResultCode, ChatStreamEvent } from '../contract';
import type { AuthService, Notifier } from './tokens';

/** What an answer stream's events are read as: the copy chat's, or a superset of them (the helper's steps). */
type EventSchema<E extends ChatStreamEvent> = z.ZodType<E>;

/** Splits server-sent events out of `buffered`; returns the events and what is left of an unfinished one. */
export function takeEvents<E extends ChatStreamEvent = ChatStreamEvent>(buffered: string, schema: EventSchema<E> = ChatStreamEvent as unknown as EventSchema<E>): { events: E[]; rest: string } {
  const blocks = buffered.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  const events: E[] = [];
  for (const block of blocks) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:')) // `: keep-alive` comments carry nothing
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    const parsed = schema.safeParse(JSON.parse(data));
    if (parsed.success) events.push(parsed.data);
  }
  return { events, rest };
}

/** Thrown when the stream was refused before it opened; `code` 100 means the session is gone. */
export class StreamRefused extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

/** Reads the answer stream until it ends or `signal` aborts (stop); each event goes to `onEvent`. */
export async function readAnswer(url: string, signal: AbortSignal, onEvent: (e: ChatStreamEvent) => void, schema?: EventSchema<ChatStreamEvent>): Promise<void> {
  const res = await fetch(url, { signal, headers: { accept: 'text/event-stream' } });
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const body = (await res.json().catch(() => ({}))) as { code?: number; msg?: string };
    throw new StreamRefused(body.msg || MSG.serverError, body.code ?? ResultCode.Error);
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const { events, rest } = takeEvents(buffered + value, schema);
    buffered = rest;
    for (const e of events) onEvent(e);
  }
}

/** What following a stream needs: the reader (a spec passes its own), where errors are shown, and the session. */
export interface AnswerFollower {
  read: typeof readAnswer;
  notifier: Pick<Notifier, 'error'>;
  auth: Pick<AuthService, 'expire'>;
}

/**
 * Reads one answer stream as a screen shows it: each event to `onEvent`, an error event shown; a refusal or a broken
 * stream shown and handed to `onFailure` (a refusal for a gone session ends the session), unless `signal` stopped it.
 */
export async function followAnswer(
  s: AnswerFollower,
  url: string,
  signal: AbortSignal,
  onEvent: (e: ChatStreamEvent) => void,
  onFailure: (message: string) => void,
): Promise<void> {
  try {
    await s.read(url, signal, (e) => {
      onEvent(e);
      if (e.error) s.notifier.error(e.error);
    });
  } catch (err) {
    if (!signal.aborted) {
      if (err instanceof StreamRefused && err.code === ResultCode.SessionExpired) s.auth.expire();
      const message = err instanceof Error ? err.message : String(err);
      s.notifier.error(message);
      onFailure(message);
    }
  }
}
