/**
 * Super replica through real HTTP on both databases, with loopback chat (OpenAI-compatible) and transcription peers:
 * without a chat engine personas and products work and every other call says 文案引擎尚未配置; bad input refused for
 * every call; an uploaded clip's copy read from its speech and analysed into the contract's shape (priced as copy
 * extraction plus a chat answer); a malformed answer asked once more, then refused and refunded (the job and the
 * direct calls alike); 仿写, account analysis, topics and scripts kept and charged; two users never reach each other's
 * personas, products, analyses or scripts.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, REPLICA_VIDEO_CREDITS, type ReplicaVideo, type VideoAnalysis } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeImage, makeVideo, mediaDir } from '../../../tests/support/media';
import { startOpenAiPeer, type OpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { startHybridPeer } from '../../../tests/support/peers/parse-peers';
import { startTranscriptionPeer, type TranscriptionPeer } from '../../../tests/support/peers/transcription-peer';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { creditsOf } from '../../../tests/support/voices';

const dir = mediaDir();
const CLIP = makeVideo(path.join(dir, 'viral.mp4'), { width: 360, height: 640, seconds: 5 });
const PICTURE = makeImage(path.join(dir, 'product.png'), { width: 320, height: 320 });
const SPOKEN = ['你还在为皮肤干燥发愁吗？三个动作帮你解决，最后一个最关键'];

const ANALYSIS: VideoAnalysis = {
  hook: { text: '你还在为皮肤干燥发愁吗？', why: '直击痛点的提问' },
  structure: [{ start: 0, end: 5, beat: '痛点提问并承诺方法', purpose: '留人' }],
  emotion: '焦虑到释然，节奏快',
  persuasion: ['痛点共鸣', '悬念'],
  ending: '最后一个最关键，引导看完',
  patterns: ['你还在为【痛点】发愁吗？'],
  score: 86,
  summary: '痛点提问加悬念',
};
const VARIANTS = { variants: [{ title: '版本一', text: '你还在为熬夜脸发愁吗？' }, { title: '版本二', text: '熬夜党看过来！' }, { title: '版本三', text: '三个动作告别暗沉' }] };
const ACCOUNT = {
  positioning: '护肤知识科普', audience: '25-35岁女性', pillars: ['成分解析', '避坑'], top_posts: '痛点开头加实测',
  persona: { name: '成分党小美', industry: '美妆', audience: '25-35岁女性', tone: '亲切专业', selling_points: '实测', catchphrases: '姐妹们', taboo: '最' },
};
const TOPICS = { topics: [{ title: '熬夜脸急救', angle: '三步打工人版' }] };
const PERSONA = { name: '护肤小安', industry: '美妆', audience: '上班族', tone: '闺蜜聊天', selling_points: '温和', catchphrases: '姐妹们', taboo: '第一' };
const PRODUCT = { name: '修护面霜', category: '护肤', price: 129.9, selling_points: '三重修护', audience: '干皮', scenes: '熬夜后' };

/** The status of a GET, its body read so no socket is left open. */
async function statusOf(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

/** The peer answers each ask by what its system prompt asks for. */
function answerFor(system: string): string {
  if (system.includes('爆款拆解')) return JSON.stringify(ANALYSIS);
  if (system.includes('账号定位')) return `好的：\n\`\`\`json\n${JSON.stringify(ACCOUNT)}\n\`\`\``;
  if (system.includes('选题策划')) return JSON.stringify(TOPICS);
  if (system.includes('只写一个版本')) return JSON.stringify({ variants: [VARIANTS.variants[0]] });
  return JSON.stringify(VARIANTS);
}

describe.each(DB_KINDS)('super replica (%s)', (kind) => {
  let chat: OpenAiPeer;
  let asr: TranscriptionPeer;
  beforeAll(async () => {
    [chat, asr] = await Promise.all([startOpenAiPeer(), startTranscriptionPeer()]);
    asr.texts = SPOKEN;
    chat.behave({ kind: 'reply', text: (_user, req) => answerFor(req.system) });
  });
  afterAll(() => Promise.all([chat, asr].map((p) => p?.close())));

  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15900000001', '15900000002'], 200);
  let clipId: number;
  beforeAll(async () => {
    const up = await uploadFile(a, 'video', CLIP, 'viral.mp4');
    expect(up.code, up.msg).toBe(0);
    clipId = up.data.file_id;
  });

  const credits = creditsOf;
  const settings = (s: Record<string, string>) => t.operator(API.admin.siteSet, { settings: s });
  const withChat = () => settings({ chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'test-v3' });
  async function finished(c: ApiTestClient, id: number): Promise<ReplicaVideo> {
    const reply = await until(() => c.call(API.replica.videos, { id }), (r) => [3, 4].includes(r.data?.list[0]?.status), 120_000);
    return reply.data.list[0];
  }

  it('keeps personas and products without a chat engine, and says so for everything that needs one', async () => {
    expect((await a.call(API.replica.engine, {})).data).toEqual({ ready: false, profiles: false, answer_credits: LIMITS.chatAnswerCredits, video_credits: REPLICA_VIDEO_CREDITS });
    const persona = await a.call(API.replica.personaSave, PERSONA);
    expect(persona.code, persona.msg).toBe(0);
    const picture = await uploadFile(a, 'image', PICTURE);
    const product = await a.call(API.replica.productSave, { ...PRODUCT, image: picture.data.file_id });
    expect(product.code, product.msg).toBe(0);
    const products = (await a.call(API.replica.products, { page: 1, limit: 10 })).data;
    expect(products.list[0]).toMatchObject({ ...PRODUCT, id: product.data.id, image_id: picture.data.file_id });
    const image = await fetch(`${t.url}${products.list[0].image}`);
    expect(image.status).toBe(200);
    await image.body?.cancel();
    // An update keeps the id; the list shows the change.
    expect((await a.call(API.replica.personaSave, { ...PERSONA, id: persona.data.id, tone: '干脆利落' })).data).toEqual({ id: persona.data.id });
    expect((await a.call(API.replica.personas, { page: 1, limit: 10 })).data).toMatchObject({ total: 1, list: [{ ...PERSONA, tone: '干脆利落', id: persona.data.id }] });

    const needsChat: [keyof typeof API.replica, Record<string, unknown>][] = [
      ['analyseVideo', { type: 2, file_id: clipId }],
      ['analyseAccount', { description: '美妆博主，分享护肤' }],
      ['topics', { persona_id: persona.data.id }],
      ['generate', { persona_id: persona.data.id, topic: '熬夜脸急救' }],
    ];
    for (const [call, params] of needsChat) expect(await a.call(API.replica[call], params), call).toMatchObject({ code: 1, msg: MSG.replicaChatMissing });
    expect(await credits(a)).toBe(200);
    expect(chat.requests).toEqual([]);
  });

  it('refuses bad input for every call with a Chinese message, charging nothing', async () => {
    await withChat();
    const persona = (await a.call(API.replica.personas, { page: 1, limit: 1 })).data.list[0].id as number;
    const theirPicture = await uploadFile(b, 'image', PICTURE);
    const refused: [keyof typeof API.replica, Record<string, unknown>, string][] = [
      ['personaSave', { name: '' }, MSG.replicaPersonaNameRequired],
      ['personaSave', { name: '名'.repeat(31) }, '人设名称不能超过30个字符'],
      ['personaSave', { name: '甲', tone: 'x'.repeat(501) }, '语气风格不能超过500个字符'],
      ['personaSave', { id: 999_999, name: '甲' }, MSG.replicaPersonaMissing],
      ['personaRemove', { id: 999_999 }, MSG.replicaPersonaMissing],
      ['personaRemove', {}, '人设'],
      ['productSave', { name: '' }, MSG.replicaProductNameRequired],
      ['productSave', { name: '乙', price: -1 }, '价格不能小于0'],
      ['productSave', { name: '乙', price: 'abc' }, '价格必须是数字'],
      ['productSave', { name: '乙', image: 999_999 }, MSG.replicaImageMissing],
      ['productSave', { name: '乙', image: theirPicture.data.file_id }, MSG.replicaImageMissing],
      ['productSave', { name: '乙', image: clipId }, MSG.replicaImageMissing],
      ['productRemove', { id: 999_999 }, MSG.replicaProductMissing],
      ['analyseVideo', { type: 1, link: '' }, MSG.extractionLinkRequired],
      ['analyseVideo', { type: 1, link: 'http://10.0.0.8/v.mp4' }, MSG.extractionLinkRefused],
      ['analyseVideo', { type: 2 }, MSG.translationVideoRequired],
      ['analyseVideo', { type: 2, file_id: 999_999 }, MSG.extractionVideoMissing],
      ['analyseVideo', { type: 3 }, '提取方式取值有误'],
      ['videos', { id: 'x' }, '记录ID格式有误'],
      ['videoRemove', { id: 999_999 }, MSG.replicaRecordMissing],
      ['mimic', { id: 999_999, persona_id: persona }, MSG.replicaAnalysisMissing],
      ['mimic', { id: 1 }, MSG.replicaPersonaRequired],
      ['analyseAccount', { description: '  ' }, MSG.replicaDescriptionRequired],
      ['analyseAccount', { description: '字'.repeat(4001) }, '账号描述不能超过4000个字符'],
      ['accountRemove', { id: 999_999 }, MSG.replicaRecordMissing],
      ['topics', {}, MSG.replicaPersonaRequired],
      ['topics', { persona_id: 999_999 }, MSG.replicaPersonaMissing],
      ['topics', { persona_id: persona, product_id: 999_999 }, MSG.replicaProductMissing],
      ['generate', { persona_id: persona, topic: '' }, MSG.replicaTopicRequired],
      ['generate', { persona_id: persona, topic: '题', seconds: 45 }, '时长取值有误'],
      ['generate', { persona_id: persona, topic: '题', style: 'rap' }, '风格取值有误'],
      ['scriptRemove', { id: 999_999 }, MSG.replicaRecordMissing],
    ];
    for (const [call, params, msg] of refused) {
      const reply = await a.call(API.replica[call], params);
      expect(reply.code, `${call} ${JSON.stringify(params)}`).toBe(1);
      expect(reply.msg, `${call} ${JSON.stringify(params)}`).toContain(msg);
    }
    expect(await credits(a)).toBe(200);
    expect(chat.requests).toEqual([]);
  });

  let videoId: number;
  it('reads an uploaded clip\'s copy from its speech and analyses it into its parts', async () => {
    await settings({ asr_base_url: asr.url, asr_api_key: asr.apiKey, asr_model: 'whisper-large-v3' });
    const reply = await a.call(API.replica.analyseVideo, { type: 2, file_id: clipId });
    expect(reply.code, reply.msg).toBe(0);
    videoId = reply.data.id;
    expect(await credits(a)).toBe(200 - REPLICA_VIDEO_CREDITS);
    const r = await finished(a, videoId);
    expect(r, r.reason).toMatchObject({ status: 3, type: 2, analysis: ANALYSIS, text: `${SPOKEN[0]}。` });
    expect(r.segments[0]).toMatchObject({ start: 0, text: SPOKEN[0] });
    // Its cover is a frame of the video, served to its owner.
    const cover = await fetch(`${t.url}${r.cover}`);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    expect((await cover.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The chat engine was given the timed sentences.
    const ask = chat.requests.at(-1)!;
    expect(ask.system).toContain('爆款拆解');
    expect(ask.user).toContain(SPOKEN[0]);
    expect(await credits(a)).toBe(200 - REPLICA_VIDEO_CREDITS);
  });

  it('asks once more for a malformed answer, then refuses it and gives everything back', async () => {
    const before = await credits(a);
    chat.behave({ kind: 'reply', text: '这条视频很好，因为它很好。' });
    let asked = chat.requests.length;
    const reply = await a.call(API.replica.analyseVideo, { type: 2, file_id: clipId });
    const r = await finished(a, reply.data.id);
    expect(r).toMatchObject({ status: 4, analysis: null, reason: MSG.replicaFailed(MSG.replicaAnswerInvalid) });
    expect(chat.requests.length - asked).toBe(2);
    expect(await credits(a)).toBe(before);

    // A JSON answer of the wrong shape is as malformed, for the direct calls too.
    chat.behave({ kind: 'reply', text: JSON.stringify({ variants: [{ title: '' }] }) });
    asked = chat.requests.length;
    const persona = (await a.call(API.replica.personas, { page: 1, limit: 1 })).data.list[0].id as number;
    expect(await a.call(API.replica.mimic, { id: videoId, persona_id: persona })).toMatchObject({ code: 1, msg: MSG.replicaFailed(MSG.replicaAnswerInvalid) });
    expect(await a.call(API.replica.analyseAccount, { description: '美妆博主' })).toMatchObject({ code: 1, msg: MSG.replicaFailed(MSG.replicaAnswerInvalid) });
    expect(chat.requests.length - asked).toBe(4);
    // An engine failure is refunded with its reason.
    chat.behave({ kind: 'status', status: 401 });
    const failed = await a.call(API.replica.topics, { persona_id: persona });
    expect(failed.code).toBe(1);
    expect(failed.msg).toMatch(/积分已退回$/);
    expect(await credits(a)).toBe(before);
    expect((await a.call(API.replica.scripts, { page: 1, limit: 10 })).data.total).toBe(0);
    chat.behave({ kind: 'reply', text: (_user, req) => answerFor(req.system) });
  });

  it('writes 仿写 variants, account analyses, topics and scripts for a persona and product, each kept and charged as a chat answer', async () => {
    const before = await credits(a);
    const persona = (await a.call(API.replica.personas, { page: 1, limit: 1 })).data.list[0].id as number;
    const product = (await a.call(API.replica.products, { page: 1, limit: 1 })).data.list[0].id as number;

    const mimic = await a.call(API.replica.mimic, { id: videoId, persona_id: persona, product_id: product });
    expect(mimic.code, mimic.msg).toBe(0);
    expect(mimic.data.variants).toEqual(VARIANTS.variants);
    const ask = chat.requests.at(-1)!;
    for (const part of ['干脆利落', PERSONA.taboo, PRODUCT.name, '129.9元', ANALYSIS.hook.text]) expect(ask.user).toContain(part);

    const account = await a.call(API.replica.analyseAccount, { description: '成分党美妆博主，近期爆款：熬夜脸急救' });
    expect(account.data.analysis).toEqual(ACCOUNT);
    // The draft saves as a persona.
    expect((await a.call(API.replica.personaSave, account.data.analysis.persona)).code).toBe(0);

    expect((await a.call(API.replica.topics, { persona_id: persona, product_id: product })).data).toEqual({ list: TOPICS.topics });
    const script = await a.call(API.replica.generate, { persona_id: persona, topic: '熬夜脸急救', seconds: 15, style: 'zhongcao' });
    expect(script.data.variants).toEqual([VARIANTS.variants[0]]);
    expect(chat.requests.at(-1)!.system).toContain('约 15 秒的种草风格');
    expect(await credits(a)).toBe(before - 4 * LIMITS.chatAnswerCredits);

    const scripts = (await a.call(API.replica.scripts, { page: 1, limit: 10 })).data;
    expect(scripts.total).toBe(2);
    expect(scripts.list[0]).toMatchObject({ kind: 'generate', analysis_id: 0, persona_name: PERSONA.name, product_name: '', topic: '熬夜脸急救' });
    expect(scripts.list[1]).toMatchObject({ kind: 'mimic', analysis_id: videoId, persona_name: PERSONA.name, product_name: PRODUCT.name, variants: VARIANTS.variants });

    // An edit of one variant is kept, free; a variant past the list, an empty text or an unknown script is refused.
    const kept = mimic.data.id as number;
    expect(await a.call(API.replica.scriptEdit, { id: kept, index: 1, text: '  熬夜党改好了！  ' })).toMatchObject({ code: 0 });
    const edited = (await a.call(API.replica.scripts, { page: 1, limit: 10 })).data.list.find((s: { id: number }) => s.id === kept);
    expect(edited.variants).toEqual([VARIANTS.variants[0], { ...VARIANTS.variants[1], text: '熬夜党改好了！' }, VARIANTS.variants[2]]);
    expect(await a.call(API.replica.scriptEdit, { id: script.data.id, index: 1, text: '只有一个版本' })).toMatchObject({ code: 1, msg: MSG.replicaRecordMissing });
    expect(await a.call(API.replica.scriptEdit, { id: kept, index: 0, text: '  ' })).toMatchObject({ code: 1, msg: MSG.replicaScriptTextRequired });
    expect(await a.call(API.replica.scriptEdit, { id: kept, index: 3, text: '越界' })).toMatchObject({ code: 1 });
    expect(await a.call(API.replica.scriptEdit, { id: 999_999, index: 0, text: '无此脚本' })).toMatchObject({ code: 1, msg: MSG.replicaRecordMissing });
    expect(await credits(a)).toBe(before - 4 * LIMITS.chatAnswerCredits);
    expect((await a.call(API.replica.accounts, { page: 1, limit: 10 })).data).toMatchObject({ total: 1, list: [{ id: account.data.id, analysis: ACCOUNT }] });
  });

  it('reads an account from its profile link through the link-parse engine (Douyin or TikTok), and says when it cannot, charging nothing then', async () => {
    const peer = await startHybridPeer();
    try {
      await withChat();
      const c = await t.user('15900000003', 100);
      const douyin = 'https://v.douyin.com/iProfile1/';
      const tiktok = 'https://www.tiktok.com/@skincare.lab';
      peer.profiles.set(douyin, { nickname: '成分党小美', signature: '只讲实测的护肤', followers: 123000, posts: [{ desc: '平价面霜横评', likes: 80000 }, { desc: '熬夜脸急救三步', likes: 120000 }] });
      peer.profiles.set(tiktok, { nickname: 'Skin Lab', signature: 'real tests only', followers: 5000, posts: [{ desc: 'retinol 101', likes: 900 }] });

      // No engine, or one without profile routes: the screen is told up front and the call refuses.
      await settings({ parse_engine: 'none' });
      expect((await c.call(API.replica.engine, {})).data.profiles).toBe(false);
      expect(await c.call(API.replica.analyseAccount, { link: douyin })).toMatchObject({ code: 1, msg: MSG.replicaProfileUnavailable });
      await settings({ parse_engine: 'parsevideo', parse_base_url: peer.url });
      expect((await c.call(API.replica.engine, {})).data.profiles).toBe(false);
      expect(await c.call(API.replica.analyseAccount, { link: douyin })).toMatchObject({ code: 1, msg: MSG.replicaProfileUnavailable });

      await settings({ parse_engine: 'hybrid', parse_base_url: peer.url });
      expect((await c.call(API.replica.engine, {})).data.profiles).toBe(true);
      expect(await c.call(API.replica.analyseAccount, { link: '主页在简介里' })).toMatchObject({ code: 1, msg: MSG.replicaProfileLinkMissing });
      expect(await c.call(API.replica.analyseAccount, { link: 'http://127.0.0.1:9/user/1' })).toMatchObject({ code: 1, msg: MSG.extractionLinkRefused });
      expect(await c.call(API.replica.analyseAccount, { link: 'https://v.douyin.com/gone/' })).toMatchObject({ code: 1, msg: MSG.parseLinkExpired });
      expect(await credits(c)).toBe(100);

      // A Douyin share text: the profile and its posts, the most liked first, then what the user added.
      const one = await c.call(API.replica.analyseAccount, { link: `长按复制此条消息，打开抖音搜索，查看TA的更多作品。 ${douyin}`, description: '我的对标账号' });
      expect(one.code, one.msg).toBe(0);
      expect(one.data.analysis).toEqual(ACCOUNT);
      const asked = chat.requests.at(-1)!.user;
      for (const part of ['成分党小美', '粉丝 123000', '只讲实测的护肤', '熬夜脸急救三步（点赞 120000）', '我的对标账号']) expect(asked).toContain(part);
      expect(asked.indexOf('熬夜脸急救三步')).toBeLessThan(asked.indexOf('平价面霜横评'));
      expect(peer.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/douyin/web/handler_user_profile', '/api/douyin/web/fetch_user_post_videos']));

      const two = await c.call(API.replica.analyseAccount, { link: tiktok });
      expect(two.code, two.msg).toBe(0);
      for (const part of ['Skin Lab', '粉丝 5000', 'retinol 101（点赞 900）']) expect(chat.requests.at(-1)!.user).toContain(part);
      expect(peer.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/tiktok/web/fetch_user_profile', '/api/tiktok/web/fetch_user_post']));
      expect(await credits(c)).toBe(100 - 2 * LIMITS.chatAnswerCredits);
      // What was read is kept with the analysis.
      expect((await c.call(API.replica.accounts, { page: 1, limit: 10 })).data.list[1].description).toContain('成分党小美');
    } finally {
      await settings({ parse_engine: 'none' });
      await peer.close();
    }
  });

  it('keeps two users apart: personas, products, analyses and scripts', async () => {
    const mine = async <K extends 'personas' | 'products' | 'videos' | 'accounts' | 'scripts'>(c: ApiTestClient, call: K) =>
      (await c.call(API.replica[call], { page: 1, limit: 50 })).data.list as { id: number }[];
    const persona = (await mine(a, 'personas'))[0]!.id;
    const product = (await mine(a, 'products'))[0]!.id;
    const script = (await mine(a, 'scripts'))[0]!.id;
    const account = (await mine(a, 'accounts'))[0]!.id;
    const videoCover = (await a.call(API.replica.videos, { id: videoId })).data.list[0].cover as string;
    expect(videoCover).toMatch(/^\/storage\//);
    // B cannot open A's cover without A's signature.
    expect(await statusOf(`${t.url}${videoCover.replace(/sig=[^&]+/, 'sig=forged')}`)).toBeGreaterThanOrEqual(400);
    for (const call of ['personas', 'products', 'videos', 'accounts', 'scripts'] as const) expect(await mine(b, call), call).toEqual([]);
    expect((await b.call(API.replica.videos, { id: videoId })).data).toEqual({ list: [], total: 0 });

    const theirs: [keyof typeof API.replica, Record<string, unknown>, string][] = [
      ['personaSave', { id: persona, name: '偷改' }, MSG.replicaPersonaMissing],
      ['personaRemove', { id: persona }, MSG.replicaPersonaMissing],
      ['productSave', { id: product, name: '偷改' }, MSG.replicaProductMissing],
      ['productRemove', { id: product }, MSG.replicaProductMissing],
      ['videoRemove', { id: videoId }, MSG.replicaRecordMissing],
      ['accountRemove', { id: account }, MSG.replicaRecordMissing],
      ['scriptRemove', { id: script }, MSG.replicaRecordMissing],
      ['scriptEdit', { id: script, index: 0, text: '偷改' }, MSG.replicaRecordMissing],
      ['topics', { persona_id: persona }, MSG.replicaPersonaMissing],
      ['analyseVideo', { type: 2, file_id: clipId }, MSG.extractionVideoMissing],
    ];
    for (const [call, params, msg] of theirs) expect(await b.call(API.replica[call], params), call).toMatchObject({ code: 1, msg });
    // B's own persona cannot mimic A's analysis.
    const own = await b.call(API.replica.personaSave, { name: '乙的人设' });
    expect(await b.call(API.replica.mimic, { id: videoId, persona_id: own.data.id })).toMatchObject({ code: 1, msg: MSG.replicaAnalysisMissing });
    expect(await b.call(API.replica.generate, { persona_id: own.data.id, product_id: product, topic: '题' })).toMatchObject({ code: 1, msg: MSG.replicaProductMissing });
    expect(await credits(b)).toBe(200);

    // A's records are whole, and A deletes them.
    expect((await mine(a, 'personas')).map((p) => p.id)).toContain(persona);
    for (const [call, id] of [['scriptRemove', script], ['accountRemove', account], ['videoRemove', videoId], ['productRemove', product]] as const) {
      expect((await a.call(API.replica[call], { id })).code, call).toBe(0);
    }
    expect((await a.call(API.replica.videos, { id: videoId })).data.total).toBe(0);
    // The analysis' cover went with it.
    expect(await statusOf(`${t.url}${videoCover}`)).toBe(404);
  });
});
