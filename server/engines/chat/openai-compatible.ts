/**
 * OpenAI-compatible chat completions: POST {base_url}/chat/completions with `Authorization: Bearer <key>` and
 * `{model, messages, temperature, max_tokens, stream: false}`; the answer is `choices[0].message.content`.
 * DeepSeek by default (https://api.deepseek.com, model deepseek-chat; their docs also accept …/v1 as base URL).
 * Any provider speaking the same API (OpenAI, Moonshot, Qwen's compatible mode, a local vLLM/Ollama) works by
 * configuration. Failures become ChatEngineError with a Chinese message from MSG; the key is never logged.
 */
import { MSG } from '../../../src/contract';
import { ChatEngineError, type ChatCompletion, type ChatEngine, type ChatMessage, type ChatOptions } from './chat-engine';

export const DEFAULT_CHAT_BASE_URL = 'https://api.deepseek.com';
export const DEFAULT_CHAT_MODEL = 'deepseek-chat';
/** Below the browser's 30 s request timeout (LIMITS.requestTimeoutMs), so the user reads our message, not a network error. */
export const DEFAULT_CHAT_TIMEOUT_MS = 25_000;

export interface OpenAiCompatibleConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
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
    const body = {
      model: this.config.model,
      messages,
      temperature: options.temperature ?? 1,
      max_tokens: options.maxTokens ?? 2048,
      stream: false,
    };
    let res: Response;
    let text: string;
    try {
      res = await fetch(chatCompletionsUrl(this.config.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${this.config.apiKey}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        throw new ChatEngineError(MSG.chatEngineTimeout, `no answer within ${this.config.timeoutMs} ms`, true);
      }
      throw new ChatEngineError(MSG.chatEngineUnreachable, this.redact(`${e.message}${e.cause?.code ? ` (${e.cause.code})` : ''}`), true);
    }

    if (!res.ok) throw this.httpError(res.status, text);

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

  private httpError(status: number, text: string): ChatEngineError {
    const detail = this.redact(`status ${status}: ${providerMessage(text).slice(0, DETAIL_MAX)}`);
    if (status === 401 || status === 403) return new ChatEngineError(MSG.chatEngineAuthFailed, detail);
    if (status === 402) return new ChatEngineError(MSG.chatEngineNoBalance, detail);
    if (status === 429) return new ChatEngineError(MSG.chatEngineBusy, detail, true);
    if (status === 408 || status === 504) return new ChatEngineError(MSG.chatEngineTimeout, detail, true);
    if (status >= 500) return new ChatEngineError(MSG.chatEngineDown, detail, true);
    return new ChatEngineError(MSG.chatEngineRejected, detail);
  }

  /** Providers echo the key or its last characters (`****abcd`) in 401 messages; none of it reaches a log line. */
  private redact(text: string): string {
    const key = this.config.apiKey;
    let out = key ? text.split(key).join('***') : text;
    if (key.length >= 8) out = out.split(key.slice(-4)).join('***');
    return out.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/g, '$1***');
  }
}

/** `{"error": {"message": …}}` (OpenAI, DeepSeek) or the raw text. */
function providerMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (typeof json.error?.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: keep the text
  }
  return text;
}
