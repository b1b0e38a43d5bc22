/**
 * Copy extraction through real HTTP on both databases: a direct media link on a loopback host and an uploaded video
 * read offline from the captions on screen (source ocr, the caption reader's proof: ≥ 90 % of the characters in
 * order, each sentence within 0.5 s, no watermark) or, with a recognition engine set, from the speech (a loopback
 * transcription peer: source asr); the free daily extraction, then 10 credits; bad links, internal addresses and
 * files that are no video refused at submit or failed and refunded; a video with neither speech nor captions failed
 * with its reason and refunded; edit, save to the material library, delete; the 二创 stream against a loopback chat
 * peer, charged like a chat answer and given back on failure; two users who never reach each other's records.
 * One captioned clip (media cache) serves every reading.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, type ChatStreamEvent, type CopyRecord } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient, type TestApp } from '../../../tests/support/app';
import { CAPTIONED_CLIP, makeSpokenCaptionedClip, scoreCaptionReading } from '../../../tests/support/caption-media';
import { makeImage, makeVideo, mediaDir, withoutSound } from '../../../tests/support/media';
import { startOpenAiPeer, type OpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { startHybridPeer, useGuardedMedia, type ParsePeer } from '../../../tests/support/peers/parse-peers';
import { startTranscriptionPeer, type TranscriptionPeer } from '../../../tests/support/peers/transcription-peer';
import { uploadFile } from '../../../tests/support/upload';
import { ended } from '../../../tests/support/wait';
import { creditsOf } from '../../../tests/support/voices';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const CLIP = path.join(dir, 'spoken-captions.mp4');
/** A picture with no caption and no sound. */
const BLANK = withoutSound(makeVideo(path.join(dir, 'blank-sound.mp4'), { width: 320, height: 180, seconds: 2 }), path.join(dir, 'blank.mp4'));
const SPOKEN = ['大家好，今天聊数字人', '只要一段素材', '声音口型自动生成'];
const REWRITTEN = '家人们！数字人视频其实超简单，一段素材就够了。';

interface Streamed {
  events: ChatStreamEvent[];
  text: string;
  error?: string;
  json?: { code: number; msg: string };
}

async function rewrite(t: TestApp, c: ApiTestClient, q: Record<string, string | number>): Promise<Streamed> {
  const query = new URLSearchParams({ token: String(c.token), ...Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) });
  const res = await fetch(`${t.url}${API.copywrite.rewrite.path}?${query}`);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { events: [], text: '', json: (await res.json()) as Streamed['json'] };
  const events = (await res.text())
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)) as ChatStreamEvent);
  return { events, text: events.map((e) => e.message).join(''), error: events.at(-1)?.error };
}

