import { describe, expect, it } from 'vitest';
import { API, MSG, PAUSE_MARKER, stripPauses } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers } from '../../../tests/support/app';
import { creditsOf } from '../../../tests/support/voices';
import { dropPlaceholders, startOpenAiPeer, type PeerBehaviour } from '../../../tests/support/peers/openai-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { chatCompletionsUrl, ChatEngineError, DEFAULT_CHAT_BASE_URL, DEFAULT_CHAT_MODEL, DEFAULT_CHAT_TIMEOUT_MS, OpenAiCompatibleChat, resolveChatConfig } from '../../engines/chat';
import { protectPauses, restorePauses } from './pause-guard';
import { stripEmotionMarks } from '../../../src/contract';
import { WRITING_CALLS_PER_MINUTE } from './writing.service';

const markers = (text: string) => [...text.matchAll(PAUSE_MARKER)].map((m) => m[0]);

const peer = usePeer(startOpenAiPeer);

describe('chat engine configuration and adapter', () => {
  it('takes the environment first, then the operator settings, then the DeepSeek defaults; no key, no engine', () => {
    expect(resolveChatConfig(undefined, {})).toBeNull();
    expect(resolveChatConfig({ baseUrl: 'http://x' }, { chat_model: 'm' })).toBeNull();
    expect(resolveChatConfig(undefined, { chat_api_key: 'k' })).toEqual({
      apiKey: 'k', baseUrl: DEFAULT_CHAT_BASE_URL, model: DEFAULT_CHAT_MODEL, reasoningModel: 'deepseek-reasoner', timeoutMs: DEFAULT_CHAT_TIMEOUT_MS,
    });
    expect(DEFAULT_CHAT_BASE_URL).toBe('https://api.deepseek.com');
    expect(DEFAULT_CHAT_MODEL).toBe('deepseek-chat');
    expect(resolveChatConfig({ apiKey: 'env-key', model: 'env-model', timeoutMs: 100 }, { chat_api_key: 'k', chat_model: 'm', chat_base_url: 'http://set' })).toEqual({
      apiKey: 'env-key', baseUrl: 'http://set', model: 'env-model', reasoningModel: 'deepseek-reasoner', timeoutMs: 100,
    });
    expect(chatCompletionsUrl('https://api.deepseek.com/')).toBe('https://api.deepseek.com/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:9/v1')).toBe('http://127.0.0.1:9/v1/chat/completions');
  });

  it('never lets the API key into an error, even when the provider echoes it', async () => {
    const apiKey = 'sk-secret-wrong-987654321';
    const engine = new OpenAiCompatibleChat({ baseUrl: peer.url, apiKey, model: 'm', reasoningModel: 'r', timeoutMs: 2000 });
    const err = await engine.complete([{ role: 'user', content: '你好' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatEngineError);
    const e = err as ChatEngineError;
    expect(e.message).toBe(MSG.chatEngineAuthFailed);
    expect(e.detail).toContain('401');
    for (const part of [apiKey, apiKey.slice(-6), apiKey.slice(-4)]) {
      expect(e.detail).not.toContain(part);
      expect(e.message).not.toContain(part);
    }
  });

  it('restores pause markers: kept, dropped, garbled, spaced, at the edges', () => {
    const text = '<#0.3#>大家好，<#0.5#>欢迎来到直播间。<#1#>';
    const script = protectPauses(text);
    expect(script.masked).toBe('{{P1}}大家好，{{P2}}欢迎来到直播间。{{P3}}');
    expect(restorePauses(script.masked, script)).toEqual({ text, reinserted: 0 });
    expect(restorePauses(dropPlaceholders(script.masked), script)).toEqual({ text, reinserted: 3 });
    expect(restorePauses('｛｛p1｝｝大家好， {{ P2 }} 欢迎来到直播间。{P3}', script).text).toBe(text);
    const messy = restorePauses('{{P3}}大家好，{{P2}}{{P2}}欢迎<#9#>来到直播间。{{P7}}', script);
    expect(markers(messy.text)).toEqual(['<#0.3#>', '<#0.5#>', '<#1#>']);
    expect(stripPauses(messy.text)).toBe('大家好，欢迎来到直播间。');
    expect(restorePauses('没有停顿的文本', protectPauses('没有停顿的文本')).text).toBe('没有停顿的文本');
    expect(stripEmotionMarks('真好(laughs)，对吧(sighs)')).toBe('真好，对吧');
  });
});

/** Long enough that a loaded CI machine never times out a healthy reply, short enough for the timeout case to stay cheap. */
const CHAT_TIMEOUT_MS = 5000;

describe.each(DB_KINDS)('creation helpers on the chat engine (%s)', (kind) => {
  const t = useApp(kind, { chat: { timeoutMs: CHAT_TIMEOUT_MS } });
  const [a] = useUsers(t, ['15600000001'], 100);
  const [b, c] = useUsers(t, ['15600000002', '15600000003']);
  const script = '大家好<#0.5#>今天我们聊聊<#1#>人工智能。<#2#>';
  const configure = (settings: Record<string, string>) => t.operator(API.admin.siteSet, { settings });
  const lastRequest = () => peer.requests.at(-1)!;
  const credits = creditsOf;

  it('lists the AI-writing themes, each with 3 to 6 topics', async () => {
    const reply = await a.call(API.writing.theme, {});
    expect(reply).toMatchObject({ code: 0, msg: MSG.ok });
    const list = reply.data.list as { name: string; list: { name: string }[] }[];
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(list.map((th) => th.name)).toEqual(expect.arrayContaining(['知识科普', '产品带货', '企业宣传', '节日祝福', '口播文案']));
    for (const theme of list) {
      expect(theme.list.length).toBeGreaterThanOrEqual(3);
      expect(theme.list.length).toBeLessThanOrEqual(6);
      for (const topic of theme.list) expect(topic.name.length).toBeGreaterThan(3);
    }
  });

  it('without a configured engine, polish and AI writing answer a plain message (no provider call)', async () => {
    const before = peer.requests.length;
    expect(await a.call(API.writing.textpolish, { text: script })).toMatchObject({ status: 200, code: 1, msg: MSG.chatEngineMissing });
    expect(await a.call(API.writing.textpolish, { text: script, action: 'emotion' })).toMatchObject({ status: 200, code: 1, msg: MSG.chatEngineMissing });
    expect(await a.call(API.writing.aiWriting, { keyword: '春节拜年', length: 150 })).toMatchObject({ status: 200, code: 1, msg: MSG.chatEngineMissing });
    expect(peer.requests.length).toBe(before);
  });

  it('takes the engine from the operator settings and keeps the key out of the public site info', async () => {
    expect(await configure({ chat_base_url: peer.url, chat_api_key: peer.apiKey, chat_model: 'test-chat-model' })).toMatchObject({ code: 0 });
    const site = await t.client().call(API.site.site, {});
    expect(site.code).toBe(0);
    expect(JSON.stringify(site.data)).not.toContain(peer.apiKey);
    expect(Object.keys(site.data).filter((k) => k.startsWith('chat_'))).toEqual([]);
    expect(await configure({ chat_secret: 'x' } as never)).toMatchObject({ code: 1 });
  });

  it('polishes through the engine with the Bearer key and a chat-completions body; markers stay where they were; free', async () => {
    const before = await credits(a);
    peer.behave({ kind: 'reply', text: (user) => user.replace('聊聊', '谈一谈') });
    const reply = await a.call(API.writing.textpolish, { text: script });
    expect(reply).toMatchObject({ code: 0, msg: MSG.ok, data: { content: '大家好<#0.5#>今天我们谈一谈<#1#>人工智能。<#2#>' } });
    const req = lastRequest();
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.authorization).toBe(`Bearer ${peer.apiKey}`);
    expect(req.body).toMatchObject({ model: 'test-chat-model', stream: false });
    expect(typeof req.body.temperature).toBe('number');
    expect(Number.isInteger(req.body.max_tokens)).toBe(true);
    expect(req.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(req.system).toContain('润色');
    expect(req.user).toBe('大家好{{P1}}今天我们聊聊{{P2}}人工智能。{{P3}}');
    expect(req.user).not.toContain('<#');
    expect(peer.shapeErrors).toEqual([]);
    expect(await credits(a)).toBe(before);
  });

  it('puts back pause markers the model dropped or garbled, exactly and in order', async () => {
    peer.behave({ kind: 'reply', text: (user) => dropPlaceholders(user) });
    const dropped = await a.call(API.writing.textpolish, { text: script });
    expect(dropped).toMatchObject({ code: 0, data: { content: script } });

    peer.behave({ kind: 'reply', text: '{{P2}}大家好{{P1}}今天我们聊聊{{P1}}人工智能。<#9#>{{P8}}' });
    const garbled = await a.call(API.writing.textpolish, { text: script });
    expect(garbled.code).toBe(0);
    expect(markers(garbled.data.content)).toEqual(['<#0.5#>', '<#1#>', '<#2#>']);
    expect(stripPauses(garbled.data.content)).toBe('大家好今天我们聊聊人工智能。');

    peer.behave({ kind: 'reply', text: '```\n以下是润色后的文本：\n大家好{{P1}}今天我们聊聊{{P2}}人工智能。{{P3}}\n```' });
    expect((await a.call(API.writing.textpolish, { text: script })).data.content).toBe(script);
  });

  it('adds emotion marks from the closed list (made-up tags dropped), markers kept', async () => {
    peer.behave({ kind: 'reply', text: (user) => user.replace('大家好', '大家好(laughs)').replace('。', '。(happy)') });
    const reply = await a.call(API.writing.textpolish, { text: script, action: 'emotion' });
    expect(reply).toMatchObject({ code: 0, data: { content: '大家好(laughs)<#0.5#>今天我们聊聊<#1#>人工智能。<#2#>' } });
    const req = lastRequest();
    for (const mark of ['(laughs)', '(sighs)', '(breath)']) expect(req.system).toContain(mark);
    expect(req.user).toBe('大家好{{P1}}今天我们聊聊{{P2}}人工智能。{{P3}}');
    expect(req.body.temperature).toBeLessThan(0.7);
    expect(stripEmotionMarks(reply.data.content)).toBe(script);
  });

  it('writes a script of about the asked length and answers 文案生成成功！', async () => {
    peer.behave({ kind: 'reply', text: '**新春祝福**\n\n新春佳节到来之际，祝大家身体健康、万事如意！' });
    const reply = await a.call(API.writing.aiWriting, { keyword: '春节拜年，祝客户新年快乐', length: 150 });
    expect(reply).toMatchObject({ code: 0, msg: MSG.writingSucceeded });
    expect(reply.data.content).toBe('新春祝福\n\n新春佳节到来之际，祝大家身体健康、万事如意！');
    let req = lastRequest();
    expect(req.user).toContain('春节拜年，祝客户新年快乐');
    expect(req.user).toContain('约150字');
    expect(req.body.max_tokens).toBeGreaterThanOrEqual(150);
    expect(req.body).toMatchObject({ model: 'test-chat-model', stream: false });

    expect(await a.call(API.writing.aiWriting, { keyword: '早安问候', length: 0 })).toMatchObject({ code: 0, msg: MSG.writingSucceeded });
    req = lastRequest();
    expect(req.user).toContain('不限');
    expect(req.user).not.toMatch(/约\d+字/);
    await a.call(API.writing.aiWriting, { keyword: '早安问候' });
    expect(lastRequest().user).toContain('不限');
    expect(await a.call(API.writing.aiWriting, { keyword: '早安问候', length: 200 })).toMatchObject({ code: 1, msg: '字数取值有误' });
  });

  it('turns provider failures into code 1 with a clear message, never a 500', async () => {
    const cases: [PeerBehaviour, string][] = [
      [{ kind: 'status', status: 401 }, MSG.chatEngineAuthFailed],
      [{ kind: 'status', status: 402, message: 'Insufficient Balance' }, MSG.chatEngineNoBalance],
      [{ kind: 'status', status: 429 }, MSG.chatEngineBusy],
      [{ kind: 'status', status: 500 }, MSG.chatEngineDown],
      [{ kind: 'status', status: 503 }, MSG.chatEngineDown],
      [{ kind: 'status', status: 422 }, MSG.chatEngineRejected],
      [{ kind: 'malformed' }, MSG.chatEngineBadReply],
      [{ kind: 'empty' }, MSG.chatEngineBadReply],
      [{ kind: 'reply', text: '   ' }, MSG.chatEngineBadReply],
      [{ kind: 'reply', text: 'x', finishReason: 'content_filter' }, MSG.chatContentBlocked],
      [{ kind: 'reply', text: '慢', delayMs: CHAT_TIMEOUT_MS + 2000 }, MSG.chatEngineTimeout],
    ];
    for (const [behaviour, msg] of cases) {
      peer.behave(behaviour);
      expect(await b.call(API.writing.textpolish, { text: script }), JSON.stringify(behaviour)).toMatchObject({ status: 200, code: 1, msg });
    }
    peer.behave({ kind: 'status', status: 500 });
    expect(await b.call(API.writing.aiWriting, { keyword: '早安问候', length: 150 })).toMatchObject({ status: 200, code: 1, msg: MSG.chatEngineDown });
    peer.behave({ kind: 'reply', text: (user) => user, finishReason: 'length' });
    expect(await b.call(API.writing.textpolish, { text: script })).toMatchObject({ code: 1, msg: MSG.polishTooLong });

    peer.behave({ kind: 'reply', text: (user) => user });
    await configure({ chat_api_key: 'sk-wrong-key-abcdef123' });
    expect(await b.call(API.writing.textpolish, { text: script })).toMatchObject({ code: 1, msg: MSG.chatEngineAuthFailed });
    await configure({ chat_api_key: peer.apiKey, chat_base_url: 'http://127.0.0.1:1/v1' });
    expect(await b.call(API.writing.textpolish, { text: script })).toMatchObject({ code: 1, msg: MSG.chatEngineUnreachable });
    await configure({ chat_base_url: peer.url });
    expect(await b.call(API.writing.textpolish, { text: script })).toMatchObject({ code: 0, data: { content: script } });
  });

  it('answers the contract\'s validation messages', async () => {
    const before = peer.requests.length;
    expect(await a.call(API.writing.textpolish, { text: '' })).toMatchObject({ code: 1, msg: MSG.textRequired });
    expect(await a.call(API.writing.textpolish, { text: '   ' })).toMatchObject({ code: 1, msg: MSG.textRequired });
    expect(await a.call(API.writing.textpolish, { text: '你好', action: 'shout' })).toMatchObject({ code: 1, msg: '操作取值有误' });
    expect(await a.call(API.writing.aiWriting, { keyword: '', length: 150 })).toMatchObject({ code: 1, msg: MSG.topicRequired });
    expect(await a.call(API.writing.aiWriting, { keyword: '题'.repeat(501), length: 150 })).toMatchObject({ code: 1, msg: '主题描述不能超过500个字符' });
    expect(peer.requests.length).toBe(before);
  });

  it('answers code 100 without a session', async () => {
    const anonymous = t.client();
    for (const [call, params] of [
      [API.writing.textpolish, { text: script }],
      [API.writing.aiWriting, { keyword: '早安', length: 0 }],
      [API.writing.theme, {}],
    ] as const) {
      expect(await anonymous.call(call, params)).toMatchObject({ code: 100, msg: MSG.sessionExpired });
      expect(await t.client('not-a-token').call(call, params)).toMatchObject({ code: 100, msg: MSG.sessionExpired });
    }
  });

  it(`limits engine calls to ${WRITING_CALLS_PER_MINUTE} a minute per user`, async () => {
    peer.behave({ kind: 'reply', text: (user) => user });
    for (let i = 0; i < WRITING_CALLS_PER_MINUTE; i++) expect(await c.call(API.writing.textpolish, { text: `第${i}句` })).toMatchObject({ code: 0 });
    expect(await c.call(API.writing.textpolish, { text: '再来一句' })).toMatchObject({ code: 1, msg: MSG.tooManyRequests });
    expect(await c.call(API.writing.aiWriting, { keyword: '早安', length: 0 })).toMatchObject({ code: 1, msg: MSG.tooManyRequests });
    expect((await a.call(API.writing.textpolish, { text: '别人不受影响' })).code).toBe(0);
  });
});
