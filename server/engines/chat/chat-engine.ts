/**
 * What the creation helpers (polish, AI writing) and later the copy chat ask of a text model: one
 * non-streaming completion of a list of messages. The adapter is OpenAI-compatible (DeepSeek by default).
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant turn that asked for tools (tool calling). */
  toolCalls?: ChatToolCall[];
  /** A tool turn: the call it answers. */
  toolCallId?: string;
}

/** A function the model may ask to run (tool calling): its JSON schema describes the arguments. */
export interface ChatTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** The model asks for a tool: `arguments` is its JSON text, as the model wrote it (the caller checks it). */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
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
  /** The tools the model asks for, whole, once the stream has told them all (just before it ends). */
  toolCalls?: ChatToolCall[];
}

export interface ChatStreamOptions extends ChatOptions {
  /** The model to ask instead of the configured chat model (the reasoning model for r1). */
  model?: string;
  /** Aborts the upstream request (the browser went away). */
  signal?: AbortSignal;
  /** Tools the model may ask for instead of (or before) answering. */
  tools?: ChatTool[];
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
