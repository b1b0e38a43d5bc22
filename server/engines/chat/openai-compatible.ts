/**
 * OpenAI-compatible chat completions: POST {base_url}/chat/completions with `Authorization: Bearer <key>` and
 * `{model, messages, temperature, max_tokens, stream: false}`; the answer is `choices[0].message.content`.
 * DeepSeek by default (https://api.deepseek.com, model deepseek-chat; their docs also accept …/v1 as base URL).
 * Any provider speaking the same API (OpenAI, Moonshot, Qwen's compatible mode, a local vLLM/Ollama) works by
 * configuration. Failures become ChatEngineError with a Chinese message from MSG; the key is never logged.
 * `stream` asks with `stream: true` and reads server-sent events: `data: {choices: [{delta: {content,
 * reasoning_content}}]}` lines, `:` keep-alive comments (DeepSeek sends them while busy), `data: [DONE]` at the end.
 */
import { MSG } from '../../../src/contract';
import { providerErrorMessage, redactKey } from '../provider-http';
import { ChatEngineError, type ChatCompletion, type ChatDelta, type ChatEngine, type ChatMessage, type ChatOptions, type ChatStreamOptions } from './chat-engine';

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
          if (data === '[DONE]') return;
          const delta = this.parseChunk(data);
          if (delta.content || delta.reasoning) yield delta;
        }
      }
    } finally {
      clearTimeout(timer);
      // Leaving early (the browser went away) closes the upstream connection too.
      await reader.cancel().catch(() => undefined);
    }
  }

  private parseChunk(data: string): ChatDelta {
    let json: { choices?: { delta?: { content?: unknown; reasoning_content?: unknown }; finish_reason?: unknown }[]; error?: unknown };
    try {
      json = JSON.parse(data) as typeof json;
    } catch {
      throw new ChatEngineError(MSG.chatEngineBadReply, this.redact(`stream chunk is not JSON: ${data.slice(0, DETAIL_MAX)}`), true);
    }
    if (json.error) throw new ChatEngineError(MSG.chatEngineDown, this.redact(`error in stream: ${JSON.stringify(json.error).slice(0, DETAIL_MAX)}`), true);
    const first = json.choices?.[0];
    if (first?.finish_reason === 'content_filter') throw new ChatEngineError(MSG.chatContentBlocked, 'finish_reason content_filter');
    const content = first?.delta?.content;
    const reasoning = first?.delta?.reasoning_content;
    return { content: typeof content === 'string' ? content : undefined, reasoning: typeof reasoning === 'string' ? reasoning : undefined };
  }

  /** Sends the request; a refused one (not 2xx) becomes the matching ChatEngineError. */
  private async post(messages: ChatMessage[], options: ChatStreamOptions, stream: boolean, signal: AbortSignal, timeoutSignal = signal): Promise<Response> {
    const body = {
      model: options.model ?? this.config.model,
      messages,
      temperature: options.temperature ?? 1,
      max_tokens: options.maxTokens ?? 2048,
      stream,
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
