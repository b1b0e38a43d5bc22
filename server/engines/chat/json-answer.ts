/**
 * Answers a feature asks of the chat engine as JSON of a known shape (translated lines, a video's analysis, scripts):
 * the JSON is taken from the answer (a model may wrap it in a code fence or a sentence), checked by the caller's
 * reader, and asked for once more when it is missing or wrong; a second wrong answer is refused (ChatAnswerInvalid).
 */
import type { ChatEngine, ChatMessage, ChatOptions } from './chat-engine';

/** Two answers without the asked-for JSON. */
export class ChatAnswerInvalid extends Error {
  constructor(readonly lastAnswer: string) {
    super('the chat engine answered twice without the asked-for JSON');
  }
}

/** The JSON object or array in an answer (from its first `{`/`[` to the matching last `}`/`]`), or undefined. */
export function jsonIn(answer: string): unknown {
  const open = answer.search(/[[{]/);
  if (open < 0) return undefined;
  const close = answer.lastIndexOf(answer[open] === '[' ? ']' : '}');
  if (close <= open) return undefined;
  try {
    return JSON.parse(answer.slice(open, close + 1));
  } catch {
    return undefined;
  }
}

/** `read` answers the checked value, or undefined when the JSON is not what was asked for. */
export async function askJson<T>(engine: ChatEngine, messages: ChatMessage[], read: (json: unknown) => T | undefined, options: ChatOptions = {}): Promise<T> {
  let last = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    last = (await engine.complete(messages, options)).content;
    const json = jsonIn(last);
    const value = json === undefined ? undefined : read(json);
    if (value !== undefined) return value;
  }
  throw new ChatAnswerInvalid(last);
}
