/**
 * Text to video and image to video through real HTTP on both databases: every field's bad input, the prices of
 * each mode and duration, the offline camera motion from an uploaded first and last frame (an H.264 mp4 of the
 * chosen duration and aspect), Kling through its loopback peer (the result copied into our storage), failed tasks
 * refunded with their reason, 高品质 closed until the operator opens it, and presets and records kept apart
 * between two users; the operator's word bank and recommendations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, VideoTaskStatus } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf, latestCredits } from '../../../tests/support/voices';
import { ffmpegCached, frameOf, makeImage, mediaDir } from '../../../tests/support/media';
import { FACE_PHOTO } from '../../../tests/support/face-media';
import { startKlingPeer, type KlingPeer } from '../../../tests/support/peers/kling-peer';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';
import { closeLandmarkWorkers, pictureFaceBox } from '../../engines/lipsync';
import { testFrames } from '../../../tests/support/render-size';

const dir = mediaDir();
const FIRST = makeImage(path.join(dir, 'first.png'), { width: 800, height: 600 });
const LAST = makeImage(path.join(dir, 'last.jpg'), { width: 640, height: 640 });
/** Smaller than image to video takes (uploads refuse it; an operator's sample is not checked for size). */
const SMALL = makeImage(path.join(dir, 'small.png'), { width: 280, height: 200 });
/** A tall portrait (600×1300, nearest 9:16) with a real face in its top part and plain ground below it. */
const PORTRAIT = ffmpegCached(path.join(dir, 'portrait.jpg'), ['-i', FACE_PHOTO, '-vf', 'crop=600:800:385:110,pad=600:1300:0:0:color=0x6688aa', '-frames:v', '1', '-q:v', '3']);

/** The face's landmark box in the first and in the last frame of a video, with the frame's size. */
async function facesAtEnds(video: string): Promise<{ width: number; height: number; first?: { left: number; top: number; right: number; bottom: number }; last?: { left: number; top: number; right: number; bottom: number } }> {
  const { video: v } = await probe(video, 'mp4');
  const [first, last] = [`${video}-first.jpg`, `${video}-last.jpg`];
  frameOf(video, 0, first);
  frameOf(video, 'last', last);
  return { width: v!.width, height: v!.height, first: await pictureFaceBox(first), last: await pictureFaceBox(last) };
}

let peer: KlingPeer;
beforeAll(async () => {
  peer = await startKlingPeer();
  peer.timeline = { submittedMs: 150, processingMs: 150 };
});
afterAll(async () => {
  await peer.close();
  await closeLandmarkWorkers();
});

const credits = creditsOf;

