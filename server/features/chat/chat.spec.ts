import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, ResultCode, type ChatStreamEvent } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient, type TestApp } from '../../../tests/support/app';
import { creditsOf } from '../../../tests/support/voices';
import { startOpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { until } from '../../../tests/support/wait';
import { readAnswerEvents } from '../../../tests/support/answer-stream';
import { redactUrl } from '../../infra/logging';

const peer = usePeer(startOpenAiPeer);

interface Streamed {
  status: number;
  type: string;
  events: ChatStreamEvent[];
  /** The JSON answer when the stream was refused before it opened. */
  json?: { code: number; msg: string };
  answer: string;
  reasoning: string;
}

/** Opens the answer stream as the browser does; `stopAfter` closes it after that many events with text. */
async function stream(t: TestApp, client: ApiTestClient, ids: { cid: unknown; mid: unknown }, stopAfter?: number, token = client.token): Promise<Streamed> {
  const query = new URLSearchParams({ token: String(token), cid: String(ids.cid), mid: String(ids.mid) });
  const stop = new AbortController();
  const res = await fetch(`${t.url}${API.chat.stream.path}?${query}`, { signal: stop.signal });
  const type = res.headers.get('content-type') ?? '';
  const out: Streamed = { status: res.status, type, events: [], answer: '', reasoning: '' };
  if (!type.startsWith('text/event-stream')) return { ...out, json: (await res.json()) as Streamed['json'] };
  await readAnswerEvents(res, stop, {
    event: (event) => {
      out.events.push(event);
      out.answer += event.message;
      out.reasoning += event.reasoning ?? '';
    },
  }, stopAfter);
  return out;
}

const last = (s: Streamed) => s.events.at(-1)!;

describe('stream redaction', () => {
  it('never logs the session token of the stream URL', () => {
    expect(redactUrl('/api/chat/index?token=abc123secret&cid=1&mid=2')).toBe('/api/chat/index?token=[redacted]&cid=1&mid=2');
  });
});

describe.each(DB_KINDS)('copy chat (%s)', (kind) => {
  const t = useApp(kind, { chat: { timeoutMs: 5000 } });
  const [a, b] = useUsers(t, ['15700000001', '15700000002'], 1000);
  const [poor] = useUsers(t, ['15700000003'], 25);
  const credits = creditsOf;
  const send = (client: ApiTestClient, content: string, extra: Record<string, unknown> = {}) => client.call(API.chat.sendMessage, { content, ...extra });

  it('without an engine the screen learns so and a send is refused, costing nothing', async () => {
    expect(await a.call(API.chat.engine, {})).toMatchObject({ code: 0, data: { configured: 0 } });
    expect(await send(a, '你好')).toMatchObject({ code: 1, msg: MSG.chatEngineMissing });
    expect(await credits(a)).toBe(1000);
    await t.operator(API.admin.siteSet, {
      settings: { chat_base_url: peer.url, chat_api_key: peer.apiKey, chat_model: 'test-v3', chat_reasoning_model: 'test-r1' },
    });
    expect(await a.call(API.chat.engine, {})).toMatchObject({ code: 0, data: { configured: 1 } });
  });

  it('streams a v3 answer relayed from the engine, skipping keep-alives, and charges 10 once it completes', async () => {
    peer.behave({ kind: 'reply', text: '好的，这是一段直播间开场白：欢迎大家来到直播间！', chunkChars: 4, chunkDelayMs: 5 });
    const sent = await send(a, '写一段直播间开场白', { model: 'v3' });
    expect(sent).toMatchObject({ code: 0, data: { cid: expect.any(Number), mid: expect.any(Number) } });
    expect(await credits(a)).toBe(1000); // nothing is charged before the answer
    const s = await stream(t, a, sent.data);
    expect(s.type).toContain('text/event-stream');
    expect(s.answer).toBe('好的，这是一段直播间开场白：欢迎大家来到直播间！');
    expect(s.events.filter((e) => e.message).length).toBeGreaterThan(3);
    expect(last(s)).toEqual({ message: '', done: 1 });
    const req = peer.requests.at(-1)!;
    expect(req.body).toMatchObject({ model: 'test-v3', stream: true });
    expect(req.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(req.user).toBe('写一段直播间开场白');
    expect(peer.shapeErrors).toEqual([]);
    expect(await credits(a)).toBe(1000 - LIMITS.chatAnswerCredits);

    // Opening the finished answer again replays it and charges nothing more.
    const again = await stream(t, a, sent.data);
    expect(again.answer).toBe(s.answer);
    expect(await credits(a)).toBe(1000 - LIMITS.chatAnswerCredits);

    const records = await a.call(API.chat.records, { page: 1, limit: 20 });
    expect(records).toMatchObject({ code: 0, data: { total: 1, list: [{ id: sent.data.cid, title: '写一段直播间开场白' }] } });
    const messages = await a.call(API.chat.messages, { cid: sent.data.cid });
    expect(messages.data.list).toMatchObject([
      { role: 'user', content: '写一段直播间开场白' },
      { id: sent.data.mid, role: 'assistant', content: s.answer, model: 'v3' },
    ]);
  });

  it('r1 streams its reasoning apart, first; the reasoning is kept but never sent upstream in later turns', async () => {
    peer.behave({ kind: 'reply', text: '标题：三分钟学会做蛋糕', reasoning: '用户想要一个标题，应当简短有力。', chunkChars: 3 });
    const first = await send(a, '给蛋糕教程起个标题', { model: 'r1' });
    const s = await stream(t, a, first.data);
    expect(s.reasoning).toBe('用户想要一个标题，应当简短有力。');
    expect(s.answer).toBe('标题：三分钟学会做蛋糕');
    const firstAnswerAt = s.events.findIndex((e) => e.message);
    expect(s.events.slice(firstAnswerAt).some((e) => e.reasoning)).toBe(false);
    expect(peer.requests.at(-1)!.body.model).toBe('test-r1');

    peer.behave({ kind: 'reply', text: '再来一个：蛋糕新手必看' });
    const next = await send(a, '再来一个', { cid: first.data.cid, model: 'r1' });
    expect(next.data.cid).toBe(first.data.cid);
    await stream(t, a, next.data);
    const upstream = peer.requests.at(-1)!.body.messages;
    expect(upstream.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(upstream[2]).toEqual({ role: 'assistant', content: '标题：三分钟学会做蛋糕' });
    expect(JSON.stringify(upstream)).not.toContain('简短有力');
    const messages = await a.call(API.chat.messages, { cid: first.data.cid });
    expect(messages.data.list[1]).toMatchObject({ reasoning: '用户想要一个标题，应当简短有力。', model: 'r1' });
  });

  it('a failure mid-stream ends with the reason and refunds the answer; an engine error before any text too', async () => {
    const before = await credits(a);
    peer.behave({ kind: 'reply', text: '这是一段会在中途断开的回答内容', chunkChars: 2, chunkDelayMs: 20, failAfterChunks: 2 });
    const sent = await send(a, '会断开');
    const s = await stream(t, a, sent.data);
    expect(s.answer).toBe('这是一段');
    expect(last(s)).toMatchObject({ done: 1, error: MSG.chatEngineDown });
    expect(await credits(a)).toBe(before);

    peer.behave({ kind: 'status', status: 401, message: `Incorrect API key provided: ${peer.apiKey}` });
    const refused = await send(a, '密钥错误');
    const r = await stream(t, a, refused.data);
    expect(r.answer).toBe('');
    expect(last(r)).toMatchObject({ done: 1, error: MSG.chatEngineAuthFailed });
    expect(JSON.stringify(r.events)).not.toContain(peer.apiKey);
    expect(await credits(a)).toBe(before);
  });

  it('stop: closing the stream aborts the upstream request and keeps what arrived (paid); a stop before any text costs nothing', async () => {
    const before = await credits(a);
    const aborted = peer.abortedStreams;
    peer.behave({ kind: 'reply', text: '一二三四五六七八九十'.repeat(20), chunkChars: 2, chunkDelayMs: 40 });
    const sent = await send(a, '写一段长文');
    const s = await stream(t, a, sent.data, 3);
    expect(s.answer.length).toBeGreaterThanOrEqual(6);
    await until(async () => peer.abortedStreams, (n) => n > aborted, 5000, 50);
    expect(peer.abortedStreams).toBe(aborted + 1);
    const kept = await until(
      () => a.call(API.chat.messages, { cid: sent.data.cid }),
      (r) => r.data.list.length === 2,
      5000,
      50,
    );
    const answer = kept.data.list[1].content as string;
    expect(answer.startsWith(s.answer)).toBe(true);
    expect(answer.length).toBeLessThan(200);
    expect(await credits(a)).toBe(before - LIMITS.chatAnswerCredits);

    // The engine is slow to start: the browser leaves before the first word.
    peer.behave({ kind: 'reply', text: '很慢的回答', delayMs: 800 });
    const slow = await send(a, '慢一点');
    const query = new URLSearchParams({ token: a.token!, cid: String(slow.data.cid), mid: String(slow.data.mid) });
    const stop = new AbortController();
    const res = await fetch(`${t.url}${API.chat.stream.path}?${query}`, { signal: stop.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    stop.abort();
    await until(async () => peer.abortedStreams, (n) => n > aborted + 1, 5000, 50);
    expect(await until(() => credits(a), (n) => n === before - LIMITS.chatAnswerCredits, 3000, 50)).toBe(before - LIMITS.chatAnswerCredits);
    const msgs = await a.call(API.chat.messages, { cid: slow.data.cid });
    expect(msgs.data.list.map((m: { role: string }) => m.role)).toEqual(['user']);
  });

  it('too few credits: the send is refused before anything streams; concurrent answers are each charged once, never below zero', async () => {
    peer.behave({ kind: 'reply', text: '答', chunkChars: 1 });
    const low = await t.user(`157000001${kind === 'pglite' ? '1' : '2'}`, 5);
    expect(await send(low, '你好')).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await low.call(API.chat.records, {})).toMatchObject({ data: { total: 0 } });

    // 25 credits: three sends pass the balance check, but only two answers can be paid for.
    const sends = await Promise.all([1, 2, 3].map((i) => send(poor, `问题${i}`)));
    for (const s of sends) expect(s.code).toBe(0);
    const streams = await Promise.all(sends.map((s) => stream(t, poor, s.data)));
    const ok = streams.filter((s) => last(s).done === 1 && !last(s).error);
    const refused = streams.filter((s) => last(s).error);
    expect(ok.length).toBe(2);
    expect(refused.map((s) => last(s).error)).toEqual([MSG.insufficientCredits]);
    expect(refused[0]!.answer).toBe('');
    expect(await credits(poor)).toBe(5);

    // One answer opened twice at once: one stream relays and pays, the other is told it is busy.
    peer.behave({ kind: 'reply', text: '同一个回答', chunkChars: 1, chunkDelayMs: 20 });
    const once = await send(a, '只回答一次');
    const before = await credits(a);
    const pair = await Promise.all([stream(t, a, once.data), stream(t, a, once.data)]);
    const answers = pair.map((s) => s.answer).sort();
    expect(answers).toContain('同一个回答');
    expect(pair.some((s) => last(s).error === MSG.chatAnswerBusy || s.answer === '同一个回答')).toBe(true);
    expect(await credits(a)).toBe(before - LIMITS.chatAnswerCredits);
  });

  it('two sends at once on one conversation (a double click, two tabs): one answer, charged once; the next send waits for it', async () => {
    peer.behave({ kind: 'reply', text: '第一轮', chunkChars: 2 });
    const first = await send(a, '第一轮问题');
    await stream(t, a, first.data);
    const before = await credits(a);
    const asked = peer.requests.length;

    // The answer stays open until the test has tried a send beside it (a busy machine could finish it first).
    let release!: () => void;
    peer.behave({ kind: 'reply', text: '只答一次的回答', chunkChars: 1, holdBeforeEnd: new Promise<void>((r) => (release = r)) });
    const pair = await Promise.all([send(a, '同时发送', { cid: first.data.cid }), send(a, '同时发送', { cid: first.data.cid })]);
    const accepted = pair.filter((r) => r.code === 0);
    expect(accepted).toHaveLength(1);
    expect(pair.find((r) => r.code !== 0)).toMatchObject({ code: 1, msg: MSG.chatSendBusy });
    // While the accepted answer streams, a further send on the conversation is refused too.
    const streaming = stream(t, a, accepted[0]!.data);
    await until(async () => peer.requests.length, (n) => n > asked, 5000, 20);
    expect(await send(a, '插队', { cid: first.data.cid })).toMatchObject({ code: 1, msg: MSG.chatSendBusy });
    release();
    expect((await streaming).answer).toBe('只答一次的回答');
    expect(peer.requests.length).toBe(asked + 1);
    expect(await credits(a)).toBe(before - LIMITS.chatAnswerCredits);
    const messages = await a.call(API.chat.messages, { cid: first.data.cid });
    expect(messages.data.list.map((m: { content: string }) => m.content)).toEqual(['第一轮问题', '第一轮', '同时发送', '只答一次的回答']);

    // Once the answer has ended the conversation takes the next question.
    peer.behave({ kind: 'reply', text: '下一轮' });
    const next = await send(a, '下一轮问题', { cid: first.data.cid });
    expect(next.code).toBe(0);
    await stream(t, a, next.data);
  });

  it("another user's conversation, message and record are unreadable, unwritable and undeletable", async () => {
    peer.behave({ kind: 'reply', text: '私密回答' });
    const mine = await send(a, '私密问题');
    await stream(t, a, mine.data);
    const before = await credits(b);
    expect(await b.call(API.chat.messages, { cid: mine.data.cid })).toMatchObject({ code: 1, msg: MSG.chatNotFound });
    expect(await send(b, '插一句', { cid: mine.data.cid })).toMatchObject({ code: 1, msg: MSG.chatNotFound });
    expect(await b.call(API.chat.recordRemove, { id: mine.data.cid })).toMatchObject({ code: 1, msg: MSG.chatNotFound });
    const s = await stream(t, b, mine.data);
    expect(s.answer).toBe('');
    expect(last(s)).toMatchObject({ error: MSG.chatNotFound });
    expect((await b.call(API.chat.records, {})).data.list.map((r: { id: number }) => r.id)).not.toContain(mine.data.cid);
    expect(await credits(b)).toBe(before);
    expect((await a.call(API.chat.messages, { cid: mine.data.cid })).data.list).toHaveLength(2);
  });

  it('bad input gets code 1 with a Chinese message; a stream without a valid session gets code 100', async () => {
    expect(await send(a, '')).toMatchObject({ status: 200, code: 1, msg: MSG.chatContentRequired });
    expect(await send(a, 'x'.repeat(LIMITS.chatMaxChars + 1))).toMatchObject({ code: 1 });
    expect(await send(a, '你好', { model: 'gpt5' })).toMatchObject({ code: 1, msg: '模型取值有误' });
    expect(await send(a, '你好', { cid: 'abc' })).toMatchObject({ code: 1 });
    expect(await a.call(API.chat.messages, { cid: 99999999 })).toMatchObject({ code: 1, msg: MSG.chatNotFound });
    const bad = await stream(t, a, { cid: 1, mid: 'x' });
    expect(bad.json).toMatchObject({ code: ResultCode.Error, msg: '消息ID格式有误' });
    const expired = await stream(t, a, { cid: 1, mid: 1 }, undefined, 'not-a-session');
    expect(expired.json).toMatchObject({ code: ResultCode.SessionExpired, msg: MSG.sessionExpired });
    // No token or an empty one: code 100 too, as every other authenticated call answers (issue 33).
    expect((await stream(t, a, { cid: 1, mid: 1 }, undefined, '')).json).toMatchObject({ code: ResultCode.SessionExpired, msg: MSG.sessionExpired });
    const none = await fetch(`${t.url}${API.chat.stream.path}?cid=1&mid=1`);
    expect(none.status).toBe(200);
    expect(await none.json()).toMatchObject({ code: ResultCode.SessionExpired, msg: MSG.sessionExpired });
  });

  it('deletes a conversation with its messages; history pages newest first', async () => {
    const list = await a.call(API.chat.records, { page: 1, limit: 2 });
    expect(list.data.list).toHaveLength(2);
    const total = list.data.total as number;
    const page2 = await a.call(API.chat.records, { page: 2, limit: 2 });
    expect(page2.data.list[0].id).not.toBe(list.data.list[0].id);
    const gone = list.data.list[0].id as number;
    expect(await a.call(API.chat.recordRemove, { id: gone })).toMatchObject({ code: 0 });
    expect(await a.call(API.chat.messages, { cid: gone })).toMatchObject({ code: 1, msg: MSG.chatNotFound });
    expect((await a.call(API.chat.records, { page: 1, limit: 100 })).data.total).toBe(total - 1);
  });
});
