/**
 * What the creation helpers (polish, AI writing) and later the copy chat ask of a text model: one
 * non-streaming completion of a list of messages. The adapter is OpenAI-compatible (DeepSeek by default).
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** 0–2; the provider's default when absent. */
  temperature?: number;
  /** Upper bound of generated tokens. */
  maxTokens?: number;
}

export interface ChatCompletion {
  content: string;
  /** stop, length, content_filter, … as the provider says ('' when it says nothing). */
  finishReason: string;
}

/** One piece of a streamed answer: text of the answer, or of the reasoning that comes before it (r1). */
export interface ChatDelta {
  content?: string;
  reasoning?: string;
}

export interface ChatStreamOptions extends ChatOptions {
  /** The model to ask instead of the configured chat model (the reasoning model for r1). */
  model?: string;
  /** Aborts the upstream request (the browser went away). */
  signal?: AbortSignal;
}

export interface ChatEngine {
  complete(messages: ChatMessage[], options?: ChatOptions): Promise<ChatCompletion>;
  /** The answer as it is generated; ends at the provider's [DONE]. */
  stream(messages: ChatMessage[], options?: ChatStreamOptions): AsyncGenerator<ChatDelta>;
}

/**
 * A provider failure. `message` is the user-facing Chinese sentence (from MSG); `detail` is for the log and
 * never carries the API key.
 */
export class ChatEngineError extends Error {
  constructor(
    message: string,
    readonly detail: string,
    /** True when trying again later may succeed (timeouts, rate limits, 5xx). */
    readonly transient = false,
  ) {
    super(message);
  }
}
