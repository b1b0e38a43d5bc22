/**
 * One-click creation's other avatars and its cover, over real HTTP on both databases: a photo-speak picture as the
 * avatar of the avatar scenes (rendered as the photo feature renders it, priced at the channel's rate), the cover the
 * chosen scene's first frame; an avatar video on a remote lip-sync channel (the HeyGem protocol peer) rendered there
 * once over the whole speech and cut at the scenes, and a failed remote task refunded; 生成配图 asking the chat engine
 * once per picture, so one refused prompt is refunded alone and the others stay charged and kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, ImagegenStatus, LIMITS, MSG, WorkStatus, parseSrt, storyboardPrice } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { ffmpegCached, mediaDir } from '../../../tests/support/media';
import { startHeyGemPeer, type HeyGemPeer } from '../../../tests/support/peers/heygem-peer';
import { startImagePeer, type ImagePeer } from '../../../tests/support/peers/image-peer';
import { startOpenAiPeer, type OpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { ssimAt } from '../../../tests/support/picture-media';
import { gardenBoard, oneclickCast, oneclickMedia, workEnded, worksOf } from '../../../tests/support/oneclick';
import { creditsOf } from '../../../tests/support/voices';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';
import { testFrames } from '../../../tests/support/render-size';

const dir = mediaDir();
const MEDIA = oneclickMedia(dir);
const { bars: BARS } = MEDIA;
/** The photo-speak picture: a portrait unlike the bars (no face: the camera moves over it). */
const PHOTO = ffmpegCached(path.join(dir, 'photo-portrait.png'), ['-f', 'lavfi', '-i', 'testsrc2=size=720x1280', '-frames:v', '1']);
const QUICK_REMOTE_RENDER = { pollSeconds: 0.2, queueSeconds: 0.2 };

