/**
 * The 超级助手 through real HTTP on both databases, the chat engine a loopback peer that asks for tools on cue: bad
 * input, how-to answers grounded in the guide, read tools run at once as the user, spending tools only after the
 * user's confirmation (at the estimate's price), another user's objects refused by the calls' own checks, background
 * tasks with a cancelled item, two users apart, and the system prompts never in any response.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ExtractionStatus, HelperItemStatus, HelperPlanStatus, LIMITS, MSG, ResultCode, estimateSeconds, workCredits, type CallDef, type HelperEvent, type HelperPlan } from '../../../src/contract';
import { DB_KINDS, recordingCalls, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf, publishPublicVoice } from '../../../tests/support/voices';
import { ffmpegCached, makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { uploadFile } from '../../../tests/support/upload';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { startOpenAiPeer, type OpenAiPeer, type PeerRequest } from '../../../tests/support/peers/openai-peer';
import { startMediaHost, type MediaHost } from '../../../tests/support/peers/parse-peers';
import type { ServerConfig } from '../../infra/config';
import { until } from '../../../tests/support/wait';
import { worksOf } from '../../../tests/support/works';
import { GuideRepository } from '../guide';

/** Words of the two system prompts: a response carrying them leaked a prompt. */
const PROMPT_MARKERS = ['只依据下面的产品资料', '不要编造ID'];
const SCRIPT = '大家好，欢迎来到直播间。';

let peer: OpenAiPeer;
/** A media host on loopback for the extraction tool's direct link (the guarded fetcher may reach its port only). */
let host: MediaHost;
const overrides: Partial<ServerConfig> = { chat: { timeoutMs: 5000 } };
beforeAll(async () => {
  [peer, host] = await Promise.all([startOpenAiPeer(), startMediaHost()]);
  overrides.fetchLoopbackPorts = [host.port];
  host.serve('/v/clip.mp4', makeVideo(path.join(mediaDir(), 'helper-extract.mp4'), { seconds: 2 }));
});
afterAll(() => Promise.all([peer.close(), host.close()]));

/**
 * The model: "积分" asks for my credits, then says them; "做视频 <avatar> <voice>" asks for one work ("照片视频 <photo>
 * <voice>" with a photo-speak picture), "批量 …" for three;
 * anything else is answered in words.
 */
function agent(req: PeerRequest): { text: string } | { tools: { name: string; arguments: unknown }[] } {
  const toolAnswer = [...req.body.messages].reverse().find((m) => m.role === 'tool');
  const [word, avatar, voice] = req.user.split(' ');
  if (word === '积分') return toolAnswer ? { text: `查到了：${toolAnswer.content}` } : { tools: [{ name: 'account_credits', arguments: {} }] };
  const work = (n: number) => ({ name: 'works_create', arguments: { name: `助手作品${n}`, text: `${SCRIPT}第${n}段。`, api: 'local', video_id: Number(avatar), user_voice_id: Number(voice) } });
  if (word === '做视频' && !toolAnswer) return { tools: [work(1)] };
  if (word === '照片视频' && !toolAnswer) return { tools: [{ name: 'works_create', arguments: { name: '照片作品', text: SCRIPT, api: 'local', photo_id: Number(avatar), user_voice_id: Number(voice) } }] };
  if (word === '批量' && !toolAnswer) return { tools: [work(1), work(2), work(3)] };
  if (word === '提取' && !toolAnswer) return { tools: [{ name: 'extraction_videoParse', arguments: { link: avatar } }] };
  if (word === '试听' && !toolAnswer) return { tools: [{ name: 'voices_audition', arguments: { voice_id: Number(avatar), text: SCRIPT } }] };
  if (word === '乱参数' && !toolAnswer) return { tools: [{ name: 'works_create', arguments: { name: 'x', api: 'nope' } }, { name: 'no_such_tool', arguments: {} }] };
  return { text: toolAnswer ? '好的，请确认。' : `回答：${req.user}` };
}

interface Streamed {
  events: HelperEvent[];
  answer: string;
  json?: { code: number; msg: string };
}

