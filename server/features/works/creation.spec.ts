import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, estimateSeconds, multiSceneCredits } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf, publishPublicVoice } from '../../../tests/support/voices';
import { makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { fetchHead } from '../../../tests/support/fetch';
import { finishedWork } from '../../../tests/support/works';
import { probe } from '../../infra/media-probe';
import { runWorkRender } from './works.jobs';

const dir = mediaDir();
/** 本地口型's seeded price, credits per second: what multi-scene works cost while fy has no engine. */
const LIP_PRICE = 2;
/** Read at half speed, this takes about twice the speed-blind estimate. */
const SLOW_TEXT = '慢慢地说这一段话，看看语速放慢以后，视频会变得有多长，积分又该怎么算。';
const SCRIPT = '大家好<#0.5#>欢迎来到我们的直播间。今天给大家介绍一款新产品<#1#>它可以帮助你轻松制作数字人视频。';

describe.each(DB_KINDS)('text-driven and multi-scene works (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15600000001', '15600000002'], 5000);
  let landscape: number;
  let portrait: number;
  let voiceId: number;
  let publicVoice: number;
  let sceneAudio: { file_id: number };

  const credits = creditsOf;
  const works = (c: ApiTestClient, extra = {}) => c.call(API.works.list, { page: 1, limit: 50, ...extra }).then((r) => r.data);
  async function download(url: string, ext: string) {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${ext}`);
    fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${url}`)).arrayBuffer()));
    return probe(file, ext);
  }
  // Cloning is tested in avatars.spec.ts: these works start from an avatar as a clone leaves it.
  const avatar = (c: ApiTestClient, width: number, height: number) =>
    readyAvatar(t, c, makeVideo(path.join(dir, `${width}x${height}.mp4`), { width, height, seconds: 5 }), `${width}x${height}`);

  beforeAll(async () => {
    landscape = await avatar(a, 640, 360);
    portrait = await avatar(a, 360, 640);
    const sample = await makeSpeech(path.join(dir, 'sample.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    const voice = await a.call(API.voices.create, { name: '我的声音', file_id: (await uploadFile(a, 'voice', sample)).data.file_id, api: 'local' });
    voiceId = voice.data.id;
    await until(() => a.call(API.voices.list, { source: 1, page: 1, limit: 10 }), (r) => r.data.list[0]?.generate_status === 2);
    publicVoice = await publishPublicVoice(t, a, sample);
    sceneAudio = (await uploadFile(a, 'voice', await makeSpeech(path.join(dir, 'scene.mp3'), '这是用户自己上传的一段音频，长度要超过五秒钟，所以多说几句话，让它足够长。'))).data;
  }, 240_000);

  it('renders a text-driven work without a prior audition: the job speaks the script with the chosen voice', async () => {
    const before = await credits(a);
    const reply = await a.call(API.works.create, { name: '文本驱动', api: 'local', video_id: landscape, user_voice_id: voiceId, text: SCRIPT });
    expect(reply.code).toBe(0);
    expect(before - (await credits(a))).toBe(Math.ceil(estimateSeconds(SCRIPT)));
    const work = await finishedWork(a, reply.data.id);
    expect(work).toMatchObject({ status: 3 });
    const info = await download(work.url, 'mp4');
    expect(info.audio?.codec).toBe('aac');
    expect(info.duration).toBeGreaterThan(5);
    // An estimated reservation is settled at the actual duration's price, above the estimate too (the balance allows it).
    expect(before - (await credits(a))).toBe(Math.ceil(work.duration));
  });

  it('takes a material-library audio, and refuses voices that are not usable or not the user\'s', async () => {
    const materials = (await a.call(API.material.list, { type: 'audio', page: 1, limit: 50 })).data.list as { id: number; file_id?: number }[];
    const material = materials[0]!;
    const reply = await a.call(API.works.create, { name: '素材音频', api: 'local', video_id: landscape, material_audio_id: material.id, drive: 'audio' });
    expect(reply.code).toBe(0);
    expect((await finishedWork(a, reply.data.id)).status).toBe(3);
    expect((await b.call(API.works.create, { name: 'x', api: 'local', video_id: landscape, material_audio_id: material.id, drive: 'audio' })).msg).toBe(MSG.avatarRequired);
    const own = await avatar(b, 640, 360);
    expect((await b.call(API.works.create, { name: 'x', api: 'local', video_id: own, material_audio_id: material.id, drive: 'audio' })).msg).toBe(MSG.audioFileRequired);
    expect((await b.call(API.works.create, { name: 'x', api: 'local', video_id: own, user_voice_id: voiceId, text: '你好' })).msg).toBe(MSG.notFound);
    await t.app.ctx.db.query('UPDATE voices SET generate_status = 1 WHERE id = $1', [voiceId]);
    expect((await a.call(API.works.create, { name: 'x', api: 'local', video_id: landscape, user_voice_id: voiceId, text: '你好' })).msg).toBe(MSG.voiceTraining);
    await t.app.ctx.db.query('UPDATE voices SET generate_status = 2 WHERE id = $1', [voiceId]);
  });

  it('renders with a material-library video in place of an avatar, and never with another user\'s', async () => {
    await uploadFile(a, 'video', makeVideo(path.join(dir, 'material.mp4'), { width: 640, height: 360, seconds: 5 }));
    const videos = (await a.call(API.material.list, { type: 'video', page: 1, limit: 50 })).data.list as { id: number }[];
    const material = videos.reduce((newest, m) => (m.id > newest.id ? m : newest));
    expect((await b.call(API.works.create, { name: 'x', api: 'local', material_video_id: material.id, voice_id: sceneAudio.file_id, drive: 'audio' })).msg).toBe(MSG.avatarRequired);
    const reply = await a.call(API.works.create, { name: '素材视频作品', api: 'local', material_video_id: material.id, voice_id: sceneAudio.file_id, drive: 'audio' });
    expect(reply.code).toBe(0);
    const work = await finishedWork(a, reply.data.id);
    expect(work.status).toBe(3);
    expect((await fetchHead(`${t.url}${work.cover}`)).status).toBe(200);
    expect((await download(work.url, 'mp4')).video).toMatchObject({ width: 640, height: 360 });
    expect((await a.call(API.works.remove, { id: reply.data.id })).code).toBe(0);
    expect((await fetchHead(`${t.url}${work.cover}`)).status).toBe(404);
  });

  it('renders a three-scene video across two avatars of different shapes, priced per second of the result', async () => {
    const content = [
      { type: 'text', text: '第一个场景<#0.5#>横屏的数字人。', voice_id: voiceId, video_id: landscape },
      { type: 'text', text: '第二个场景，竖屏的数字人，换成公共声音。', voice_id: publicVoice, rate: 1.3, volume: 1, pitch: 1.2, video_id: portrait },
      { type: 'audio', file_id: sceneAudio.file_id, video_id: landscape },
    ];
    const estimate = estimateSeconds(content[0]!.text!) + estimateSeconds(content[1]!.text!, content[1]!.rate) + (await probe(path.join(dir, 'scene.mp3'), 'mp3')).duration;
    const before = await credits(a);
    const reply = await a.call(API.works.multi, { name: '三个场景', drive_mode: 'serial', output_mode: 'video', content: JSON.stringify(content) });
    expect(reply.code).toBe(0);
    // On 本地口型 (fy has no engine here), at its credits per second (multi-scene.spec.ts: the mouth moves).
    expect(before - (await credits(a))).toBe(multiSceneCredits(estimate, LIP_PRICE));
    const work = await finishedWork(a, reply.data.id);
    expect(work).toMatchObject({ status: 3, name: '三个场景', api_key: 'lip', api_name: '多场景 · 本地口型' });
    const info = await download(work.url, 'mp4');
    expect(info.video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.3);
    expect(before - (await credits(a))).toBe(Math.ceil(work.duration * LIP_PRICE));
    expect((await works(a, { is_multi: 1, only_audio: 0 })).list.map((w: any) => w.id)).toContain(reply.data.id);
  });

  it('renders the audio-only output as one mp3, and the random drive mode', async () => {
    const content = [
      { type: 'text', text: '只要声音。', voice_id: voiceId, video_id: landscape },
      { type: 'audio', file_id: sceneAudio.file_id, video_id: portrait },
    ];
    const audioOnly = await a.call(API.works.multi, { name: '纯音频', output_mode: 'audio', content: JSON.stringify(content) });
    expect(audioOnly.code).toBe(0);
    const work = await finishedWork(a, audioOnly.data.id);
    expect(work.status).toBe(3);
    const info = await download(work.url, 'mp3');
    expect(info.video).toBeUndefined();
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.2);
    expect((await works(a, { is_multi: 1, only_audio: 1 })).list.map((w: any) => w.id)).toEqual([audioOnly.data.id]);
    // The works page's multi-scene tabs: type1 = is_multi 1, type2 = type (1 video, 2 audio).
    expect((await works(a, { is_multi: 1, type: 2 })).list.map((w: any) => w.id)).toEqual([audioOnly.data.id]);
    expect((await works(a, { is_multi: 1, type: 1 })).list.map((w: any) => w.id)).not.toContain(audioOnly.data.id);
    expect((await works(a, { type: 1 })).list.map((w: any) => w.id)).not.toContain(audioOnly.data.id);

    const random = await a.call(API.works.multi, { name: '随机', drive_mode: 'random', content: JSON.stringify(content) });
    expect((await finishedWork(a, random.data.id)).status).toBe(3);
  });

  it('reserves a slow voice at its speed and charges its real length', async () => {
    const before = await credits(a);
    const reply = await a.call(API.works.create, { name: '慢速', api: 'local', video_id: landscape, user_voice_id: publicVoice, text: SLOW_TEXT, rate: 0.5 });
    expect(reply.code).toBe(0);
    expect(before - (await credits(a))).toBe(Math.ceil(estimateSeconds(SLOW_TEXT, 0.5)));
    const work = await finishedWork(a, reply.data.id);
    expect(work.status).toBe(3);
    // Half speed really is longer than the speed-blind estimate, which would have undercharged it.
    expect(work.duration).toBeGreaterThan(estimateSeconds(SLOW_TEXT) + 2);
    expect(before - (await credits(a))).toBe(Math.ceil(work.duration));
  });

  it('when the speech runs longer than its reservation: charges the difference if the balance allows, else keeps the reservation and says so', async () => {
    await t.createUser('15600000004', 'abc123', Math.ceil(estimateSeconds(SLOW_TEXT)));
    const poor = await t.login('15600000004', 'abc123');
    const poorAvatar = await avatar(poor, 640, 360);
    await t.withJobsPaused(async () => {
      const submit = (c: ApiTestClient, video: number) => c.call(API.works.create, { name: '超出预留', api: 'local', video_id: video, user_voice_id: publicVoice, text: SLOW_TEXT, rate: 1 });
      // The engine speaks slower than the estimate said: the stored work speaks at half speed.
      const slowDown = (id: number) => t.app.ctx.db.query(`UPDATE works SET params = jsonb_set(params, '{speech,rate}', '0.5'::jsonb) WHERE id = $1`, [id]);
      const reserved = Math.ceil(estimateSeconds(SLOW_TEXT));

      const before = await credits(a);
      const rich = await submit(a, landscape);
      expect(before - (await credits(a))).toBe(reserved);
      await slowDown(rich.data.id);
      await runWorkRender(t.app.ctx, rich.data.id, 0);
      const topped = (await works(a)).list.find((w: any) => w.id === rich.data.id);
      expect(topped).toMatchObject({ status: 3, reason: '' });
      expect(Math.ceil(topped.duration)).toBeGreaterThan(reserved);
      expect(before - (await credits(a))).toBe(Math.ceil(topped.duration));
      const log = (await a.call(API.credits.log, { page: 1, limit: 5 })).data.list as { action_name: string; credits: number }[];
      expect(log[0]).toMatchObject({ action_name: '视频合成按实际时长补扣', credits: reserved - Math.ceil(topped.duration) });

      const short = await submit(poor, poorAvatar);
      expect(await credits(poor)).toBe(0);
      await slowDown(short.data.id);
      await runWorkRender(t.app.ctx, short.data.id, 0);
      const kept = (await works(poor)).list.find((w: any) => w.id === short.data.id);
      expect(kept.status).toBe(3);
      expect(kept.reason).toBe(`余额不足，按预留的${reserved}积分结算（按实际时长应扣${Math.ceil(kept.duration)}积分）`);
      expect(await credits(poor)).toBe(0);
    });
  });

  it('refuses scenes without text or audio, other users\' inputs, and a submission the credits cannot cover (nothing queued, nothing charged)', async () => {
    const send = (c: ApiTestClient, content: unknown[], extra = {}) => c.call(API.works.multi, { name: 'x', content: JSON.stringify(content), ...extra });
    expect((await send(a, [{ type: 'text', text: '', voice_id: voiceId, video_id: landscape }])).msg).toBe(MSG.sceneTextRequired);
    expect((await send(a, [{ type: 'audio', video_id: landscape }])).msg).toBe(MSG.sceneAudioRequired);
    expect((await send(a, [{ type: 'text', text: '你好', voice_id: voiceId }])).msg).toBe(MSG.avatarRequired);
    expect((await send(b, [{ type: 'text', text: '你好', voice_id: voiceId, video_id: landscape }])).msg).toBe(MSG.avatarRequired);
    expect((await send(b, [{ type: 'audio', file_id: sceneAudio.file_id }], { output_mode: 'audio' })).msg).toBe(MSG.audioFileRequired);

    // 3 credits: this text runs about 4 s, 8 credits at 本地口型's price.
    await t.createUser('15600000003', 'abc123', 3);
    const poor = await t.login('15600000003', 'abc123');
    const countBefore = (await works(poor)).total;
    const refused = await send(poor, [{ type: 'text', text: '这段文字需要的积分比余额多得多。', voice_id: publicVoice, video_id: landscape }]);
    expect(refused).toMatchObject({ code: 1, msg: MSG.avatarRequired });
    const own = await avatar(poor, 640, 360);
    const renderJobs = async () => (await t.app.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'works-render'`)).rows[0]!.n;
    const jobsBefore = await renderJobs();
    const short = await send(poor, [{ type: 'text', text: '这段文字需要的积分比余额多得多。', voice_id: publicVoice, video_id: own }]);
    expect(short).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect((await works(poor)).total).toBe(countBefore);
    expect(await credits(poor)).toBe(3);
    expect(await renderJobs()).toBe(jobsBefore);
  });
});
