/** Reading an answer stream (server-sent ChatStreamEvents) in server specs, as the browser would. */
import type { ChatStreamEvent } from '../../src/contract';

/**
 * Reads the opened stream `res` to its end: each chunk to `on.raw`, each event to `on.event`. With `stopAfter`, aborts
 * `stop` (the browser going away) once that many events carried text; that abort ends the read, it is no error.
 */
export async function readAnswerEvents(
  res: Response,
  stop: AbortController,
  on: { event: (e: ChatStreamEvent) => void; raw?: (chunk: string) => void },
  stopAfter?: number,
): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let withText = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      on.raw?.(value);
      buffered += value;
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop()!;
      for (const block of blocks) {
        if (!block.startsWith('data: ')) continue;
        const event = JSON.parse(block.slice(6)) as ChatStreamEvent;
        if (event.message) withText++;
        on.event(event);
      }
      if (stopAfter !== undefined && withText >= stopAfter) {
        stop.abort();
        break;
      }
    }
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  }
}
