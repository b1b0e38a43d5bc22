/**
 * A loopback peer speaking the OpenAI-compatible chat-completions API (what DeepSeek serves): POST
 * {base}/chat/completions with `Authorization: Bearer <key>` and a JSON body {model, messages, temperature,
 * max_tokens, stream}. It checks the key and the body's shape, records every request, and answers as the
 * test says: a reply text (or a function of the last user message), an HTTP error, a slow answer, broken JSON,
 * no choices, or a finish reason. With `stream: true` it answers in server-sent events as DeepSeek does: a
 * `: keep-alive` comment first, `data: {choices: [{delta}]}` chunks (`reasoning_content` first when the reply
 * has reasoning, as deepseek-reasoner streams it), then `data: [DONE]`; optionally slowly, or cut mid-stream.
 * Tool calling on cue (`agent`): the test decides from each request (its tools, the tool answers so far) whether the
 * model answers text or asks for tools, streamed as `delta.tool_calls` pieces (id and name first, the arguments in
 * fragments) with finish reason `tool_calls`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerMessage {
  role: string;
  content: string;
}

export interface PeerRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: PeerMessage[];
    temperature?: number;
    max_tokens?: number;
    stream?: boolean;
    [key: string]: unknown;
  };
  /** The system prompt and the last user message, for assertions. */
  system: string;
  user: string;
}

export type PeerBehaviour =
  /**
   * 200 with this text as choices[0].message.content (a function gets the last user message). Streamed: the
   * reasoning then the text in chunks of `chunkChars`, `chunkDelayMs` apart; `failAfterChunks` drops the
   * connection after that many text chunks (no [DONE]); `holdBeforeEnd` keeps the stream open after the last chunk
   * until it resolves (a test that acts while an answer is still streaming).
   */
  | {
      kind: 'reply';
      text: string | ((user: string, req: PeerRequest) => string);
      finishReason?: string;
      delayMs?: number;
      reasoning?: string;
      chunkChars?: number;
      chunkDelayMs?: number;
      failAfterChunks?: number;
      holdBeforeEnd?: Promise<void>;
    }
  /** This HTTP status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message?: string }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** 200 with `choices: []`. */
  | { kind: 'empty' }
  /** Tool calling: per request, a text answer or tools to call (streamed only). */
  | { kind: 'agent'; next: (req: PeerRequest) => { text: string } | { tools: { name: string; arguments: unknown }[] } };

export interface OpenAiPeer {
  /** Base URL to configure (`chat_base_url`), e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  apiKey: string;
  requests: PeerRequest[];
  /** Requests the peer refused for their shape (none expected). */
  shapeErrors: string[];
  /** Streams whose client closed the connection before [DONE]. */
  abortedStreams: number;
  /** What the next requests get (default: the last user message echoed back). */
  behave(b: PeerBehaviour): void;
  close(): Promise<void>;
}

const PLACEHOLDER = /\{\{P\d+\}\}/g;

/** Drops the `{{Pn}}` pause placeholders from a text, as a careless model would. */
export const dropPlaceholders = (text: string) => text.replace(PLACEHOLDER, '');

function shapeError(body: unknown): string | null {
  if (!body || typeof body !== 'object') return 'body is not a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || !b.model) return 'model must be a non-empty string';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages must be a non-empty array';
  for (const m of b.messages as unknown[]) {
    const msg = m as Record<string, unknown>;
    if (!msg || !['system', 'user', 'assistant', 'tool'].includes(msg.role as string)) return 'message role must be system, user, assistant or tool';
    if (typeof msg.content !== 'string') return 'message content must be a string';
    if (msg.role === 'tool' && (typeof msg.tool_call_id !== 'string' || !msg.tool_call_id)) return 'a tool message needs its tool_call_id';
    if (msg.tool_calls !== undefined && (msg.role !== 'assistant' || !Array.isArray(msg.tool_calls))) return 'tool_calls belong to an assistant message';
  }
  if (b.tools !== undefined) {
    if (!Array.isArray(b.tools)) return 'tools must be an array';
    for (const t of b.tools as { type?: unknown; function?: { name?: unknown; parameters?: { type?: unknown } } }[]) {
      if (t.type !== 'function' || typeof t.function?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.function.name)) return 'a tool needs type function and a name of letters, digits, _ or -';
      if (t.function.parameters?.type !== 'object') return 'a tool\'s parameters must be a JSON schema of an object';
    }
  }
  if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 2)) return 'temperature must be 0–2';
  if (b.max_tokens !== undefined && (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1)) return 'max_tokens must be a positive integer';
  if (b.stream !== undefined && typeof b.stream !== 'boolean') return 'stream must be a boolean';
  return null;
}