describe.each(DB_KINDS)('video generation (%s)', (kind) => {
  const t = useApp(kind, { videoGen: { pollSeconds: 0.5 } });
  const [a, b] = useUsers(t, ['15900000001', '15900000002'], 5000);
  let firstUrl = '';
  let lastUrl = '';

  const records = (c: ApiTestClient, type: 'text' | 'image') => c.call(API.videogen.list, { type, page: 1, limit: 0 });
  async function finished(c: ApiTestClient, type: 'text' | 'image', id: number) {
    const done = await until(() => records(c, type), (r) => [VideoTaskStatus.Success, VideoTaskStatus.Failed].includes(r.data.list.find((v: any) => v.id === id)?.status), 55_000, 200);
    return done.data.list.find((v: any) => v.id === id);
  }
  async function probed(url: string, name: string) {
    const file = path.join(dir, `${name}-${kind}.mp4`);
    fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${url}`)).arrayBuffer()));
    return probe(file, 'mp4');
  }
  const text = { type: 'text', prompt: '海边日落，镜头缓慢推进', duration: 5, aspect_ratio: '16:9', mode: 'std' };

  it('without Kling: text to video is unavailable, image to video runs on this machine, 高品质 is closed; bad input costs nothing', async () => {
    expect(await a.call(API.videogen.engine, {})).toMatchObject({ code: 0, data: { text: { engine: null, pro: 0, percent: 100 }, image: { engine: 'local', pro: 0, percent: LIMITS.videoLocalPercent } } });
    expect(await a.call(API.videogen.create, text)).toMatchObject({ code: 1, msg: MSG.videoTextEngineMissing });

    const up1 = await uploadFile(a, 'image', FIRST);
    const up2 = await uploadFile(a, 'image', LAST);
    expect([up1.code, up2.code]).toEqual([0, 0]);
    firstUrl = up1.data.url;
    lastUrl = up2.data.url;
    const image = { type: 'image', prompt: '画面缓缓推进', image: firstUrl, image_mode: 1 };

    const bad: [Record<string, unknown>, string | RegExp][] = [
      [{ ...image, prompt: 'x'.repeat(LIMITS.promptMaxChars + 1) }, /不能超过/],
      [{ ...image, negative_prompt: 'x'.repeat(LIMITS.promptMaxChars + 1) }, /反向描述词/],
      [{ ...image, cfg_scale: 1.5 }, /想象力/],
      [{ ...image, cfg_scale: 'abc' }, /想象力/],
      [{ ...image, duration: 7 }, /时长/],
      [{ ...image, aspect_ratio: '4:3' }, /比例/],
      [{ ...image, mode: 'ultra' }, /模式/],
      [{ ...image, type: 'audio' }, /类型/],
      [{ ...image, image: '' }, MSG.firstFrameRequired],
      [{ ...image, image: '', image_mode: 2 }, MSG.referenceImageRequired],
      [{ ...image, image_mode: 3 }, /图生视频方式/],
      [{ ...image, org_data: '{not json' }, MSG.orgDataInvalid],
      [{ ...image, image: 'https://example.com/cat.png' }, MSG.videoImageUnusable],
      [{ ...image, image: '/storage/u1/nothing.png' }, MSG.videoImageUnusable],
      [{ ...image, mode: 'pro' }, MSG.highQualityMaintenance],
    ];
    for (const [params, msg] of bad) {
      const reply = await a.call(API.videogen.create, params);
      expect(reply.code, JSON.stringify(params).slice(0, 80)).toBe(1);
      if (typeof msg === 'string') expect(reply.msg).toBe(msg);
      else expect(reply.msg).toMatch(msg);
    }
    // Another user's picture is not theirs to use.
    expect(await b.call(API.videogen.create, image)).toMatchObject({ code: 1, msg: MSG.videoImageUnusable });
    const poor = await t.user('15900000003', 10);
    const poorUpload = (await uploadFile(poor, 'image', FIRST)).data.url;
    expect(await poor.call(API.videogen.create, { ...image, image: poorUpload })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await credits(a)).toBe(5000);
    expect(await credits(poor)).toBe(10);
    expect((await records(a, 'image')).data.list).toEqual([]);
  });

  it(`image to video from a first and last frame: camera motion as an H.264 mp4 of the chosen duration and aspect, ${LIMITS.videoLocalPercent}% of Kling's price`, async () => {
    const price = (360 * LIMITS.videoLocalPercent) / 100;
    const org = JSON.stringify({ orgContent: '画面缓缓推进', orgChoosedList: ['推镜头'] });
    const made = await a.call(API.videogen.create, {
      type: 'image', prompt: '画面缓缓推进', image: firstUrl, image_tail: lastUrl, image_mode: 1, duration: 5, aspect_ratio: '9:16', cfg_scale: 0.7, org_data: org,
    });
    expect(made).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(await credits(a)).toBe(5000 - price);
    const done = await finished(a, 'image', made.data.id);
    expect(done).toMatchObject({ status: VideoTaskStatus.Success, engine: 'local', duration: 5, aspect_ratio: '9:16', mode: 'std', cfg_scale: 0.7, org_data: org, image_mode: 1 });
    expect(done.image).toContain('/storage/');
    expect(done.image_tail).toContain('/storage/');
    const info = await probed(done.url, 'local');
    expect(info.video).toMatchObject({ codec: 'h264', ...testFrames('9:16') });
    expect(info.duration).toBeCloseTo(5, 1);
    expect((await fetch(`${t.url}${done.cover}`)).status).toBe(200);
    expect(await credits(a)).toBe(5000 - price);
  });

  it('a portrait with a face at the top: framed at its own ratio unless another is chosen, the face whole in the first and last frames; no prompt needed here', { timeout: 120_000 }, async () => {
    const picture = (await uploadFile(a, 'image', PORTRAIT)).data.url as string;
    // The picture's face, and the band a centred 16:9 crop keeps of it (rows of the picture): the face is not inside.
    const face = (await pictureFaceBox(PORTRAIT))!;
    const band = (600 * 9) / 16;
    expect(face.top < (1300 - band) / 2 || face.bottom > (1300 + band) / 2).toBe(true);

    // Neither a prompt nor a ratio: the camera move made here needs no prompt, and frames the picture at its own shape.
    const own = await a.call(API.videogen.create, { type: 'image', image: picture, image_mode: 1 });
    expect(own.code, own.msg).toBe(0);
    const wide = await a.call(API.videogen.create, { type: 'image', prompt: '', image: picture, image_mode: 1, aspect_ratio: '16:9' });
    expect(wide.code, wide.msg).toBe(0);
    const [ownDone, wideDone] = [await finished(a, 'image', own.data.id), await finished(a, 'image', wide.data.id)];
    expect(ownDone).toMatchObject({ status: VideoTaskStatus.Success, aspect_ratio: '9:16', prompt: '' });
    expect(wideDone).toMatchObject({ status: VideoTaskStatus.Success, aspect_ratio: '16:9' });

    for (const [done, size] of [[ownDone, testFrames('9:16')], [wideDone, testFrames('16:9')]] as const) {
      const file = path.join(dir, `face-${done.aspect_ratio.replace(':', 'x')}-${kind}.mp4`);
      fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${done.url}`)).arrayBuffer()));
      const ends = await facesAtEnds(file);
      expect({ width: ends.width, height: ends.height }).toEqual(size);
      // The face is found whole (brows to chin inside the picture) in the first frame and in the last, after the push in.
      for (const box of [ends.first, ends.last]) {
        expect(box, done.aspect_ratio).toBeDefined();
        expect(box!.top).toBeGreaterThan(0);
        expect(box!.left).toBeGreaterThan(0);
        expect(box!.bottom).toBeLessThan(size.height);
        expect(box!.right).toBeLessThan(size.width);
      }
      // The camera pushed in: the face is no smaller at the end than at the start.
      expect(ends.last!.bottom - ends.last!.top).toBeGreaterThanOrEqual((ends.first!.bottom - ends.first!.top) * 0.95);
    }
    for (const id of [own.data.id, wide.data.id]) expect((await a.call(API.videogen.remove, { id })).code).toBe(0);
  });

  it('with Kling configured: text to video through the provider, prices per mode and duration, 高品质 only when opened', async () => {
    await t.operator(API.admin.siteSet, { settings: { kling_base_url: peer.url, kling_access_key: peer.accessKey, kling_secret_key: peer.secretKey, kling_model: 'kling-v1-6' } });
    expect((await b.call(API.videogen.engine, {})).data).toEqual({ text: { engine: 'kling', pro: 0, percent: 100 }, image: { engine: 'local', pro: 0, percent: LIMITS.videoLocalPercent } });
    // The operator's percent for camera moves made here (1–100; anything else keeps the default).
    for (const [asked, percent] of [['25', 25], ['0', LIMITS.videoLocalPercent], ['abc', LIMITS.videoLocalPercent], ['', LIMITS.videoLocalPercent]] as const) {
      await t.operator(API.admin.siteSet, { settings: { videogen_local_percent: asked } });
      expect((await b.call(API.videogen.engine, {})).data.image.percent, asked).toBe(percent);
    }
    expect(await b.call(API.videogen.create, { ...text, mode: 'pro' })).toMatchObject({ code: 1, msg: MSG.highQualityMaintenance });
    // Kling draws from the prompt: it is required there, for text and for pictures, and nothing is charged.
    const before0 = await credits(b);
    for (const prompt of ['', '   ']) expect(await b.call(API.videogen.create, { ...text, prompt })).toMatchObject({ code: 1, msg: MSG.promptRequired });
    await t.operator(API.admin.siteSet, { settings: { video_image_engine: 'kling' } });
    expect((await b.call(API.videogen.engine, {})).data.image.engine).toBe('kling');
    expect(await b.call(API.videogen.create, { type: 'image', image: firstUrl, image_mode: 1 })).toMatchObject({ code: 1, msg: MSG.promptRequired });
    await t.operator(API.admin.siteSet, { settings: { video_image_engine: '' } });
    expect(await credits(b)).toBe(before0);

    const std10 = await b.call(API.videogen.create, { ...text, duration: 10, negative_prompt: '模糊', cfg_scale: 0.3 });
    expect(std10.code, std10.msg).toBe(0);
    expect(await credits(b)).toBe(5000 - 720);
    const done = await finished(b, 'text', std10.data.id);
    expect(done).toMatchObject({ status: VideoTaskStatus.Success, engine: 'kling', duration: 10, negative_prompt: '模糊' });
    expect(done.url).toMatch(/^\/storage\//); // copied into our storage, not Kling's address
    expect((await probed(done.url, 'kling')).duration).toBeCloseTo(10, 0);
    const task = peer.tasks.at(-1)!;
    expect(task.body).toMatchObject({ model_name: 'kling-v1-6', prompt: text.prompt, duration: '10', mode: 'std', aspect_ratio: '16:9', cfg_scale: 0.3 });
    expect(peer.shapeErrors).toEqual([]);

    await t.operator(API.admin.siteSet, { settings: { video_pro_enabled: '1' } });
    expect((await b.call(API.videogen.engine, {})).data.text).toEqual({ engine: 'kling', pro: 1, percent: 100 });
    const before = await credits(b);
    const pro5 = await b.call(API.videogen.create, { ...text, mode: 'pro' });
    expect(pro5.code).toBe(0);
    expect(await credits(b)).toBe(before - 600);
    const pro10 = await b.call(API.videogen.create, { ...text, mode: 'pro', duration: 10 });
    expect(await credits(b)).toBe(before - 600 - 1200);
    expect((await finished(b, 'text', pro10.data.id)).status).toBe(VideoTaskStatus.Success);
    expect((await finished(b, 'text', pro5.data.id)).status).toBe(VideoTaskStatus.Success);
    expect(peer.tasks.slice(-2).map((x) => x.body.mode)).toEqual(['pro', 'pro']);
    await t.operator(API.admin.siteSet, { settings: { video_pro_enabled: '0' } });
  });

  it('a task Kling fails, or refuses at submit, ends failed with its reason and its credits returned', async () => {
    const before = await credits(b);
    peer.failNext = '生成内容不符合规范';
    const failed = await b.call(API.videogen.create, text);
    expect(await finished(b, 'text', failed.data.id)).toMatchObject({ status: VideoTaskStatus.Failed, error: '视频生成失败：生成内容不符合规范', url: '' });
    expect(await credits(b)).toBe(before);
    // The queue may fail the task before any balance read, so the charge and its return are read from the log.
    expect(await latestCredits(b, 2)).toEqual([['文生视频失败退回', 360], ['文生视频', -360]]);

    peer.refuseNext = { code: 1301, http: 400, message: 'risk control' };
    const refused = await b.call(API.videogen.create, text);
    expect(await finished(b, 'text', refused.data.id)).toMatchObject({ status: VideoTaskStatus.Failed, error: MSG.klingContentRejected });
    expect(await credits(b)).toBe(before);
    expect(JSON.stringify((await b.call(API.credits.log, { page: 1, limit: 50 })).data.list)).toContain('文生视频失败退回');
  });

  it('presets and records belong to their user: search, save with or without a title, update, delete', async () => {
    expect(await a.call(API.videogen.presetSave, { title: '', content: '夕阳' })).toMatchObject({ code: 1, msg: MSG.presetTitleRequired });
    expect(await a.call(API.videogen.presetSave, { title: '风景' })).toMatchObject({ code: 1, msg: MSG.presetContentRequired });
    expect(await a.call(API.videogen.presetSave, { title: '风景', content: '  ' })).toMatchObject({ code: 1, msg: MSG.presetContentRequired });
    const p1 = await a.call(API.videogen.presetSave, { title: '风景', content: '金色的夕阳洒在海面上' });
    const p2 = await a.call(API.videogen.presetSave, { content: '一只橘猫在窗台上打盹，阳光温暖，画面柔和安静' });
    expect([p1.code, p2.code]).toEqual([0, 0]);
    expect((await a.call(API.videogen.presets, {})).data.list).toEqual([
      { id: p2.data.id, title: '一只橘猫在窗台上打盹，阳光温暖，画面柔和', content: '一只橘猫在窗台上打盹，阳光温暖，画面柔和安静' },
      { id: p1.data.id, title: '风景', content: '金色的夕阳洒在海面上' },
    ]);
    expect((await a.call(API.videogen.presets, { keyword: '夕阳' })).data.list.map((p: any) => p.id)).toEqual([p1.data.id]);
    expect((await a.call(API.videogen.presets, { keyword: '风' })).data.list.map((p: any) => p.id)).toEqual([p1.data.id]);
    expect((await a.call(API.videogen.presets, { keyword: '%' })).data.list).toEqual([]);
    expect(await a.call(API.videogen.presetSave, { id: p1.data.id, title: '海景', content: '海浪' })).toMatchObject({ code: 0 });

    // b sees none of a's presets or records, and can neither change nor delete them.
    expect((await b.call(API.videogen.presets, {})).data.list).toEqual([]);
    expect(await b.call(API.videogen.presetSave, { id: p1.data.id, title: 'x', content: 'y' })).toMatchObject({ code: 1, msg: MSG.presetNotFound });
    expect(await b.call(API.videogen.presetRemove, { id: p1.data.id })).toMatchObject({ code: 1, msg: MSG.presetNotFound });
    const aImage = (await records(a, 'image')).data.list;
    expect(aImage).toHaveLength(1);
    expect((await records(b, 'image')).data.list).toEqual([]);
    expect((await records(a, 'text')).data.list).toEqual([]);
    expect(await b.call(API.videogen.remove, { id: aImage[0].id })).toMatchObject({ code: 1, msg: MSG.videoRecordNotFound });
    expect((await a.call(API.videogen.presets, { keyword: '海' })).data.list).toEqual([{ id: p1.data.id, title: '海景', content: '海浪' }]);

    expect(await a.call(API.videogen.presetRemove, { id: p1.data.id })).toMatchObject({ code: 0 });
    expect((await a.call(API.videogen.presets, {})).data.list.map((p: any) => p.id)).toEqual([p2.data.id]);
    expect(await a.call(API.videogen.remove, { id: aImage[0].id })).toMatchObject({ code: 0 });
    expect((await records(a, 'image')).data.list).toEqual([]);
    expect((await fetch(`${t.url}${aImage[0].url}`)).status).toBe(404);
  });

  it('the operator seeds the word bank and the recommendations; users read them', async () => {
    expect((await a.call(API.videogen.prompts, {})).data.list).toEqual([]);
    const set = await t.operator(API.videogen.promptsSet, {
      list: [
        { name: '镜头', list: [{ name: '推镜头', is_multi: 0 }, { name: '环绕', is_multi: 0 }] },
        { name: '风格', list: [{ name: '电影感', demo_url: 'https://example.com/a.mp4', is_multi: 1 }] },
      ],
    });
    expect(set).toMatchObject({ code: 0, data: { groups: 2, words: 3 } });
    expect((await a.call(API.videogen.prompts, {})).data.list).toEqual([
      { name: '镜头', list: [{ name: '推镜头', demo_url: '', is_multi: 0 }, { name: '环绕', demo_url: '', is_multi: 0 }] },
      { name: '风格', list: [{ name: '电影感', demo_url: 'https://example.com/a.mp4', is_multi: 1 }] },
    ]);
    expect((await t.operator(API.videogen.promptsSet, { list: [{ name: '', list: [] }] })).code).toBe(1);

    const samples = [{ content: '花朵绽放', image: FIRST }, { content: '云卷云舒' }, { content: '小图', image: SMALL }];
    expect(await t.operator(API.videogen.recommendSet, { type: 'image', list: samples })).toMatchObject({ code: 0, data: { count: 3 } });
    expect(await t.operator(API.videogen.recommendSet, { type: 'text', list: [{ content: '城市夜景延时' }] })).toMatchObject({ code: 0 });
    const image = (await a.call(API.videogen.recommend, { type: 'image' })).data.list;
    expect(image.map((r: any) => r.content)).toEqual(['花朵绽放', '云卷云舒', '小图']);
    expect(image[0].image).toMatch(/^\/storage\/public\//);
    expect((await fetch(`${t.url}${image[0].image}`)).status).toBe(200);
    expect((await a.call(API.videogen.recommend, { type: 'text' })).data.list.map((r: any) => r.content)).toEqual(['城市夜景延时']);
    // A public sample picture may start an image-to-video (reference tab), if it is large enough.
    expect(await b.call(API.videogen.create, { type: 'image', prompt: '小图', image: image[2].image, image_mode: 2 })).toMatchObject({ code: 1, msg: MSG.videoImageTooSmall });
    const made = await b.call(API.videogen.create, { type: 'image', prompt: '花朵绽放', image: image[0].image, image_mode: 2, aspect_ratio: '1:1' });
    expect(made.code).toBe(0);
    const done = await finished(b, 'image', made.data.id);
    expect(done).toMatchObject({ status: VideoTaskStatus.Success, image_mode: 2, image_tail: '' });
    expect((await probed(done.url, 'reference')).video).toMatchObject(testFrames('1:1'));
  });
});
