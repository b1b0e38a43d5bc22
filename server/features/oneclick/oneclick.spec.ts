/**
 * One-click creation over real HTTP on both databases: bad storyboards refused with their Chinese message and nothing
 * charged; projects (drafts) saved, listed, reopened and deleted by their owner only; one real render — an avatar
 * scene, a B-roll scene from an uploaded picture, an avatar scene — checked with ffprobe (one H.264 and one AAC stream
 * at 720×1280, the length of its speech), the B-roll frame matching its picture and the avatar frame not, captions in
 * the SRT, settled on the seconds delivered; a render whose picture was deleted before it ran fails and refunds all.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ImagegenStatus, LIMITS, MSG, OneclickDraft, WorkStatus, parseSrt, proposeStoryboard, splitSentences, storyboardPrice } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { FFMPEG, mediaDir } from '../../../tests/support/media';
import { startImagePeer, type ImagePeer } from '../../../tests/support/peers/image-peer';
import { startOpenAiPeer, type OpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { ssimAt } from '../../../tests/support/picture-media';
import { gardenBoard, oneclickCast, oneclickMedia, workEnded, worksOf } from '../../../tests/support/oneclick';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { creditsOf } from '../../../tests/support/voices';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { FFPROBE, probe } from '../../infra/media-probe';
import { AvatarsRepository } from '../avatars';
import { testFrames } from '../../../tests/support/render-size';

const dir = mediaDir();
const MEDIA = oneclickMedia(dir);
const { still: STILL, bars: BARS } = MEDIA;
const SCRIPT = '大家好，今天聊聊春天的花园。先看这片开满鲜花的草地。最后记得关注我们，下期再见。';

/** The chat peer answers by what its system prompt asks: a script (its hook left out of the body) or a picture prompt. */
const HOOK = '你家的花为什么总养不活？';
const BODY = '其实只差三个小习惯。第一，浇水要见干见湿。第二，每周转一次花盆。最后，关注我，下期教你配土。';
function answerFor(system: string): string {
  if (system.includes('文生图提示词')) return JSON.stringify({ prompt: '春日花园，阳光，盛开的郁金香，写实摄影' });
  return JSON.stringify({ title: '养花三个小习惯', hook: HOOK, script: BODY });
}