export async function startOpenAiPeer(apiKey = 'sk-peer-test-0123456789'): Promise<OpenAiPeer> {
  let behaviour: PeerBehaviour = { kind: 'reply', text: (user) => user };
  const requests: PeerRequest[] = [];
  const shapeErrors: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const counters = { abortedStreams: 0 };

  /** Writes the answer as server-sent events, chunk by chunk. */
  async function streamReply(res: http.ServerResponse, model: string, text: string, b: Extract<PeerBehaviour, { kind: 'reply' }>) {
    const size = b.chunkChars ?? 3;
    const pieces = (t: string) => Array.from({ length: Math.ceil([...t].length / size) }, (_, i) => [...t].slice(i * size, (i + 1) * size).join(''));
    let finished = false;
    res.on('close', () => {
      if (!finished) counters.abortedStreams++;
    });
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      });
    const event = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-stream', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(': keep-alive\n\n');
    if (b.delayMs) await wait(b.delayMs);
    const reasoning = b.reasoning ? pieces(b.reasoning).map((r) => ({ reasoning_content: r, content: null })) : [];
    const answer = pieces(text).map((c) => ({ content: c }));
    let sentText = 0;
    for (const delta of [{ role: 'assistant', content: '' }, ...reasoning, ...answer]) {
      if (res.destroyed) return;
      if (b.failAfterChunks !== undefined && 'content' in delta && delta.content && sentText >= b.failAfterChunks) {
        finished = true;
        res.destroy();
        return;
      }
      res.write(event(delta));
      if ('content' in delta && delta.content) sentText++;
      // A keep-alive comment between chunks now and then, as providers send while busy.
      if (sentText === 2) res.write(': keep-alive\n\n');
      if (b.chunkDelayMs) await wait(b.chunkDelayMs);
    }
    if (b.holdBeforeEnd) await b.holdBeforeEnd;
    if (res.destroyed) return;
    res.write(event({}, b.finishReason ?? 'stop'));
    res.write('data: [DONE]\n\n');
    finished = true;
    res.end();
  }

  /** Asks for tools as a model streams it: each call's id and name, then its arguments in two fragments. */
  function streamTools(res: http.ServerResponse, model: string, tools: { name: string; arguments: unknown }[]) {
    const event = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-tools', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(event({ role: 'assistant', content: null }));
    tools.forEach((t, index) => {
      const args = JSON.stringify(t.arguments);
      const half = Math.ceil(args.length / 2);
      res.write(event({ tool_calls: [{ index, id: `call_${requests.length}_${index}`, type: 'function', function: { name: t.name, arguments: '' } }] }));
      res.write(event({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
      res.write(event({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
    res.write(event({}, 'tool_calls'));
    res.write('data: [DONE]\n\n');
    res.end();
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, message: string, type: string) => json(status, { error: { message, type, param: null, code: null } });

      const path = new URL(req.url ?? '/', 'http://peer').pathname;
      if (req.method !== 'POST' || path !== '/v1/chat/completions') return error(404, `no route ${req.method} ${path}`, 'invalid_request_error');
      const authorization = req.headers.authorization;
      if (authorization !== `Bearer ${apiKey}`) {
        const given = authorization?.replace(/^Bearer /, '') ?? '';
        // Like real providers, echo part of the wrong key back.
        return error(401, `Incorrect API key provided: ${given}. Your api key ****${given.slice(-4)} is invalid.`, 'authentication_error');
      }
      if (!String(req.headers['content-type']).startsWith('application/json')) return error(400, 'content-type must be application/json', 'invalid_request_error');
      let body: PeerRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PeerRequest['body'];
      } catch {
        shapeErrors.push('body is not JSON');
        return error(400, 'body is not JSON', 'invalid_request_error');
      }
      const bad = shapeError(body);
      if (bad) {
        shapeErrors.push(bad);
        return error(400, bad, 'invalid_request_error');
      }
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const record: PeerRequest = { method: req.method, path, authorization, body, system, user };
      requests.push(record);

      const b = behaviour;
      if (b.kind === 'status') return error(b.status, b.message ?? `peer status ${b.status}`, b.status === 429 ? 'rate_limit_error' : 'api_error');
      if (b.kind === 'malformed') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"id": "chatcmpl-broken", "choices": [');
      }
      const completion = (choices: unknown[]) => ({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices,
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      });
      if (b.kind === 'empty') return json(200, completion([]));
      if (b.kind === 'agent') {
        const step = b.next(record);
        if ('text' in step) return void streamReply(res, body.model, step.text, { kind: 'reply', text: step.text }).catch(() => res.destroy());
        return streamTools(res, body.model, step.tools);
      }
      const text = typeof b.text === 'function' ? b.text(user, record) : b.text;
      if (body.stream) return void streamReply(res, body.model, text, b).catch(() => res.destroy());
      const send = () => json(200, completion([{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: b.finishReason ?? 'stop' }]));
      if (!b.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, b.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    shapeErrors,
    get abortedStreams() {
      return counters.abortedStreams;
    },
    behave(b) {
      behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