describe.each(DB_KINDS)('one-click creation: photo avatars, remote channels, cover, pictures (%s)', (kind) => {
  let heygem: HeyGemPeer;
  let chat: OpenAiPeer;
  let images: ImagePeer;
  beforeAll(async () => {
    [heygem, chat, images] = await Promise.all([startHeyGemPeer(), startOpenAiPeer(), startImagePeer()]);
  });
  afterAll(() => Promise.all([heygem, chat, images].map((p) => p?.close())));
  const t = useApp(kind, { logLevel: 'error', remoteRender: QUICK_REMOTE_RENDER });
  let a: ApiTestClient;
  let b: ApiTestClient;
  let avatar: number;
  let voice: number;
  let picture: string;
  let photo: number;
  /** The work the remote-channel case renders; the cover-time case reads its cover. */
  let remoteWork: Awaited<ReturnType<typeof workEnded>> | undefined;

  const balance = creditsOf;
  const works = worksOf;
  const finished = workEnded;
  const credits = async (api: string) => ((await a.call(API.works.videoChannel)).data.list as { api: string; credits: number }[]).find((c) => c.api === api)!.credits;
  const board = () => gardenBoard(picture);
  const submit = (c: ApiTestClient, body: Record<string, unknown>) =>
    c.call(API.oneclick.create, { name: '春天的花园', user_voice_id: voice, api: 'local', aspect: '9:16', subtitles: 1, scenes: JSON.stringify(board()), ...body });
  const saved = async (url: string, name: string) => {
    const file = path.join(dir, `${kind}-${name}`);
    fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${url}`)).arrayBuffer()));
    return file;
  };

  beforeAll(async () => {
    ({ a, b, avatar, voice, picture } = await oneclickCast(t, ['15710000001', '15710000002'], dir, MEDIA));
    const own = await uploadFile(a, 'image', PHOTO, '我的照片.png');
    const made = await a.call(API.photo.create, { type: 1, name: '我的照片', file_id: own.data.file_id });
    expect(made.code, made.msg).toBe(0);
    photo = made.data.id;
    const fy = await t.operator(API.admin.channelSet, { api: 'fy', kind: 'video', engine: 'heygem', enabled: 'true', base_url: heygem.url });
    expect(fy.code, fy.msg).toBe(0);
  }, 240_000);
  beforeEach(async () => {
    await heygem.settled();
    Object.assign(heygem, { progressSteps: 1, failWith: null, down: false, delayMs: 0, nextReply: null });
  });

  it('refuses a photo that is not usable, a photo with a video, a photo on a remote channel and a cover scene past the end; nothing is charged', async () => {
    const before = await balance(a);
    expect(await submit(b, { photo_id: photo })).toMatchObject({ code: 1, msg: MSG.photoMissing });
    expect(await submit(a, { photo_id: 999_999 })).toMatchObject({ code: 1, msg: MSG.photoMissing });
    expect(await submit(a, { photo_id: photo, video_id: avatar })).toMatchObject({ code: 1, msg: MSG.avatarConflict });
    expect(await submit(a, { photo_id: photo, api: 'fy' })).toMatchObject({ code: 1, msg: MSG.photoChannelUnsupported });
    expect(await submit(a, { photo_id: photo, cover_scene: 4 })).toMatchObject({ code: 1, msg: MSG.oneclickCoverScene(4) });
    expect(await submit(a, { photo_id: photo, cover_scene: 0 })).toMatchObject({ code: 1, msg: '封面分镜不能小于1' });
    expect(await submit(a, { photo_id: photo, cover_at: -1 })).toMatchObject({ code: 1, msg: '封面时间不能小于0' });
    expect(await submit(a, { photo_id: photo, cover_at: 'soon' })).toMatchObject({ code: 1, msg: '封面时间必须是数字' });
    // b's own avatar on a's... nothing: a's avatar is not b's on the remote channel either.
    expect(await submit(b, { video_id: avatar, api: 'fy' })).toMatchObject({ code: 1, msg: MSG.avatarRequired });
    expect(await balance(a)).toBe(before);
    expect(await works(a)).toEqual([]);
    expect(heygem.submissions).toEqual([]);
  });

  it('renders the avatar scenes from a photo-speak picture, priced at the channel, its cover the chosen scene\'s first frame', { timeout: 300_000 }, async () => {
    const before = await balance(a);
    const rate = await credits('local');
    const made = await submit(a, { photo_id: photo, cover_scene: 2 });
    expect(made.code, made.msg).toBe(0);
    expect(await balance(a)).toBe(before - storyboardPrice(board() as never, rate).credits);
    const work = await finished(a, made.data.id);
    expect(work.status, work.reason).toBe(WorkStatus.Success);
    expect((await works(b)).map((w) => w.id)).not.toContain(made.data.id);

    const mp4 = await saved(work.url, 'photo.mp4');
    const info = await probe(mp4, 'mp4');
    expect(info.video).toEqual({ codec: 'h264', ...testFrames('9:16') });
    const cues = parseSrt(await (await fetch(`${t.url}${work.srt}`)).text());
    const broll = cues.find((c) => c.lines.join('').includes('草地'))!;
    const last = cues.at(-1)!;
    // The avatar scenes show the photo (the camera moves gently over it), the B-roll scene the bars.
    const photoFirst = ssimAt(mp4, (cues[0]!.start + cues[0]!.end) / 2, PHOTO);
    const photoLast = ssimAt(mp4, (last.start + last.end) / 2, PHOTO);
    const barsOnPhoto = ssimAt(mp4, (cues[0]!.start + cues[0]!.end) / 2, BARS);
    expect(photoFirst, `photo ${photoFirst} vs bars ${barsOnPhoto}`).toBeGreaterThan(0.5);
    expect(photoLast).toBeGreaterThan(0.5);
    expect(photoFirst - barsOnPhoto).toBeGreaterThan(0.1);
    expect(ssimAt(mp4, (broll.start + broll.end) / 2, BARS)).toBeGreaterThan(0.6);

    // The cover: the B-roll scene's first frame (the bars), not the photo of the first scene.
    const cover = await saved(work.cover, 'photo-cover.jpg');
    const onBars = ssimAt(cover, 0, BARS);
    const onPhoto = ssimAt(cover, 0, PHOTO);
    expect(onBars, `cover on bars ${onBars} vs photo ${onPhoto}`).toBeGreaterThan(0.6);
    expect(onBars - onPhoto).toBeGreaterThan(0.1);
    const history = (await a.call(API.oneclick.history, { page: 1, limit: 10 })).data.list.find((p: { work_id: number }) => p.work_id === made.data.id);
    expect(history.cover.split('?')[0]).toBe(work.cover.split('?')[0]);

    // Settled on the seconds delivered at the channel's and the B-roll rate; the draft kept the photo and the cover.
    const charged = before - (await balance(a));
    const rates = [rate, LIMITS.oneclick.brollCreditsPerSecond];
    expect(charged).toBeGreaterThanOrEqual(Math.floor(info.duration * Math.min(...rates)));
    expect(charged).toBeLessThanOrEqual(Math.ceil(info.duration * Math.max(...rates)) + 1);
    expect(JSON.parse((await a.call(API.oneclick.draft, { id: history.id })).data.draft)).toMatchObject({ photo_id: photo, cover_scene: 2 });
  });

  it('renders an avatar video on a remote lip-sync channel: one task over the whole speech, cut at the scenes, priced at that channel', { timeout: 300_000 }, async () => {
    const before = await balance(a);
    const rate = await credits('fy');
    const made = await submit(a, { video_id: avatar, api: 'fy', cover_at: 3600, cover_scene: 2 });
    expect(made.code, made.msg).toBe(0);
    expect(await balance(a)).toBe(before - storyboardPrice(board() as never, rate).credits);
    const work = await finished(a, made.data.id);
    expect(work.status, work.reason).toBe(WorkStatus.Success);
    remoteWork = work;
    const mine = heygem.submissions.filter((s) => String(s.body.code).startsWith(`w${made.data.id}-`));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ code: 10000 });

    const mp4 = await saved(work.url, 'remote.mp4');
    const info = await probe(mp4, 'mp4');
    expect(info.video).toEqual({ codec: 'h264', ...testFrames('9:16') });
    expect(info.audio).toEqual({ codec: 'aac' });
    const cues = parseSrt(await (await fetch(`${t.url}${work.srt}`)).text());
    const broll = cues.find((c) => c.lines.join('').includes('草地'))!;
    const onPicture = ssimAt(mp4, (broll.start + broll.end) / 2, BARS);
    const onAvatar = ssimAt(mp4, (cues[0]!.start + cues[0]!.end) / 2, BARS);
    expect(onPicture, `B-roll ${onPicture} vs avatar ${onAvatar}`).toBeGreaterThan(0.6);
    expect(onPicture - onAvatar).toBeGreaterThan(0.1);
    const charged = before - (await balance(a));
    const rates = [rate, LIMITS.oneclick.brollCreditsPerSecond];
    expect(charged).toBeGreaterThanOrEqual(Math.floor(info.duration * Math.min(...rates)));
    expect(charged).toBeLessThanOrEqual(Math.ceil(info.duration * Math.max(...rates)) + 1);
    const left = await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM remote_lipsync_tasks WHERE work_id = $1', [made.data.id]);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('takes the cover at a chosen time: the frame there', { timeout: 300_000 }, async () => {
    // The remote render above asked for its cover past the end (one render serves both cases), and for scene 2's
    // first frame (the bars): the time wins.
    expect(remoteWork, 'the remote render case made the work').toBeDefined();
    const work = remoteWork!;
    // Past the end: the last frame, which is the last avatar scene (the avatar), not the bars.
    const cover = await saved(work.cover, 'late-cover.jpg');
    const mp4 = await saved(work.url, 'late.mp4');
    const info = await probe(mp4, 'mp4');
    const onFrame = ssimAt(mp4, info.duration - 0.2, cover);
    const onBars = ssimAt(cover, 0, BARS);
    expect(onFrame, `cover on its frame ${onFrame} vs bars ${onBars}`).toBeGreaterThan(0.8);
    expect(onFrame - onBars).toBeGreaterThan(0.2);
  });

  it('fails a work whose remote task failed, with the engine\'s reason, and refunds every credit', { timeout: 300_000 }, async () => {
    heygem.failWith = '显存不足';
    const before = await balance(a);
    const made = await submit(a, { video_id: avatar, api: 'fy' });
    expect(made.code, made.msg).toBe(0);
    expect(await balance(a)).toBeLessThan(before);
    const work = await finished(a, made.data.id);
    expect(work.status).toBe(WorkStatus.Failed);
    expect(work.reason).toContain('积分已退回');
    expect(await balance(a)).toBe(before);
    const history = (await a.call(API.oneclick.history, { page: 1, limit: 10 })).data.list.find((p: { work_id: number }) => p.work_id === made.data.id);
    expect(history).toMatchObject({ status: WorkStatus.Failed, reason: work.reason });
  });

  it('asks the chat engine once per picture, from that scene\'s text: one refused prompt is refunded alone, the others stay charged and kept', { timeout: 120_000 }, async () => {
    chat.behave({ kind: 'reply', text: (user) => (user.includes('坏掉') ? '这不是提示词' : JSON.stringify({ prompt: `写实摄影：${user.includes('花') ? '花海' : '湖面'}` })) });
    images.behave('openai', { kind: 'images' });
    await t.operator(API.admin.siteSet, { settings: { chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'test-v3' } });
    await t.operator(API.imagegen.engineSet, { engine: 'openai', base_url: images.url, api_key: images.apiKey, model: 'gpt-image-1' });
    const texts = ['先看这片开满鲜花的草地。', '这一段坏掉了。', '再看平静的湖面。'];
    const before = await balance(a);
    const asked = chat.requests.length;
    const answers = [];
    for (const text of texts) answers.push(await a.call(API.oneclick.picture, { text, aspect: '9:16' }));
    expect(answers[0]).toMatchObject({ code: 0, data: { prompt: '写实摄影：花海' } });
    expect(answers[1]).toMatchObject({ code: 1, msg: MSG.replicaFailed(MSG.replicaAnswerInvalid) });
    expect(answers[2]).toMatchObject({ code: 0, data: { prompt: '写实摄影：湖面' } });
    // One ask per picture (the refused one asked twice), each with its own scene's text only.
    const requests = chat.requests.slice(asked);
    expect(requests.map((r) => texts.findIndex((x) => r.user.includes(x)))).toEqual([0, 1, 1, 2]);
    for (const r of requests) expect(texts.filter((x) => r.user.includes(x))).toHaveLength(1);
    // The two kept pictures are charged (prompt and picture each), the refused one nothing; both pictures are made.
    expect(await balance(a)).toBe(before - 2 * (LIMITS.chatAnswerCredits + LIMITS.imageCreditsEach));
    const ids = [answers[0]!.data.id, answers[2]!.data.id];
    const list = await until(() => a.call(API.imagegen.list, { page: 1, limit: 20 }), (r) => ids.every((id) => r.data.list.find((x: { id: number }) => x.id === id)?.status === ImagegenStatus.Success), 60_000);
    expect(list.data.list.filter((x: { id: number }) => ids.includes(x.id)).map((x: { text: string }) => x.text).sort()).toEqual(['写实摄影：湖面', '写实摄影：花海']);
    expect((await b.call(API.imagegen.list, { page: 1, limit: 20 })).data.list).toEqual([]);
  });
});
