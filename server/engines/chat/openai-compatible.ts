/**
 * OpenAI-compatible chat completions: POST {base_url}/chat/completions with `Authorization: Bearer <key>` and
 * `{model, messages, temperature, max_tokens, stream: false}`; the answer is `choices[0].message.content`.
 * DeepSeek by default (https://api.deepseek.com, model deepseek-chat; their docs also accept …/v1 as base URL).
 * Any provider speaking the same API (OpenAI, Moonshot, Qwen's compatible mode, a local vLLM/Ollama) works by
 * configuration. Failures become ChatEngineError with a Chinese message from MSG; the key is never logged.
 * `stream` asks with `stream: true` and reads server-sent events: `data: {choices: [{delta: {content,
 * reasoning_content}}]}` lines, `:` keep-alive comments (DeepSeek sends them while busy), `data: [DONE]` at the end.
 * Tool calling: `tools: [{type: 'function', function: {name, description, parameters}}]` in the request; the stream's
 * `delta.tool_calls` pieces (by `index`: id and name once, `function.arguments` in fragments) are joined and yielded
 * whole before the end.
 */
import { MSG } from '../../../src/contract';
import { providerErrorMessage, redactKey } from '../provider-http';
import { ChatEngineError, type ChatCompletion, type ChatDelta, type ChatEngine, type ChatMessage, type ChatOptions, type ChatStreamOptions, type ChatToolCall } from './chat-engine';

export const DEFAULT_CHAT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_CHAT_MODEL = 'deepseek-chat';
/** The copy chat's r1: DeepSeek's reasoning model, which streams `reasoning_content` before the answer. */
export const DEFAULT_REASONING_MODEL = 'deepseek-reasoner';
/** Below the browser's 30 s request timeout (LIMITS.requestTimeoutMs), so the user reads our message, not a network error. */
export const DEFAULT_CHAT_TIMEOUT_MS = 25_000;

export interface OpenAiCompatibleConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  reasoningModel: string;
  /** Whole answer for `complete`; for `stream`, the wait for the headers and the longest silence between chunks. */
  timeoutMs: number;
}

