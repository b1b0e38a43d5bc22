/**
 * Multi-scene works lip-sync (issue 33): with channel fy on no engine, the avatar scenes render on the offline
 * lip-sync engine and the work costs 本地口型's credits per second; the price shown before submit (the contract's
 * multiSceneCredits at the rate videoChannel offers) is what is reserved and what is settled; a scene that cannot
 * render fails the work and returns its credits. HeyGem's side is in remote-render.spec.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, multiSceneCredits } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf } from '../../../tests/support/voices';
import { makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { makeFaceVideo } from '../../../tests/support/face-media';
import { measureLips } from '../../../tests/support/lip-measure';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';
import { runWorkRender } from './works.jobs';

const dir = mediaDir();
/** 本地口型's seeded price, credits per second. */
const LIP_PRICE = 2;

describe.each(DB_KINDS)('multi-scene works lip-sync (%s)', (kind) => {
  const t = useApp(kind);
  let a: ApiTestClient;
  let face: number;
  let audios: { id: number; seconds: number }[];

  const credits = creditsOf;
  const workOf = (c: ApiTestClient, id: number) => c.call(API.works.list, { page: 1, limit: 50, is_multi: 1 }).then((r) => r.data.list.find((w: any) => w.id === id));
  const finished = (c: ApiTestClient, id: number) => until(() => workOf(c, id), (w) => [3, 4].includes(w?.status), 180_000);
  const audioScene = (i: number, videoId: number) => ({ type: 'audio', file_id: audios[i]!.id, video_id: videoId });

  beforeAll(async () => {
    a = await t.user('15610000001', 1000);
    // Cloning and its face analysis are tested elsewhere: a real face, as a clone leaves it.
    face = await readyAvatar(t, a, makeFaceVideo(path.join(dir, 'multi-face.mp4'), { width: 360, height: 480, seconds: 6 }), '正脸');
    audios = [];
    // An upload's audio lasts at least 5 s.
    for (const [i, text] of ['大家好，欢迎来到我们的直播间，今天我们一起聊一聊新产品。', '这款新产品用起来非常方便，价格也很实在，大家可以放心购买。'].entries()) {
      const file = await makeSpeech(path.join(dir, `multi-scene-${i}.mp3`), text);
      audios.push({ id: (await uploadFile(a, 'voice', file)).data.file_id, seconds: (await probe(file, 'mp3')).duration });
    }
  }, 240_000);

  it('offers the offline lip-sync channel for multi-scene works, and says so in one sentence', async () => {
    const { multi } = (await a.call(API.works.videoChannel, {})).data;
    expect(multi).toEqual({ api: 'lip', name: '本地口型', credits: LIP_PRICE, local: true, tip: MSG.multiSceneLipSync('本地口型', true) });
    expect(multi.tip).toMatch(/^口型同步：/);
  });

  it('renders the avatar scenes with a moving mouth, and settles exactly the estimate shown before submit', { timeout: 300_000 }, async () => {
    const rate = (await a.call(API.works.videoChannel, {})).data.multi.credits as number;
    const estimate = multiSceneCredits(audios[0]!.seconds + audios[1]!.seconds, rate);
    const before = await credits(a);
    const reply = await a.call(API.works.multi, { name: '两个口型场景', content: JSON.stringify([audioScene(0, face), audioScene(1, face)]) });
    expect(reply.code, reply.msg).toBe(0);
    expect(before - (await credits(a))).toBe(estimate);
    const work = await finished(a, reply.data.id);
    expect(work).toMatchObject({ status: 3, api_key: 'lip', api_name: '多场景 · 本地口型', reason: '' });
    expect(before - (await credits(a))).toBe(estimate);

    const file = path.join(dir, `multi-lip-${kind}.mp4`);
    fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${work.url}`)).arrayBuffer()));
    const info = await probe(file, 'mp4');
    expect(info.video).toMatchObject({ codec: 'h264', width: 360, height: 480 });
    expect(Math.abs(info.duration - (audios[0]!.seconds + audios[1]!.seconds))).toBeLessThan(0.3);
    // The mouth the detector reads in the result opens and closes with the speech (the loop alone stays near 0).
    const lips = await measureLips(file);
    console.log(`multi-scene on the offline engine: mouth opening ~ loudness ${lips.follows.toFixed(2)}`);
    expect(lips.follows).toBeGreaterThan(0.4);
  });

  it('a scene whose avatar is gone fails the work and returns exactly its reservation', { timeout: 120_000 }, async () => {
    const other = await readyAvatar(t, a, makeVideo(path.join(dir, 'multi-other.mp4'), { width: 360, height: 480, seconds: 5 }), '第二个');
    const before = await credits(a);
    await t.withJobsPaused(async () => {
      const reply = await a.call(API.works.multi, { name: '会失败', content: JSON.stringify([audioScene(0, face), audioScene(1, other)]) });
      expect(reply.code, reply.msg).toBe(0);
      expect(before - (await credits(a))).toBe(multiSceneCredits(audios[0]!.seconds + audios[1]!.seconds, LIP_PRICE));
      expect((await a.call(API.avatars.remove, { id: other })).code).toBe(0);
      await runWorkRender(t.app.ctx, reply.data.id, 0);
      expect(await workOf(a, reply.data.id)).toMatchObject({ status: 4, reason: '第2个场景的数字人已被删除，积分已退回' });
    });
    expect(await credits(a)).toBe(before);
  });

  it('without an enabled lip-sync channel, refuses multi-scene works and offers none', async () => {
    const lip = (enabled: string) => t.operator(API.admin.channelSet, { api: 'lip', kind: 'video', enabled });
    expect((await lip('false')).code).toBe(0);
    try {
      expect((await a.call(API.works.videoChannel, {})).data.multi).toBeUndefined();
      const before = await credits(a);
      expect(await a.call(API.works.multi, { name: 'x', content: JSON.stringify([audioScene(0, face)]) })).toMatchObject({ code: 1, msg: MSG.multiSceneNoChannel });
      expect(await credits(a)).toBe(before);
    } finally {
      expect((await lip('true')).code).toBe(0);
    }
  });
});