describe.each(DB_KINDS)('super helper (%s)', (kind) => {
  const t = useApp(kind, overrides);
  const n = kind === 'pglite' ? 1 : 2;
  const [a, b] = useUsers(t, [`1590000${n}001`, `1590000${n}002`], 1000);
  let avatarA = 0;
  let avatarB = 0;
  let voice = 0;
  /** Every response body seen, to look for the prompts in. */
  const { seen, call } = recordingCalls();
  const credits = creditsOf;
  /** The balance once no work is left to settle on its real length (earlier cases' works settle mid-case otherwise). */
  const settledCredits = async (c: ApiTestClient) => {
    await until(() => c.call(API.works.list, { page: 1, limit: 1 }), (r) => r.data.generate === 0, 120_000);
    return credits(c);
  };

  async function stream(c: CallDef, params: Record<string, string>): Promise<Streamed> {
    const res = await fetch(`${t.url}${c.path}?${new URLSearchParams(params)}`);
    const raw = await res.text();
    seen.push(raw);
    expect(res.status).toBeLessThan(500);
    if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { events: [], answer: '', json: JSON.parse(raw) as Streamed['json'] };
    const events = raw.split('\n\n').filter((b) => b.startsWith('data: ')).map((b) => JSON.parse(b.slice(6)) as HelperEvent);
    return { events, answer: events.map((e) => e.message).join('') };
  }
  const operate = (c: ApiTestClient, q: string, async = 0, cid?: number) =>
    stream(API.helper.operate, { token: c.token!, q, async: String(async), ...(cid === undefined ? {} : { cid: String(cid) }) });
  const planOf = (s: Streamed): HelperPlan => s.events.find((e) => e.step?.state === 'confirm')!.step!.plan!;

  beforeAll(async () => {
    await t.operator(API.admin.siteSet, { settings: { chat_base_url: peer.url, chat_api_key: peer.apiKey, chat_model: 'test-v3' } });
    const dir = mediaDir();
    const clip = makeVideo(path.join(dir, 'helper-face.mp4'), { width: 360, height: 640, seconds: 3 });
    avatarA = await readyAvatar(t, a, clip, '我的分身');
    avatarB = await readyAvatar(t, b, clip, '别人的分身');
    const sample = await makeSpeech(path.join(dir, 'helper-voice.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    voice = await publishPublicVoice(t, a, sample);
    await new GuideRepository(t.app.ctx.db).add({ category: '新手入门', name: '三分钟做出第一个数字人视频', cover: '', video_url: '' });
    peer.behave({ kind: 'agent', next: agent });
  }, 240_000);

  afterAll(() => {
    for (const marker of PROMPT_MARKERS) expect(seen.join('\n')).not.toContain(marker);
  });

  it('answers clear Chinese messages with code 1 for bad input (never a 500)', async () => {
    const bad: [CallDef, Record<string, unknown>, string][] = [
      [API.helper.confirm, {}, '任务ID'],
      [API.helper.confirm, { id: 'x' }, '任务ID'],
      [API.helper.confirm, { id: 999_999 }, MSG.helperPlanMissing],
      [API.helper.cancel, { id: 999_999 }, MSG.helperPlanMissing],
      [API.helper.cancel, { id: 1, item_id: 'x' }, '子任务ID'],
    ];
    for (const [c, params, msg] of bad) {
      const reply = await call(a, c, params);
      expect(reply.status, `${c.id} ${JSON.stringify(params)}`).toBeLessThan(500);
      expect(reply, `${c.id} ${JSON.stringify(params)}`).toMatchObject({ code: ResultCode.Error, msg: expect.stringContaining(msg) });
    }
    expect((await operate(a, '')).json).toMatchObject({ code: 1, msg: MSG.chatContentRequired });
    expect((await operate(a, 'x'.repeat(LIMITS.helper.questionMaxChars + 1))).json).toMatchObject({ code: 1, msg: expect.stringContaining('不能超过') });
    expect((await stream(API.helper.operate, { token: a.token!, q: '你好', async: '2' })).json).toMatchObject({ code: 1 });
    expect((await stream(API.helper.guide, { token: 'stale', q: '你好' })).json).toMatchObject({ code: ResultCode.SessionExpired });
    expect((await a.call(API.helper.plans, {}, 'not-a-token')).code).toBe(ResultCode.SessionExpired);
  });

  it('answers how-to questions from the guide: pages, tutorials and prices in the system prompt, streamed', async () => {
    const status = await call(a, API.helper.status);
    expect(status.data.chat).toBe(1);
    expect(status.data.tools).toContainEqual({ name: 'works_create', description: expect.any(String), spends: 1 });
    const before = peer.requests.length;
    const answer = await stream(API.helper.guide, { token: a.token!, q: '怎么做视频？' });
    expect(answer.answer).toBe('回答：怎么做视频？');
    expect(answer.events.at(-1)).toMatchObject({ done: 1 });
    expect(answer.events.filter((e) => e.message).length).toBeGreaterThan(1);
    const asked = peer.requests[before]!;
    expect(asked.system).toContain('三分钟做出第一个数字人视频');
    expect(asked.system).toContain('开始创作（/create）');
    expect(asked.system).toMatch(/每秒 \d+ 积分/);
    expect(asked.body.tools).toBeUndefined();
  });

  it('runs read tools at once as the user, each a step, and gives their answers back to the model', async () => {
    const before = peer.requests.length;
    const s = await operate(a, '积分');
    const steps = s.events.filter((e) => e.step).map((e) => e.step!);
    expect(steps).toMatchObject([{ label: '查询积分', state: 'running' }, { label: '查询积分', state: 'done', result: '1000 积分' }]);
    expect(s.answer).toContain('"credits":1000');
    expect(s.events.at(-1)).toMatchObject({ done: 1 });
    const first = peer.requests[before]!;
    // The tools come from the contract: every one with its call's request schema.
    const tools = first.body.tools as { function: { name: string; parameters: { properties: Record<string, unknown> } } }[];
    expect(tools.map((x) => x.function.name)).toEqual(expect.arrayContaining(['avatars_list', 'voices_list', 'works_list', 'account_credits', 'works_create']));
    expect(Object.keys(tools.find((x) => x.function.name === 'works_create')!.function.parameters.properties)).toEqual(expect.arrayContaining(['text', 'video_id', 'user_voice_id', 'api']));
    expect(peer.requests[before + 1]!.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(peer.shapeErrors).toEqual([]);
    // Bad arguments and unknown tools are refused with the call's own message, and nothing runs.
    const wrong = await operate(a, '乱参数');
    expect(wrong.events.find((e) => e.step?.state === 'failed')?.step?.result).toBe(MSG.channelRequired);
    expect(wrong.events.some((e) => e.step?.state === 'confirm')).toBe(false);
  });

  it('spends nothing until the user confirms the plan at its price; then the work is made as that user, once', async () => {
    const [creditsBefore, worksBefore] = [await credits(a), (await worksOf(a)).length];
    const s = await operate(a, `做视频 ${avatarA} ${voice}`);
    const plan = planOf(s);
    const channel = (await call(a, API.works.videoChannel)).data.list.find((c: { api: string }) => c.api === 'local');
    expect(plan).toMatchObject({ async: 0, status: HelperPlanStatus.Awaiting, items: [{ call: 'works.create', status: HelperItemStatus.Waiting }] });
    expect(plan.credits).toBe(workCredits(estimateSeconds(`${SCRIPT}第1段。`), channel.credits));
    // The card names things, not ids: the avatar, the voice, the channel, the script's first words.
    expect(plan.items[0]!.label).toBe(`合成视频「助手作品1」：分身「我的分身」，声音「公共声音」，通道「${channel.name}」，文案「${SCRIPT}第1段。」`);
    expect(plan.items[0]!.credits).toBe(plan.credits);
    expect([await credits(a), (await worksOf(a)).length]).toEqual([creditsBefore, worksBefore]);
    // Another user can neither confirm nor cancel it.
    expect(await call(b, API.helper.confirm, { id: plan.id })).toMatchObject({ code: 1, msg: MSG.helperPlanMissing });
    expect(await call(b, API.helper.cancel, { id: plan.id })).toMatchObject({ code: 1, msg: MSG.helperPlanMissing });
    const done = await call(a, API.helper.confirm, { id: plan.id });
    expect(done.data).toMatchObject({ status: HelperPlanStatus.Done, items: [{ status: HelperItemStatus.Done, result: expect.stringMatching(/^已创建（ID \d+）$/) }] });
    expect((await worksOf(a)).map((w) => w.name)).toContain('助手作品1');
    expect(await credits(a)).toBe(creditsBefore - plan.credits);
    expect(await call(a, API.helper.confirm, { id: plan.id })).toMatchObject({ code: 1, msg: MSG.helperPlanNotAwaiting });
    expect((await worksOf(b)).length).toBe(0);
  });

  it("refuses another user's avatar or voice before any card, and a declined plan never runs", async () => {
    const creditsBefore = await settledCredits(a);
    for (const [q, why] of [[`做视频 ${avatarB} ${voice}`, MSG.helperAvatarMissing], [`做视频 ${avatarA} 999999`, MSG.helperVoiceMissing], ['试听 999999', MSG.helperVoiceMissing]] as const) {
      const refused = await operate(a, q);
      expect(refused.events.find((e) => e.step?.state === 'failed')?.step?.result, q).toBe(why);
      expect(refused.events.some((e) => e.step?.state === 'confirm'), q).toBe(false);
    }
    // Nor is the other user's avatar named to them through a card of their own plan: b sees its own by name.
    const own = planOf(await operate(b, `做视频 ${avatarB} ${voice}`));
    expect(own.items[0]!.label).toContain('分身「别人的分身」');
    await call(b, API.helper.cancel, { id: own.id });
    const declined = planOf(await operate(a, `做视频 ${avatarA} ${voice}`));
    expect((await call(a, API.helper.cancel, { id: declined.id })).data).toMatchObject({ status: HelperPlanStatus.Cancelled, items: [{ status: HelperItemStatus.Cancelled }] });
    expect(await call(a, API.helper.confirm, { id: declined.id })).toMatchObject({ code: 1, msg: MSG.helperPlanNotAwaiting });
    expect(await credits(a)).toBe(creditsBefore);
    expect((await worksOf(b)).length).toBe(0);
  });

  it("names a photo-speak picture on the card, and refuses another user's", async () => {
    const picture = ffmpegCached(path.join(mediaDir(), 'helper-photo.png'), ['-f', 'lavfi', '-i', 'testsrc2=size=720x1280', '-frames:v', '1']);
    const photoOf = async (c: ApiTestClient, name: string) => {
      const up = await uploadFile(c, 'image', picture, `${name}.png`);
      return (await call(c, API.photo.create, { type: 1, name, file_id: up.data.file_id })).data.id as number;
    };
    const [mine, theirs] = [await photoOf(a, '我的照片'), await photoOf(b, '别人的照片')];
    const plan = planOf(await operate(a, `照片视频 ${mine} ${voice}`));
    expect(plan.items[0]!.label).toContain('照片「我的照片」，声音「公共声音」');
    await call(a, API.helper.cancel, { id: plan.id });
    const refused = await operate(a, `照片视频 ${theirs} ${voice}`);
    expect(refused.events.find((e) => e.step?.state === 'failed')?.step?.result).toBe(MSG.photoMissing);
    expect(refused.events.some((e) => e.step?.state === 'confirm')).toBe(false);
  });

  it('starts an extraction of a direct media link only after the card with its price is confirmed', async () => {
    const link = `${host.url}/v/clip.mp4`;
    const extractions = (c: ApiTestClient) => c.call(API.extraction.videoList, { page: 1, limit: 50 }).then((r) => r.data.list as { id: number; status: number }[]);
    const creditsBefore = await settledCredits(a);
    const plan = planOf(await operate(a, `提取 ${link}`));
    expect(plan).toMatchObject({ credits: LIMITS.extractionCredits, items: [{ call: 'extraction.videoParse', label: `提取视频：「${[...link].slice(0, LIMITS.helper.labelClipChars).join('')}…」` }] });
    expect([await credits(a), (await extractions(a)).length]).toEqual([creditsBefore, 0]);
    const done = await call(a, API.helper.confirm, { id: plan.id });
    expect(done.data.items[0]).toMatchObject({ status: HelperItemStatus.Done, result: expect.stringMatching(/^已创建（ID \d+）$/) });
    expect(await credits(a)).toBe(creditsBefore - LIMITS.extractionCredits);
    const [record] = (await until(() => extractions(a), (list) => list[0]?.status !== ExtractionStatus.Processing, 30_000));
    expect(record!.status).toBe(ExtractionStatus.Success);
    expect(await extractions(b)).toEqual([]);
  });

  it('runs a background task item after item for one total price; a cancelled item never runs; the list is mine', async () => {
    const worksBefore = (await worksOf(a)).length;
    const plan = planOf(await operate(a, `批量 ${avatarA} ${voice}`, 1));
    expect(plan).toMatchObject({ async: 1, items: [{}, {}, {}] });
    expect(plan.credits).toBe(plan.items.reduce((sum, i) => sum + i.credits, 0));
    expect((await call(a, API.helper.plans)).data.list).toEqual([]);
    await call(a, API.helper.cancel, { id: plan.id, item_id: plan.items[2]!.id });
    expect(await call(a, API.helper.cancel, { id: plan.id, item_id: plan.items[2]!.id })).toMatchObject({ code: 1, msg: MSG.helperNothingToCancel });
    expect((await call(a, API.helper.confirm, { id: plan.id })).data.status).toBe(HelperPlanStatus.Running);
    const listed = await until(() => call(a, API.helper.plans), (r) => r.data.list[0]?.status === HelperPlanStatus.Done, 60_000);
    expect(listed.data.list[0]).toMatchObject({
      id: plan.id, items: [{ status: HelperItemStatus.Done }, { status: HelperItemStatus.Done }, { status: HelperItemStatus.Cancelled }],
    });
    expect((await worksOf(a)).length).toBe(worksBefore + 2);
    expect((await call(b, API.helper.plans)).data.list).toEqual([]);
    expect(await call(a, API.helper.cancel, { id: plan.id })).toMatchObject({ code: 1, msg: MSG.helperNothingToCancel });
  });

  it('keeps my conversations: listed per screen, reopened with their steps and plans as they stand, continued, deleted; never anyone else\'s', async () => {
    const first = await operate(a, '积分');
    const cid = first.events[0]!.cid!;
    expect(first.events[0]).toEqual({ message: '', cid });
    const before = peer.requests.length;
    const second = await operate(a, `做视频 ${avatarA} ${voice}`, 0, cid);
    expect(second.events[0]!.cid).toBe(cid);
    // The model sees the conversation's earlier turn.
    expect(peer.requests[before]!.body.messages.map((m) => [m.role, m.role === 'user' ? m.content : ''])).toEqual([
      ['system', ''], ['user', '积分'], ['assistant', ''], ['user', `做视频 ${avatarA} ${voice}`],
    ]);
    const plan = planOf(second);
    expect((await call(a, API.helper.conversations, { async: 0 })).data.list[0]).toMatchObject({ id: cid, async: 0, title: '积分' });
    expect((await call(a, API.helper.conversations, { async: 1 })).data.list.map((c: { id: number }) => c.id)).not.toContain(cid);
    await call(a, API.helper.cancel, { id: plan.id });
    const reopened = (await call(a, API.helper.conversation, { id: cid })).data;
    expect(reopened).toMatchObject({ id: cid, title: '积分', turns: [{ question: '积分', plan: null }, { question: `做视频 ${avatarA} ${voice}`, answer: '' }] });
    expect(reopened.turns[0].steps).toMatchObject([{ label: '查询积分', state: 'done', result: expect.stringMatching(/^\d+ 积分$/) }]);
    expect(reopened.turns[0].answer).toContain('查到了');
    expect(reopened.turns[1].plan).toMatchObject({ id: plan.id, status: HelperPlanStatus.Cancelled });
    // Two users apart: b can neither list, read, continue nor delete it.
    const theirs = (await call(b, API.helper.conversations, { async: 0 })).data.list as { id: number }[];
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.map((c) => c.id)).not.toContain(cid);
    expect(await call(b, API.helper.conversation, { id: cid })).toMatchObject({ code: 1, msg: MSG.helperConversationMissing });
    expect(await call(b, API.helper.removeConversation, { id: cid })).toMatchObject({ code: 1, msg: MSG.helperConversationMissing });
    expect((await operate(b, '积分', 0, cid)).events).toEqual([{ message: '', error: MSG.helperConversationMissing, done: 1 }]);
    // Nor does the task screen continue an operation conversation; bad ids are refused clearly.
    expect((await operate(a, '积分', 1, cid)).events).toEqual([{ message: '', error: MSG.helperConversationMissing, done: 1 }]);
    expect(await call(a, API.helper.conversation, { id: 'x' })).toMatchObject({ code: 1, msg: expect.stringContaining('会话ID') });
    expect((await operate(a, '积分', 0, -1)).json).toMatchObject({ code: 1, msg: expect.stringContaining('会话ID') });
    expect(await call(a, API.helper.removeConversation, { id: cid })).toMatchObject({ code: 0 });
    expect(await call(a, API.helper.conversation, { id: cid })).toMatchObject({ code: 1, msg: MSG.helperConversationMissing });
    expect((await call(a, API.helper.conversations, { async: 0 })).data.list.map((c: { id: number }) => c.id)).not.toContain(cid);
    // Its plan stays (a confirmed task would run on).
    expect((await call(a, API.helper.cancel, { id: plan.id })).msg).toBe(MSG.helperNothingToCancel);
  });

  it('says so up front without a chat engine', async () => {
    await t.operator(API.admin.siteSet, { settings: { chat_api_key: '' } });
    try {
      expect((await call(a, API.helper.status)).data.chat).toBe(0);
      expect((await operate(a, '积分')).events).toEqual([{ message: '', error: MSG.chatEngineMissing, done: 1 }]);
      expect((await stream(API.helper.guide, { token: a.token!, q: '你好' })).events).toEqual([{ message: '', error: MSG.chatEngineMissing, done: 1 }]);
    } finally {
      await t.operator(API.admin.siteSet, { settings: { chat_api_key: peer.apiKey } });
    }
  });
});