/** Provider error bodies kept in the log, at most this long. */
const DETAIL_MAX = 300;

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}/chat/completions`;
}

export class OpenAiCompatibleChat implements ChatEngine {
  constructor(private readonly config: OpenAiCompatibleConfig) {}

  async complete(messages: ChatMessage[], options: ChatOptions = {}): Promise<ChatCompletion> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const res = await this.post(messages, options, false, timeout);
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw this.transportError(err);
    }

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ChatEngineError(MSG.chatEngineBadReply, this.redact(`status ${res.status}, not JSON: ${text.slice(0, DETAIL_MAX)}`), true);
    }
    const choice = (json as { choices?: unknown })?.choices;
    const first = Array.isArray(choice) ? (choice[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined) : undefined;
    if (!first) throw new ChatEngineError(MSG.chatEngineBadReply, 'no choices in the answer', true);
    const finishReason = typeof first.finish_reason === 'string' ? first.finish_reason : '';
    const content = first.message?.content;
    if (finishReason === 'content_filter') throw new ChatEngineError(MSG.chatContentBlocked, 'finish_reason content_filter');
    if (typeof content !== 'string' || !content.trim()) {
      throw new ChatEngineError(MSG.chatEngineBadReply, `empty content (finish_reason ${finishReason || 'none'})`, true);
    }
    return { content, finishReason };
  }

  async *stream(messages: ChatMessage[], options: ChatStreamOptions = {}): AsyncGenerator<ChatDelta> {
    // Silence is what times out, not length: every chunk (keep-alive comments too) restarts the clock.
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), this.config.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, idle.signal]) : idle.signal;
    const res = await this.post(messages, options, true, signal, idle.signal);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    const calls: ChatToolCall[] = [];
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch (err) {
          const e = this.transportError(err, idle.signal);
          // Cut after it began: the provider's side broke, not the way to it.
          throw e instanceof ChatEngineError && e.message === MSG.chatEngineUnreachable ? new ChatEngineError(MSG.chatEngineDown, `stream broke: ${e.detail}`, true) : e;
        }
        if (chunk.done) throw new ChatEngineError(MSG.chatEngineDown, 'stream ended before [DONE]', true);
        clearTimeout(timer);
        timer = setTimeout(() => idle.abort(), this.config.timeoutMs);
        buffered += chunk.value;
        const lines = buffered.split(/\r?\n/);
        buffered = lines.pop()!;
        for (const line of lines) {
          if (!line.startsWith('data:')) continue; // blank separators, `: keep-alive` comments, event:/id: fields
          const data = line.slice(5).trim();
          if (data === '[DONE]') {
            if (calls.length) yield { toolCalls: calls.filter((c) => c.name) };
            return;
          }
          const delta = this.parseChunk(data, calls);
          if (delta.content || delta.reasoning) yield delta;
        }
      }
    } finally {
      clearTimeout(timer);
      // Leaving early (the browser went away) closes the upstream connection too.
      await reader.cancel().catch(() => undefined);
    }
  }

  /** One chunk's text; its tool-call pieces are added to `calls`. */
  private parseChunk(data: string, calls: ChatToolCall[]): ChatDelta {
    type ToolPiece = { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    let json: { choices?: { delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: ToolPiece[] }; finish_reason?: unknown }[]; error?: unknown };
    try {
      json = JSON.parse(data) as typeof json;
    } catch {
      throw new ChatEngineError(MSG.chatEngineBadReply, this.redact(`stream chunk is not JSON: ${data.slice(0, DETAIL_MAX)}`), true);
    }
    if (json.error) throw new ChatEngineError(MSG.chatEngineDown, this.redact(`error in stream: ${JSON.stringify(json.error).slice(0, DETAIL_MAX)}`), true);
    const first = json.choices?.[0];
    if (first?.finish_reason === 'content_filter') throw new ChatEngineError(MSG.chatContentBlocked, 'finish_reason content_filter');
    for (const piece of Array.isArray(first?.delta?.tool_calls) ? first.delta.tool_calls : []) {
      const index = typeof piece.index === 'number' ? piece.index : calls.length;
      const call = (calls[index] ??= { id: '', name: '', arguments: '' });
      if (typeof piece.id === 'string' && piece.id) call.id = piece.id;
      if (typeof piece.function?.name === 'string' && piece.function.name) call.name = piece.function.name;
      if (typeof piece.function?.arguments === 'string') call.arguments += piece.function.arguments;
    }
    const content = first?.delta?.content;
    const reasoning = first?.delta?.reasoning_content;
    return { content: typeof content === 'string' ? content : undefined, reasoning: typeof reasoning === 'string' ? reasoning : undefined };
  }

  /** Sends the request; a refused one (not 2xx) becomes the matching ChatEngineError. */
  private async post(messages: ChatMessage[], options: ChatStreamOptions, stream: boolean, signal: AbortSignal, timeoutSignal = signal): Promise<Response> {
    const body = {
      model: options.model ?? this.config.model,
      messages: messages.map(wireMessage),
      temperature: options.temperature ?? 1,
      max_tokens: options.maxTokens ?? 2048,
      stream,
      ...(options.tools?.length ? { tools: options.tools.map((t) => ({ type: 'function', function: t })) } : {}),
    };
    let res: Response;
    try {
      res = await fetch(chatCompletionsUrl(this.config.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', authorization: `Bearer ${this.config.apiKey}`,
        },
        body: JSON.stringify(body),
        signal,
        redirect: 'error',
      });
    } catch (err) {
      throw this.transportError(err, timeoutSignal);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw this.httpError(res.status, text);
    }
    return res;
  }

  /** A failed fetch or body read: our timeout, the caller's abort (rethrown as is), or an unreachable host. */
  private transportError(err: unknown, timeoutSignal?: AbortSignal): unknown {
    const e = err as Error & { cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError' || (timeoutSignal ? timeoutSignal.aborted : e.name === 'AbortError');
    if (timedOut) return new ChatEngineError(MSG.chatEngineTimeout, `no answer within ${this.config.timeoutMs} ms`, true);
    if (e.name === 'AbortError') return err;
    return new ChatEngineError(MSG.chatEngineUnreachable, this.redact(`${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`), true);
  }

  private httpError(status: number, text: string): ChatEngineError {
    const detail = this.redact(`status ${status}: ${providerErrorMessage(text).slice(0, DETAIL_MAX)}`);
    if (status === 401 || status === 403) return new ChatEngineError(MSG.chatEngineAuthFailed, detail);
    if (status === 402) return new ChatEngineError(MSG.chatEngineNoBalance, detail);
    if (status === 429) return new ChatEngineError(MSG.chatEngineBusy, detail, true);
    if (status === 408 || status === 504) return new ChatEngineError(MSG.chatEngineTimeout, detail, true);
    if (status >= 500) return new ChatEngineError(MSG.chatEngineDown, detail, true);
    return new ChatEngineError(MSG.chatEngineRejected, detail);
  }

  private redact(text: string): string {
    return redactKey(text, this.config.apiKey);
  }
}

/** A message as the API spells it: tool calls and tool answers in their snake_case fields. */
function wireMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
  if (m.toolCalls?.length) {
    return { role: m.role, content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) };
  }
  return { role: m.role, content: m.content };
}