/** Yellow pixels in the middle band (40–60 % of the height) of the frame at `at` seconds, at full size (thin strokes survive). */
function yellowInMiddle(video: string, at: number): number {
  const run = spawnSync(FFMPEG, ['-v', 'error', '-ss', at.toFixed(2), '-i', video, '-frames:v', '1', '-vf', 'crop=iw:ih*0.2:0:ih*0.4', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
  const rgb = run.stdout;
  let n = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3) if (rgb[i]! > 170 && rgb[i + 1]! > 150 && rgb[i + 2]! < 110) n++;
  return n;
}

describe.each(DB_KINDS)('one-click creation (%s)', (kind) => {
  let chat: OpenAiPeer;
  let images: ImagePeer;
  beforeAll(async () => {
    [chat, images] = await Promise.all([startOpenAiPeer(), startImagePeer()]);
    chat.behave({ kind: 'reply', text: (_user, req) => answerFor(req.system) });
    images.behave('openai', { kind: 'images' });
  });
  afterAll(() => Promise.all([chat, images].map((p) => p?.close())));
  const t = useApp(kind, { logLevel: 'error' });
  let rendered: { project: number; work: number } | undefined;
  let a: ApiTestClient;
  let b: ApiTestClient;
  let avatar: number;
  let voice: number;
  let picture: string;
  let materialId: number;

  const balance = creditsOf;
  const works = worksOf;
  const finished = workEnded;
  const board = gardenBoard;
  const submit = (c: ApiTestClient, body: Record<string, unknown>) =>
    c.call(API.oneclick.create, { name: '春天的花园', user_voice_id: voice, video_id: avatar, api: 'lip', aspect: '9:16', subtitles: 1, scenes: JSON.stringify(board(picture)), ...body });

  beforeAll(async () => {
    ({ a, b, avatar, voice, picture } = await oneclickCast(t, ['15700000001', '15700000002'], dir, MEDIA));
    materialId = (await a.call(API.material.list, { page: 1, limit: 10 })).data.list.find((m: { url: string }) => m.url === picture)?.id;
  }, 240_000);

  it('proposes a storyboard at sentence ends: avatar first and last, B-roll between', async () => {
    const proposed = await a.call(API.oneclick.storyboard, { script: SCRIPT });
    expect(proposed.code, proposed.msg).toBe(0);
    expect(proposed.data.scenes).toEqual(proposeStoryboard(SCRIPT));
    expect(proposed.data.scenes.map((s: { kind: string }) => s.kind)).toEqual(['avatar', 'broll', 'avatar']);
    expect(proposed.data.scenes.map((s: { text: string }) => s.text).join('')).toBe(SCRIPT);
    expect(await a.call(API.oneclick.storyboard, { script: '  ' })).toMatchObject({ code: 1, msg: MSG.scriptRequired });
    expect(await a.call(API.oneclick.storyboard, { script: '字'.repeat(LIMITS.oneclick.maxChars + 1) })).toMatchObject({ code: 1, msg: MSG.oneclickTooLong(LIMITS.oneclick.maxChars) });
  });

  it('refuses bad storyboards with a clear message and charges nothing', async () => {
    const before = await balance(a);
    const scenes = (list: unknown) => submit(a, { scenes: typeof list === 'string' ? list : JSON.stringify(list) });
    expect(await scenes('not json')).toMatchObject({ code: 1, msg: MSG.oneclickScenesInvalid });
    expect(await scenes([])).toMatchObject({ code: 1, msg: MSG.oneclickScenesRequired });
    expect(await scenes([{ text: '  ', kind: 'avatar' }])).toMatchObject({ code: 1, msg: MSG.oneclickSceneEmpty(1) });
    expect(await scenes([{ text: '你好。', kind: 'avatar' }, { text: '看这里。', kind: 'broll' }])).toMatchObject({ code: 1, msg: MSG.oneclickBrollNoPicture(2) });
    expect(await scenes([{ text: '你好。', kind: 'dance' }])).toMatchObject({ code: 1, msg: '分镜类型取值有误' });
    expect(await scenes(Array.from({ length: LIMITS.oneclick.maxScenes + 1 }, () => ({ text: '你好。', kind: 'avatar' })))).toMatchObject({ code: 1, msg: MSG.oneclickTooManyScenes(LIMITS.oneclick.maxScenes) });
    expect(await scenes([{ text: '字'.repeat(2000), kind: 'avatar' }, { text: '字'.repeat(1001), kind: 'avatar' }])).toMatchObject({ code: 1, msg: MSG.oneclickTooLong(LIMITS.oneclick.maxChars) });
    expect(await scenes([{ text: '你好。', kind: 'broll', image_url: '/storage/u/999/none.png' }])).toMatchObject({ code: 1, msg: MSG.oneclickPictureUnusable(1) });
    expect(await submit(a, { video_id: undefined })).toMatchObject({ code: 1, msg: MSG.avatarRequired });
    expect(await submit(a, { user_voice_id: undefined })).toMatchObject({ code: 1, msg: MSG.voiceRequired });
    expect(await submit(a, { aspect: '4:3' })).toMatchObject({ code: 1, msg: '画面比例取值有误' });
    expect(await submit(a, { bgm_id: 'lib-99999' })).toMatchObject({ code: 1, msg: MSG.musicTrackMissing });
    // An avatar still cloning.
    const userId = (await t.app.ctx.sessions.authenticate(a.token ?? ''))!.id;
    const cloning = await new AvatarsRepository(t.app.ctx.db).addCloning(userId, '克隆中', (await uploadFile(a, 'video', STILL)).data.file_id);
    expect(await submit(a, { video_id: cloning })).toMatchObject({ code: 1, msg: MSG.oneclickAvatarCloning });
    // Another user can use neither a's avatar nor a's picture.
    expect(await submit(b, { scenes: JSON.stringify([{ text: '你好。', kind: 'avatar' }]) })).toMatchObject({ code: 1, msg: MSG.avatarRequired });
    const own = await readyAvatar(t, b, STILL, '乙的主播');
    expect(await submit(b, { video_id: own })).toMatchObject({ code: 1, msg: MSG.oneclickPictureUnusable(2) });
    expect(await balance(a)).toBe(before);
    expect(await works(a)).toEqual([]);
  });

  it('keeps projects apart: saved, listed, reopened and deleted by their owner only', async () => {
    const draft = JSON.stringify({ script: SCRIPT, scenes: board(picture) });
    const saved = await a.call(API.oneclick.saveDraft, { name: '草稿一', draft });
    expect(saved.code, saved.msg).toBe(0);
    expect(await a.call(API.oneclick.saveDraft, { name: '坏草稿', draft: '[1,2]' })).toMatchObject({ code: 1, msg: MSG.oneclickScenesInvalid });
    expect(await a.call(API.oneclick.saveDraft, { id: saved.data.id, name: '草稿一改', draft })).toMatchObject({ code: 0, data: { id: saved.data.id } });
    const listed = await a.call(API.oneclick.history, { page: 1, limit: 10 });
    expect(listed.data.list[0]).toMatchObject({ id: saved.data.id, name: '草稿一改', status: OneclickDraft, work_id: 0, scenes: 3, url: '' });
    expect((await a.call(API.oneclick.draft, { id: saved.data.id })).data.draft).toBe(draft);

    expect(await b.call(API.oneclick.draft, { id: saved.data.id })).toMatchObject({ code: 1, msg: MSG.oneclickProjectMissing });
    expect(await b.call(API.oneclick.saveDraft, { id: saved.data.id, name: '抢', draft })).toMatchObject({ code: 1, msg: MSG.oneclickProjectMissing });
    expect(await b.call(API.oneclick.remove, { id: saved.data.id })).toMatchObject({ code: 1, msg: MSG.oneclickProjectMissing });
    expect((await b.call(API.oneclick.history, { page: 1, limit: 10 })).data).toEqual({ list: [], total: 0 });

    expect(await a.call(API.oneclick.remove, { id: saved.data.id })).toMatchObject({ code: 0 });
    expect((await a.call(API.oneclick.history, { page: 1, limit: 10 })).data.total).toBe(0);
  });

  it('writes a script from a topic and a picture per B-roll scene through the engines, charged as a chat answer and a picture, refunded on failure', { timeout: 120_000 }, async () => {
    const before = await balance(a);
    const topic = { topic: '阳台养花的小技巧', platform: '抖音', style: '知识', seconds: 60 };
    const picture = (c: ApiTestClient, body: Record<string, unknown> = {}) => c.call(API.oneclick.picture, { text: '先看这片开满鲜花的草地。', aspect: '9:16', ...body });
    // Without engines: each says so, nothing is asked or charged.
    expect((await a.call(API.oneclick.engines, {})).data).toEqual({ chat: false, image: false, chat_credits: LIMITS.chatAnswerCredits, image_credits: LIMITS.imageCreditsEach });
    expect(await a.call(API.oneclick.script, topic)).toMatchObject({ code: 1, msg: MSG.oneclickChatMissing });
    expect(await picture(a)).toMatchObject({ code: 1, msg: MSG.oneclickImageMissing });
    // Bad input.
    const tooShort = MSG.oneclickTopicTooShort(LIMITS.oneclick.topicMinChars);
    expect(await a.call(API.oneclick.script, { ...topic, topic: '养花' })).toMatchObject({ code: 1, msg: tooShort });
    expect(await a.call(API.oneclick.script, { ...topic, topic: '   ' })).toMatchObject({ code: 1, msg: tooShort });
    expect(await a.call(API.oneclick.script, { ...topic, platform: 'B站' })).toMatchObject({ code: 1, msg: '平台取值有误' });
    expect(await a.call(API.oneclick.script, { ...topic, style: '搞笑' })).toMatchObject({ code: 1, msg: '风格取值有误' });
    expect(await a.call(API.oneclick.script, { ...topic, seconds: 45 })).toMatchObject({ code: 1, msg: '时长取值有误' });
    expect(await picture(a, { text: '  ' })).toMatchObject({ code: 1, msg: MSG.oneclickPictureTextRequired });
    expect(await picture(a, { aspect: '4:3' })).toMatchObject({ code: 1, msg: '画面比例取值有误' });
    expect(chat.requests).toEqual([]);
    expect(await balance(a)).toBe(before);

    // With a chat engine: the script starts with its hook, one chat answer is charged.
    await t.operator(API.admin.siteSet, { settings: { chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'test-v3' } });
    expect((await a.call(API.oneclick.engines, {})).data).toMatchObject({ chat: true, image: false });
    const written = await a.call(API.oneclick.script, topic);
    expect(written.code, written.msg).toBe(0);
    expect(written.data).toEqual({ title: '养花三个小习惯', script: HOOK + BODY });
    expect(splitSentences(written.data.script)[0]).toBe(HOOK);
    expect(chat.requests.at(-1)!.system).toContain('抖音');
    expect(chat.requests.at(-1)!.system).toContain('约 60 秒');
    expect(chat.requests.at(-1)!.system).toContain('第一句必须是钩子');
    expect(await balance(a)).toBe(before - LIMITS.chatAnswerCredits);
    // A malformed answer is asked once more, then refused and refunded.
    chat.behave({ kind: 'reply', text: '好的，这是文案：春天来了。' });
    const asked = chat.requests.length;
    expect(await a.call(API.oneclick.script, topic)).toMatchObject({ code: 1, msg: MSG.replicaFailed(MSG.replicaAnswerInvalid) });
    expect(chat.requests.length - asked).toBe(2);
    expect(await balance(a)).toBe(before - LIMITS.chatAnswerCredits);
    chat.behave({ kind: 'reply', text: (_user, req) => answerFor(req.system) });
    // A picture needs the image engine too: refused before anything is asked.
    expect(await picture(a)).toMatchObject({ code: 1, msg: MSG.oneclickImageMissing });
    expect(await balance(a)).toBe(before - LIMITS.chatAnswerCredits);

    // With both: the chat engine's prompt becomes a one-picture 文生图 record at the aspect, charged as both.
    await t.operator(API.imagegen.engineSet, { engine: 'openai', base_url: images.url, api_key: images.apiKey, model: 'gpt-image-1' });
    const made = await picture(a);
    expect(made.code, made.msg).toBe(0);
    expect(made.data.prompt).toBe('春日花园，阳光，盛开的郁金香，写实摄影');
    expect(chat.requests.at(-1)!.user).toContain('开满鲜花的草地');
    expect(await balance(a)).toBe(before - 2 * LIMITS.chatAnswerCredits - LIMITS.imageCreditsEach);
    const record = await until(() => a.call(API.imagegen.list, { page: 1, limit: 20 }), (r) => [ImagegenStatus.Success, ImagegenStatus.Failed].includes(r.data.list.find((x: { id: number }) => x.id === made.data.id)?.status), 60_000)
      .then((r) => r.data.list.find((x: { id: number }) => x.id === made.data.id));
    expect(record).toMatchObject({ status: ImagegenStatus.Success, text: made.data.prompt, ratio: '9:16', num: 1 });
    expect(record.url).toHaveLength(1);
    // The picture is a's: b sees no such record and cannot put it in a storyboard.
    expect((await b.call(API.imagegen.list, { page: 1, limit: 20 })).data.list.map((x: { id: number }) => x.id)).not.toContain(made.data.id);
    const own = await readyAvatar(t, b, STILL, '乙的配图主播');
    expect(await submit(b, { video_id: own, scenes: JSON.stringify(board(record.url[0])) })).toMatchObject({ code: 1, msg: MSG.oneclickPictureUnusable(2) });
    // A failing image engine: the prompt was delivered (kept), the picture is refunded by 文生图's job.
    images.behave('openai', { kind: 'status', status: 400, message: 'rejected' });
    const mid = await balance(a);
    const failed = await picture(a);
    expect(failed.code, failed.msg).toBe(0);
    await until(() => a.call(API.imagegen.list, { page: 1, limit: 20 }), (r) => r.data.list.find((x: { id: number }) => x.id === failed.data.id)?.status === ImagegenStatus.Failed, 60_000);
    expect(await balance(a)).toBe(mid - LIMITS.chatAnswerCredits);
    images.behave('openai', { kind: 'images' });
  });

  it('renders one mp4: avatar, B-roll of the picture, avatar, one speech track with captions, settled on its seconds', { timeout: 300_000 }, async () => {
    const project = (await a.call(API.oneclick.saveDraft, { name: '花园', draft: JSON.stringify({ scenes: board(picture) }) })).data.id;
    const before = await balance(a);
    const channel = (await a.call(API.works.videoChannel)).data.list.find((c: { api: string }) => c.api === 'lip');
    const estimate = storyboardPrice(board(picture) as never, channel.credits).credits;
    const made = await submit(a, { project_id: project, title_card: '春日花园' });
    expect(made.code, made.msg).toBe(0);
    expect(await balance(a)).toBe(before - estimate);
    expect(await submit(a, { title_card: '字'.repeat(LIMITS.oneclick.titleMaxChars + 1) })).toMatchObject({ code: 1, msg: `片头标题不能超过${LIMITS.oneclick.titleMaxChars}个字符` });

    const work = await finished(a, made.data.id);
    expect(work.status, work.reason).toBe(WorkStatus.Success);
    expect((await a.call(API.works.list, { page: 1, limit: 10, type: 5 })).data.list.map((w: { id: number }) => w.id)).toEqual([made.data.id]);
    expect((await a.call(API.works.list, { page: 1, limit: 10, type: 1 })).data.list).toEqual([]);
    expect((await works(b)).map((w) => w.id)).not.toContain(made.data.id);

    const mp4 = path.join(dir, `${kind}-work.mp4`);
    fs.writeFileSync(mp4, Buffer.from(await (await fetch(`${t.url}${work.url}`)).arrayBuffer()));
    const info = await probe(mp4, 'mp4');
    expect(info.video).toEqual({ codec: 'h264', ...testFrames('9:16') });
    expect(info.audio).toEqual({ codec: 'aac' });
    expect(spawnSync(FFPROBE, ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', mp4]).stdout.toString().trim().split(/\s+/)).toEqual(['video', 'audio']);
    const cues = parseSrt(await (await fetch(`${t.url}${work.srt}`)).text());
    expect(cues.length).toBeGreaterThanOrEqual(3);
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.1);
    expect(cues.at(-1)!.end).toBeLessThanOrEqual(info.duration + 0.05);
    expect(cues.at(-1)!.end).toBeGreaterThan(info.duration * 0.8);

    // The B-roll scene lies under its own sentence; the avatar under the others.
    const broll = cues.find((c) => c.lines.join('').includes('草地'))!;
    const first = cues[0]!;
    const onPicture = ssimAt(mp4, (broll.start + broll.end) / 2, BARS);
    const onAvatar = ssimAt(mp4, (first.start + first.end) / 2, BARS);
    // The camera moves over the picture (zoom and pan), so its frame is close to the picture, not equal.
    expect(onPicture, `B-roll ${onPicture} vs avatar ${onAvatar}`).toBeGreaterThan(0.6);
    expect(onPicture - onAvatar, `B-roll ${onPicture} vs avatar ${onAvatar}`).toBeGreaterThan(0.1);
    // The title card: yellow in the middle for its first seconds, gone after (the first scene outlasts it).
    expect(broll.start).toBeGreaterThan(LIMITS.oneclick.titleSeconds + 0.4);
    const titled = yellowInMiddle(mp4, 1);
    const after = yellowInMiddle(mp4, (LIMITS.oneclick.titleSeconds + broll.start) / 2);
    expect(titled, `title ${titled} vs after ${after}`).toBeGreaterThan(200);
    expect(after).toBeLessThan(titled / 10);

    // Settled on the seconds delivered: between the channel's and the B-roll rate for its length.
    const charged = before - (await balance(a));
    const rates = [channel.credits, LIMITS.oneclick.brollCreditsPerSecond];
    expect(charged).toBeGreaterThanOrEqual(Math.floor(info.duration * Math.min(...rates)));
    expect(charged).toBeLessThanOrEqual(Math.ceil(info.duration * Math.max(...rates)) + 1);

    const history = (await a.call(API.oneclick.history, { page: 1, limit: 10 })).data.list.find((p: { id: number }) => p.id === project);
    expect(history).toMatchObject({ work_id: made.data.id, status: WorkStatus.Success, url: expect.stringContaining(work.url.split('?')[0]), scenes: 3 });
    rendered = { project, work: made.data.id };
  });

  it('renders a reopened project again as a new work; one whose picture was deleted before it ran fails and refunds every credit reserved', { timeout: 240_000 }, async () => {
    expect(rendered, 'the render case ran first').toBeDefined();
    const { project, work: first } = rendered!;
    // Reopen the rendered project's storyboard and edit it (as the editor's autosave does).
    const reopened = await a.call(API.oneclick.draft, { id: project });
    expect(reopened.data).toMatchObject({ id: project, work_id: first, status: WorkStatus.Success });
    const edited = board(picture);
    edited[0]!.text = '大家好，今天再聊聊春天的花园。';
    expect(await a.call(API.oneclick.saveDraft, { id: project, name: '花园二版', draft: JSON.stringify({ ...JSON.parse(reopened.data.draft), scenes: edited }) })).toMatchObject({ code: 0 });
    const before = await balance(a);
    const id = await t.withJobsPaused(async () => {
      const made = await submit(a, { project_id: project, name: '花园二版', scenes: JSON.stringify(edited) });
      expect(made.code, made.msg).toBe(0);
      expect(await balance(a)).toBeLessThan(before);
      expect(await a.call(API.material.remove, { id: materialId })).toMatchObject({ code: 0 });
      return made.data.id as number;
    });
    const work = await finished(a, id);
    expect(work).toMatchObject({ status: WorkStatus.Failed, reason: '第2个分镜的图片已被删除，积分已退回' });
    expect(await balance(a)).toBe(before);
    // A new work: the first render stays on /works, the project now shows its latest render.
    expect(id).not.toBe(first);
    expect((await works(a)).find((w) => w.id === first)).toMatchObject({ status: WorkStatus.Success });
    expect((await a.call(API.works.list, { page: 1, limit: 10, type: 5 })).data.list.find((w: { id: number }) => w.id === id)).toMatchObject({ name: '花园二版' });
    const history = (await a.call(API.oneclick.history, { page: 1, limit: 10 })).data.list.filter((p: { id: number }) => p.id === project);
    expect(history).toEqual([expect.objectContaining({ name: '花园二版', work_id: id, status: WorkStatus.Failed })]);
  });
});
