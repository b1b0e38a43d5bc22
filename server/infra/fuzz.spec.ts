/**
 * Seeded fuzzing of the whole call catalogue over real HTTP (PGlite only: what it finds is the router's and the
 * handlers', not the database's). Each request starts from a call's baseline (params its schema accepts, with a
 * real session token) and changes some of it: wrong types, huge strings, negative and NaN numbers, arrays for
 * scalars, unicode, SQL-, path- and HTML-like text, unknown keys, broken envelopes and tokens. Every reply must be
 * the contract's shape (code 0/1/100, sealed and verifiable for checked calls), never a 5xx, never the text of an
 * exception or a server path, and arrive within 5 s.
 *
 * The test user has no credits and no uploads, so calls that would start renders or clones reach their handlers
 * and are refused there (the count of requests that passed validation is asserted per call) without queueing work.
 * `FUZZ_SEED=<n>` replays a run; `FUZZ_REQUESTS=<n>` changes its length (at least 3,000 in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CALLS, API, MSG, OPERATOR_KEY_HEADER, TOKEN_HEADER, openReply, paramsInQuery, sealRequest, type CallDef } from '../../src/contract';
import { startApp, type TestApp } from '../../tests/support/app';
import { ROOT } from '../../tests/support/server';
import { baseline } from '../../tests/support/call-values';
import { serverEnvelopeKeys } from './envelope-keys';
import { operatorKey } from './data-dir';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
const REQUESTS = Math.max(Number(process.env.FUZZ_REQUESTS ?? 3000), 1);
const CONCURRENCY = 4;
const SLOW_MS = 5000;
/** The answer streams: the token rides in their query, and they answer text/event-stream. */
const STREAMS: string[] = [API.chat.stream.id, API.copywrite.rewrite.id, API.bot.stream.id, API.helper.guide.id, API.helper.operate.id];
/** Calls whose token rides in their query: the streams, and a bot's spoken sentence (an audio element's source). */
const TOKEN_IN_QUERY: string[] = [...STREAMS, API.bot.speech.id];

/** mulberry32: small, seedable, good enough to pick cases. */
function prng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