describe.each(DB_KINDS)('copy extraction (%s)', (kind) => {
  // Only the media host's port is let through the guard on loopback; the trap's is an internal address.
  const media = useGuardedMedia(CLIP);
  let asr: TranscriptionPeer;
  let chat: OpenAiPeer;
  let hybrid: ParsePeer;
  beforeAll(async () => {
    await makeSpokenCaptionedClip(CLIP);
    [asr, chat, hybrid] = await Promise.all([startTranscriptionPeer(), startOpenAiPeer(), startHybridPeer()]);
    asr.texts = SPOKEN;
    const { host } = media;
    host.serve('/v/koubo.mp4', CLIP);
    host.serve('/v/blank.mp4', BLANK);
    hybrid.posts.set('https://v.douyin.com/blank/', { desc: '没有字幕的作品', videoUrl: `${host.url}/v/blank.mp4` });
    hybrid.posts.set('https://v.douyin.com/pics/', { desc: '图文作品', musicUrl: `${host.url}/v/blank.mp4` });
  }, 120_000);
  afterAll(() => Promise.all([asr, chat, hybrid].map((p) => p?.close())));

  const t = useApp(kind, media.overrides);
  const [a, b] = useUsers(t, ['15800000001', '15800000002'], 100);

  const credits = creditsOf;
  const records = (c: ApiTestClient) => c.call(API.copywrite.list, { page: 1, limit: 50 });
  const settings = (s: Record<string, string>) => t.operator(API.admin.siteSet, { settings: s });
  const finished = async (c: ApiTestClient, id: number) => (await ended(() => records(c).then((r) => r.data.list as CopyRecord[]), id, 120_000)) as CopyRecord;
  async function extract(c: ApiTestClient, params: Record<string, unknown>): Promise<CopyRecord> {
    const reply = await c.call(API.copywrite.submit, params);
    expect(reply.code, reply.msg).toBe(0);
    return finished(c, reply.data.id);
  }

  it('refuses what it would never fetch or read, at submit and for nothing', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ type: 1, link: '' }, MSG.extractionLinkRequired],
      [{ type: 1, link: '复制打开抖音，看看这个作品' }, MSG.extractionLinkMissing],
      [{ type: 1, link: 'ftp://example.com/a.mp4' }, MSG.extractionLinkMissing],
      [{ type: 1, link: '看看 http://127.0.0.1:9/a.mp4' }, MSG.extractionLinkRefused],
      [{ type: 1, link: 'http://169.254.169.254/latest/meta-data' }, MSG.extractionLinkRefused],
      [{ type: 1, link: 'http://10.0.0.8/v.mp4' }, MSG.extractionLinkRefused],
      [{ type: 1, link: 'https://v.douyin.com/abc/' }, MSG.parseEngineMissing],
      [{ type: 2 }, MSG.translationVideoRequired],
      [{ type: 2, file_id: 999999 }, MSG.extractionVideoMissing],
      [{ type: 3, link: 'https://example.com/a.mp4' }, '提取方式取值有误'],
    ];
    for (const [params, msg] of refused) expect(await a.call(API.copywrite.submit, params), JSON.stringify(params)).toMatchObject({ code: 1, msg });
    // Another user's upload is not this user's video.
    const theirs = await uploadFile(b, 'video', CLIP);
    expect(theirs.code, theirs.msg).toBe(0);
    expect(await a.call(API.copywrite.submit, { type: 2, file_id: theirs.data.file_id })).toMatchObject({ code: 1, msg: MSG.extractionVideoMissing });
    // A picture is no video to read.
    const picture = await uploadFile(a, 'image', makeImage(path.join(dir, 'picture.png'), { width: 640, height: 360 }));
    expect(picture.code, picture.msg).toBe(0);
    expect(await a.call(API.copywrite.submit, { type: 2, file_id: picture.data.file_id })).toMatchObject({ code: 1, msg: MSG.extractionVideoMissing });
    expect(await credits(a)).toBe(100);
    expect((await records(a)).data).toEqual({ list: [], total: 0, num: 0 });
  });

  it('reads the captions on screen offline from a pasted direct link: the free extraction first (source ocr)', async () => {
    await settings({ extraction_free_daily: '1' });
    expect((await records(a)).data.num).toBe(1);
    const r = await extract(a, { type: 1, link: `复制这条视频 ${media.host.url}/v/koubo.mp4 看看` });
    expect(r, r.reason).toMatchObject({ status: 3, source: 'ocr', link: `${media.host.url}/v/koubo.mp4`, title: 'koubo' });
    const score = scoreCaptionReading({ sentences: r.segments, text: r.segments.map((s) => s.text).join('\n') });
    expect(r.segments).toHaveLength(CAPTIONED_CLIP.captions.length);
    expect(score.inOrder).toBeGreaterThanOrEqual(0.9);
    expect(score.worstTimeError).toBeLessThanOrEqual(0.5);
    expect(score.watermarkSeen).toBe(false);
    // The whole copy: each sentence with its full stop.
    expect(r.text).toBe(r.segments.map((s) => `${s.text}。`).join(''));
    expect(Math.abs(r.duration - CAPTIONED_CLIP.seconds)).toBeLessThan(0.2);
    const cover = await fetch(`${t.url}${r.cover}`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');
    await cover.body?.cancel();
    expect(asr.requests).toEqual([]);
    expect(await credits(a)).toBe(100);
    expect((await records(a)).data.num).toBe(0);
  }, 180_000);

  it('fails videos it cannot fetch or read, each with its reason, and refunds them', async () => {
    const before = await credits(a);
    const cases: [string, string][] = [
      [`${media.host.url}/v/not-video.mp4`, MSG.extractMediaInvalid],
      [`${media.host.url}/v/inside.mp4`, MSG.fetchAddressRefused],
      [`${media.host.url}/v/missing.mp4`, MSG.fetchFailed],
      [`${media.host.url}/v/blank.mp4`, MSG.copyNothingFound],
    ];
    for (const [link, why] of cases) expect(await extract(a, { type: 1, link }), link).toMatchObject({ status: 4, reason: MSG.extractionFailed(why, false), text: '', segments: [] });
    expect((await extract(a, { type: 1, link: `${media.host.url}/v/blank.mp4` })).reason).toBe('未识别到口播或字幕文案，积分已退回');
    expect(media.trap.hits).toEqual([]);
    expect(await credits(a)).toBe(before);
    const log = (await a.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string }[];
    expect(log.filter((x) => x.action_name === '文案提取失败退回')).toHaveLength(cases.length + 1);

    // A platform share text through the link-parse engine: a picture post, an expired link, a video with nothing to read.
    await settings({ parse_engine: 'hybrid', parse_base_url: hybrid.url });
    expect(await extract(a, { type: 1, link: '7.43 复制打开抖音 https://v.douyin.com/pics/ 看看' })).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.parseNotVideo, false) });
    expect(await extract(a, { type: 1, link: 'https://v.douyin.com/gone/' })).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.parseLinkExpired, false) });
    expect(await extract(a, { type: 1, link: 'https://v.douyin.com/blank/' })).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.copyNothingFound, false) });
    expect(hybrid.requests.map((r) => r.link)).toEqual(['https://v.douyin.com/pics/', 'https://v.douyin.com/gone/', 'https://v.douyin.com/blank/']);
    await settings({ parse_engine: 'none' });
    expect(await credits(a)).toBe(before);

    // A failed free extraction gives the free count back.
    expect(await extract(b, { type: 1, link: `${media.host.url}/v/blank.mp4` })).toMatchObject({ status: 4, reason: MSG.extractionFailed(MSG.copyNothingFound, true) });
    expect((await records(b)).data.num).toBe(1);
    expect(await credits(b)).toBe(100);
  }, 120_000);

  it('reads the speech first when a recognition engine is set (source asr), from an uploaded video, for 10 credits', async () => {
    await settings({ asr_base_url: asr.url, asr_api_key: asr.apiKey, asr_model: 'whisper-large-v3' });
    const upload = await uploadFile(a, 'video', CLIP, '口播素材.mp4');
    expect(upload.code, upload.msg).toBe(0);
    const before = await credits(a);
    const r = await extract(a, { type: 2, file_id: upload.data.file_id });
    expect(r).toMatchObject({ status: 3, source: 'asr', link: '', text: `${SPOKEN.join('。')}。` });
    expect(r.segments.map((s) => s.text)).toEqual(SPOKEN);
    // The peer heard the three spans where the captions are.
    r.segments.forEach((s, i) => expect(Math.abs(s.start - CAPTIONED_CLIP.captions[i]!.start)).toBeLessThan(0.5));
    expect(asr.requests.at(-1)).toMatchObject({ model: 'whisper-large-v3', language: 'zh', responseFormat: 'verbose_json' });
    expect(await credits(a)).toBe(before - LIMITS.copywrite.credits);
    // A video without sound still has its captions.
    const silent = await uploadFile(a, 'video', withoutSound(CLIP, path.join(dir, 'captions-only.mp4')));
    const asked = asr.requests.length;
    expect(await extract(a, { type: 2, file_id: silent.data.file_id })).toMatchObject({ status: 3, source: 'ocr' });
    expect(asr.requests).toHaveLength(asked);
    await settings({ asr_base_url: '' });
  }, 180_000);

  it('edits, saves to the material library and deletes, for the owner only', async () => {
    const r = (await records(a)).data.list.find((x: CopyRecord) => x.source === 'asr') as CopyRecord;
    const failed = (await records(a)).data.list.find((x: CopyRecord) => x.status === 4) as CopyRecord;
    expect(await b.call(API.copywrite.edit, { id: r.id, text: '改掉' })).toMatchObject({ code: 1, msg: MSG.copyRecordMissing });
    expect(await a.call(API.copywrite.edit, { id: failed.id, text: '改掉' })).toMatchObject({ code: 1, msg: MSG.copyRecordMissing });
    expect(await a.call(API.copywrite.edit, { id: r.id, text: '  ' })).toMatchObject({ code: 1, msg: MSG.copyTextRequired });
    expect((await a.call(API.copywrite.edit, { id: r.id, text: '大家好，今天聊聊数字人。' })).code).toBe(0);
    const edited = (await records(a)).data.list.find((x: CopyRecord) => x.id === r.id) as CopyRecord;
    expect(edited.text).toBe('大家好，今天聊聊数字人。');
    expect(edited.segments.map((s) => s.text)).toEqual(SPOKEN);

    expect(await b.call(API.copywrite.save, { id: r.id })).toMatchObject({ code: 1, msg: MSG.copyRecordMissing });
    const saved = await a.call(API.copywrite.save, { id: r.id });
    expect(saved.code, saved.msg).toBe(0);
    const saved2 = await a.call(API.copywrite.save, { id: r.id, text: REWRITTEN });
    const texts = (await a.call(API.material.list, { type: 'text', source: 2, page: 1, limit: 9 })).data.list;
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: saved.data.id, origin: 'copywrite', text: '大家好，今天聊聊数字人。', name: '大家好，今天聊聊数字人。' }),
        expect.objectContaining({ id: saved2.data.id, origin: 'copywrite', text: REWRITTEN }),
      ]),
    );
    expect((await b.call(API.material.list, { type: 'text', page: 1, limit: 9 })).data.list).toEqual([]);

    expect((await b.call(API.copywrite.list, { page: 1, limit: 50 })).data.list.some((x: CopyRecord) => x.id === r.id)).toBe(false);
    expect((await b.call(API.copywrite.list, { page: 1, limit: 50, id: r.id })).data).toMatchObject({ list: [], total: 0 });
    expect((await a.call(API.copywrite.list, { page: 1, limit: 50, id: r.id })).data).toMatchObject({ list: [{ id: r.id }], total: 1 });
    expect(await b.call(API.copywrite.remove, { id: r.id })).toMatchObject({ code: 1, msg: MSG.copyRecordMissing });
    const total = (await records(a)).data.total as number;
    expect((await a.call(API.copywrite.remove, { id: failed.id })).code).toBe(0);
    expect((await records(a)).data.total).toBe(total - 1);
    // Paging: newest first.
    const page2 = await a.call(API.copywrite.list, { page: 2, limit: 2 });
    expect(page2.data.list.map((x: CopyRecord) => x.id)).toEqual((await records(a)).data.list.slice(2, 4).map((x: CopyRecord) => x.id));
  });

  it('rewrites a copy in a style as a stream, priced like a chat answer and given back when it fails', async () => {
    const r = (await records(a)).data.list.find((x: CopyRecord) => x.source === 'asr') as CopyRecord;
    expect(await rewrite(t, a, { id: r.id, style: 'koubo' })).toMatchObject({ events: [{ message: '', error: MSG.chatEngineMissing, done: 1 }] });
    await settings({ chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'test-v3' });
    chat.behave({ kind: 'reply', text: REWRITTEN, chunkChars: 4 });
    const before = await credits(a);
    const s = await rewrite(t, a, { id: r.id, style: 'zhongcao' });
    expect(s.events.length).toBeGreaterThan(3);
    expect(s).toMatchObject({ text: REWRITTEN, error: undefined });
    expect(s.events.at(-1)).toMatchObject({ done: 1 });
    expect(chat.requests.at(-1)!.user).toContain('种草');
    expect(chat.requests.at(-1)!.user).toContain('大家好，今天聊聊数字人。');
    expect(await credits(a)).toBe(before - LIMITS.chatAnswerCredits);

    const custom = await rewrite(t, a, { id: r.id, style: 'custom', instruction: '改成英文' });
    expect(custom.text).toBe(REWRITTEN);
    expect(chat.requests.at(-1)!.user).toContain('改成英文');
    expect((await rewrite(t, a, { id: r.id, style: 'custom' })).json).toMatchObject({ code: 1, msg: MSG.copyRewriteInstructionRequired });
    expect((await rewrite(t, a, { id: r.id, style: 'weird' })).json).toMatchObject({ code: 1 });
    expect((await rewrite(t, a, { id: r.id, style: 'koubo', token: 'nope' })).json).toMatchObject({ code: 100 });

    // Another user's record, and an engine that fails: nothing charged.
    const theirs = await rewrite(t, b, { id: r.id, style: 'koubo' });
    expect(theirs.error).toBe(MSG.copyRecordMissing);
    expect(await credits(b)).toBe(100);
    chat.behave({ kind: 'status', status: 400, message: 'bad request' });
    const mid = await credits(a);
    const failed = await rewrite(t, a, { id: r.id, style: 'gaoxiao' });
    expect(failed.text).toBe('');
    expect(failed.error).toBeTruthy();
    expect(await credits(a)).toBe(mid);
  });
});

describe('probe of the shared clip', () => {
  it('has a picture and a sound', async () => {
    const info = await probe(await makeSpokenCaptionedClip(path.join(dir, 'probe.mp4')), 'mp4');
    expect(info.video?.width).toBe(CAPTIONED_CLIP.width);
    expect(info.audio).toBeDefined();
  });
});