const HOSTILE: Record<string, (rng: Rng, base: unknown) => unknown> = {
  wrongType: (rng, base) => rng.pick([true, false, null, {}, { a: 1 }, [], [[1]], 'abc', 0, base === undefined ? 1 : typeof base === 'string' ? 123 : 'x']),
  arrayForScalar: (rng, base) => rng.pick([[base], [base, base], [[base]], []]),
  number: (rng) => rng.pick([-1, -0.5, 1.5, 0, -0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_VALUE, 1e-300, 'NaN', 'Infinity', '-Infinity', '1e309', '0x10', ' 1 ', '1,2', '١٢', '-1', '1.0e2', '']),
  hugeString: (rng) => rng.pick(['x'.repeat(5_000), '字'.repeat(30_000), 'a'.repeat(300_000), '😀'.repeat(3_000), `${'1'.repeat(400)}`]),
  unicode: (rng) => rng.pick(['😀🎬', '\u202Eabc', '\u200B', 'e\u0301', '\ud800', '\uFFFF', '𠜎𠜱', '\r\n\t', '\u2028', 'Ω≈ç√∫', 'ｆｕｌｌ', '\u0085']),
  sql: (rng) => rng.pick(["' OR '1'='1", '1; DROP TABLE users; --', "1' UNION SELECT token_hash FROM sessions --", '%', '_%', '\\', '$1', "');--", '1 OR 1=1']),
  path: (rng) => rng.pick(['../../../../etc/passwd', '/etc/passwd', '..\\..\\boot.ini', 'file:///etc/passwd', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/storage/../../etc/passwd', 'http://127.0.0.1:1/x', '//evil.example/a.mp4', '/etc/passwd/x', `/tmp/${'n'.repeat(300)}.mp4`, '/proc/self/mem', '/dev/zero', '/root']),
  html: (rng) => rng.pick(['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg/onload=alert(1)>', '&lt;b&gt;', 'javascript:alert(1)']),
  template: (rng) => rng.pick(['${7*7}', '{{7*7}}', '__proto__', 'constructor', 'toString', '<#-1#>', '<#NaN#>', '<#1e9#>']),
};
const HOSTILE_KINDS = Object.keys(HOSTILE);

const hostileValue = (rng: Rng, base: unknown) => HOSTILE[rng.pick(HOSTILE_KINDS)]!(rng, base);

/** Changes one place inside an object, an array or a JSON string of either (scene lists, settings). */
function mutateNested(rng: Rng, value: unknown): unknown {
  if (typeof value === 'string' && /^[[{]/.test(value)) {
    try {
      return JSON.stringify(mutateNested(rng, JSON.parse(value)));
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.length ? value.map((v, i) => (i === 0 ? mutateNested(rng, v) : v)) : [hostileValue(rng, undefined)];
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    const key = keys.length && rng.next() < 0.8 ? rng.pick(keys) : rng.pick(['extra', '__proto__', 'id']);
    return { ...value, [key]: rng.next() < 0.3 ? mutateNested(rng, (value as Record<string, unknown>)[key]) : hostileValue(rng, (value as Record<string, unknown>)[key]) };
  }
  return hostileValue(rng, value);
}

type Abuse = 'badSign' | 'stale' | 'garbageData' | 'noEnvelope' | 'bogusToken' | 'noToken' | 'longToken' | 'jsonBody' | 'textBody';
const ABUSES: Abuse[] = ['badSign', 'stale', 'garbageData', 'noEnvelope', 'bogusToken', 'noToken', 'longToken', 'jsonBody', 'textBody'];

interface Case {
  call: CallDef;
  /** The params (a non-object when the whole payload is replaced). */
  params: unknown;
  abuse?: Abuse;
  what: string;
}

function makeCase(rng: Rng, call: CallDef): Case {
  const base = baseline(call);
  const keys = Object.keys(base);
  const roll = rng.next();
  if (roll < 0.1) return { call, params: base, what: 'baseline' };
  if (roll < 0.55) {
    const key = keys.length && rng.next() < 0.9 ? rng.pick(keys) : 'extra';
    return { call, params: { ...base, [key]: hostileValue(rng, base[key]) }, what: `one field ${key}` };
  }
  if (roll < 0.7) {
    const params = { ...base };
    for (let n = 2 + rng.int(3); n > 0; n--) {
      const key = keys.length ? rng.pick(keys) : 'extra';
      params[key] = hostileValue(rng, base[key]);
    }
    return { call, params, what: 'several fields' };
  }
  if (roll < 0.78) {
    const extra = JSON.parse('{"__proto__":{"is_admin":1},"constructor":{"prototype":{"x":1}},"user_id":1,"id":-1}');
    return { call, params: { ...base, ...extra }, what: 'unknown keys' };
  }
  if (roll < 0.85) return { call, params: mutateNested(rng, base), what: 'nested' };
  if (roll < 0.9) return { call, params: rng.pick([[], [base], 'text', 42, null, true]), what: 'whole payload' };
  // A GET or DELETE carries no body, so the body abuses become query ones there.
  const abuse = rng.pick(paramsInQuery(call.method) ? ABUSES.filter((a) => a !== 'jsonBody' && a !== 'textBody') : ABUSES);
  return { call, params: base, abuse, what: 'envelope or token' };
}

/** Texts that only an exception, a query error or the machine's layout would put into a reply. */
function internalDetail(text: string, dataDir: string): string | null {
  const patterns = [/\n\s+at \S/, /\bat \S+ \(\/.*:\d+:\d+\)/, /node_modules/, /\b(?:Type|Reference|Syntax|Range)Error\b/, /\bError: /, /syntax error at/,
    /violates .* constraint/, /duplicate key value/, /relation "\w+"/, /column "\w+"/, /invalid input syntax/, /out of range for type/, /ECONN\w+/];
  for (const p of patterns) if (p.test(text)) return String(p);
  for (const p of [ROOT, dataDir]) if (text.includes(p)) return `path ${p}`;
  return null;
}

interface Sent {
  status: number;
  ms: number;
  contentType: string;
  text: string;
}

describe('fuzzing every call of the catalogue (PGlite)', () => {
  let t: TestApp;
  let userId = 0;
  let token = '';
  let minting: Promise<string> | null = null;

  beforeAll(async () => {
    t = await startApp('pglite');
    userId = await t.createUser('13900000001', 'abc123', 0);
    token = await t.app.ctx.sessions.create(t.app.ctx.db, userId, '127.0.0.1');
  });
  afterAll(() => t?.close());

  /** logout and the like end the session: the next calls get a fresh one. */
  async function freshToken(spent: string): Promise<void> {
    if (spent !== token) return;
    minting ??= t.app.ctx.sessions.create(t.app.ctx.db, userId, '127.0.0.1').finally(() => (minting = null));
    token = await minting;
  }

  async function send(c: Case, useToken: string): Promise<Sent> {
    const { call } = c;
    const inQuery = paramsInQuery(call.method);
    const headers: Record<string, string> = {};
    let fields: Record<string, string> | null = null;
    let body: string | undefined;
    if (call.auth === 'operator') {
      headers[OPERATOR_KEY_HEADER] = operatorKey(t.dataDir);
    } else if (c.abuse === 'bogusToken') headers[TOKEN_HEADER] = 'f'.repeat(64);
    else if (c.abuse === 'longToken') headers[TOKEN_HEADER] = 'x'.repeat(5000);
    else if (c.abuse !== 'noToken') headers[TOKEN_HEADER] = useToken;

    const params = TOKEN_IN_QUERY.includes(call.id) && c.params && typeof c.params === 'object' && !Array.isArray(c.params) ? { ...c.params, token: useToken } : c.params;
    if (call.auth === 'operator' || c.abuse === 'jsonBody') {
      body = JSON.stringify(params);
      headers['content-type'] = 'application/json';
    } else if (c.abuse === 'textBody') {
      body = 'check=1&data=';
      headers['content-type'] = 'text/plain';
    } else if (call.checked) {
      const sealed = sealRequest(params, c.abuse === 'stale' ? Math.floor(Date.now() / 1000) - 3600 : undefined, serverEnvelopeKeys) as Record<string, string>;
      if (c.abuse === 'badSign') sealed.sign = sealed.sign.replace(/^./, (ch) => (ch === '0' ? '1' : '0'));
      if (c.abuse === 'garbageData') sealed.data = '!!not base64!!';
      fields = c.abuse === 'noEnvelope' ? { data: sealed.data } : sealed;
    } else {
      const flat = params && typeof params === 'object' && !Array.isArray(params) ? params : { value: params };
      fields = Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? '']));
    }
    const form = fields ? new URLSearchParams(fields).toString() : '';
    if (fields && !inQuery) {
      body = form;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const url = `${t.url}${call.path}${fields && inQuery ? `?${form}` : ''}`;
    const started = performance.now();
    const res = await fetch(url, { method: call.method, headers, body: inQuery ? undefined : body, signal: AbortSignal.timeout(SLOW_MS * 2) });
    const contentType = res.headers.get('content-type') ?? '';
    // An answer stream is judged by its head: the first event arrives or the stream is refused as JSON.
    const text = contentType.startsWith('text/event-stream') ? await firstChunk(res) : await res.text();
    return { status: res.status, ms: performance.now() - started, contentType, text };
  }

  async function firstChunk(res: Response): Promise<string> {
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(value);
  }

  /** What is wrong with this reply, or null. */
  function judge(c: Case, sent: Sent): string | null {
    if (sent.status >= 500) return `HTTP ${sent.status}`;
    if (sent.ms > SLOW_MS) return `slow: ${Math.round(sent.ms)} ms`;
    const leak = internalDetail(sent.text, t.dataDir);
    if (leak) return `internal detail (${leak})`;
    if (sent.contentType.startsWith('text/event-stream')) return STREAMS.includes(c.call.id) ? null : 'an event stream from a call that is not one';
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(sent.text);
    } catch {
      return `not JSON (${sent.contentType})`;
    }
    if (![0, 1, 100].includes(body.code as number) || typeof body.msg !== 'string' || !('data' in body)) return 'outside the envelope shape';
    if (body.msg === MSG.serverError) return 'the server-error message';
    if (typeof body.sign === 'string') {
      const opened = openReply(body, undefined, serverEnvelopeKeys);
      if (!opened.ok) return `sealed reply fails verification (${opened.reason})`;
      const leakInside = internalDetail(`${opened.value.msg} ${JSON.stringify(opened.value.data)}`, t.dataDir);
      if (leakInside) return `internal detail in the sealed data (${leakInside})`;
      body = { ...body, ...opened.value };
    } else if (c.call.checked && body.code === 0) return 'an unsealed success from a checked call';
    return null;
  }

  it('refuses operator paths that name no readable file (too long, through a file, unreadable) as 文件不存在, the fuzz\'s findings', async () => {
    const paths = [`/tmp/${'n'.repeat(300)}.mp4`, '/etc/passwd/x.mp4', '/proc/self/mem'];
    const calls = [
      [API.admin.publicAvatarAdd, { name: '甲', orientation: 1, cover: '/tmp/x.png' }, 'video'],
      [API.admin.avatarPublish, { name: '乙' }, 'video'],
      [API.admin.publicVoiceAdd, { name: '丙' }, 'audio'],
      [API.photo.publish, { name: '丁', type: 1 }, 'image'],
    ] as const;
    for (const [call, params, field] of calls) {
      for (const file of paths) {
        const reply = await t.operator(call, { ...params, [field]: file });
        expect([reply.status, reply.code, reply.msg], `${call.id} ${file.slice(0, 20)}`).toEqual([200, 1, `文件不存在：${file}`]);
      }
    }
  });

  it(`answers ${REQUESTS} generated requests in the contract's shape, quickly, without internals (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const rng = prng(SEED);
    // Every call's baseline first (so each handler is reached at least once), then random cases.
    const cases: Case[] = ALL_CALLS.map((call) => ({ call, params: baseline(call), what: 'baseline' }));
    while (cases.length < REQUESTS) cases.push(makeCase(rng, rng.pick(ALL_CALLS)));

    const failures: string[] = [];
    /** One failure of a kind per call is reported (the rest repeat it). */
    const seen = new Set<string>();
    const reached = new Map<string, number>();
    const codes = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < cases.length && failures.length < 20) {
        const c = cases[next++]!;
        const useToken = token;
        const label = `${c.call.id} [${c.what}${c.abuse ? ` ${c.abuse}` : ''}] ${JSON.stringify(c.params)?.slice(0, 160)}`;
        let sent: Sent;
        try {
          sent = await send(c, useToken);
        } catch (err) {
          failures.push(`${label} → request failed: ${(err as Error).message} ${String((err as Error).cause ?? '')}`);
          continue;
        }
        const wrong = judge(c, sent);
        const kind = `${c.call.id} ${wrong?.slice(0, 30)}`;
        if (wrong && !seen.has(kind)) {
          seen.add(kind);
          failures.push(`${label} → ${wrong}: ${sent.status} ${sent.text.slice(0, 300)}`);
        }
        const code = /"code":(\d+)/.exec(sent.text)?.[1] ?? sent.contentType;
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (code === '100' && c.call.auth !== 'operator' && !c.abuse) await freshToken(useToken);
        const validEnvelope = !c.abuse || c.call.auth === 'operator';
        if (validEnvelope && code !== '100' && c.call.request.safeParse(c.params).success) reached.set(c.call.id, (reached.get(c.call.id) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const replay = `(replay with FUZZ_SEED=${SEED})`;
    expect(failures, `${failures.length} bad replies ${replay}:\n${failures.join('\n')}`).toEqual([]);
    expect(next, replay).toBe(cases.length);
    // Requests that passed the router's validation ran the handler (the router checks the same schema first).
    const unreached = ALL_CALLS.filter((call) => !reached.has(call.id)).map((call) => call.id);
    expect(unreached, `calls whose handler no request reached ${replay}`).toEqual([]);
    console.log(`fuzz seed ${SEED}: ${cases.length} requests, replies by code ${JSON.stringify(Object.fromEntries(codes))}, ${[...reached.values()].reduce((a, b) => a + b, 0)} past validation`);
  });
});
