import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, MSG } from '../../../src/contract';
import { DB_KINDS, startApp, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { creditsOf } from '../../../tests/support/voices';
import { makeAudio, makeVideo, mediaDir } from '../../../tests/support/media';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { fetchHead } from '../../../tests/support/fetch';
import { probe } from '../../infra/media-probe';
import { JOB_RETRY_LIMIT } from '../../infra/queue';
import { runWorkRender } from './works.jobs';

const dir = mediaDir();
const avatarVideo = makeVideo(path.join(dir, 'avatar.mp4'), { width: 640, height: 360, seconds: 6 });
const speech = makeAudio(path.join(dir, 'speech.mp3'), { seconds: 13 });


describe.each(DB_KINDS)('avatar cloning and works on the local engine (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15700000001', '15700000002'], 1000);
  let avatarId: number;
  const avatars = (c: ApiTestClient) => c.call(API.avatars.list, { source: 1, page: 1, limit: 9999 }).then((r) => r.data.list as any[]);
  const works = (c: ApiTestClient, extra = {}) => c.call(API.works.list, { page: 1, limit: 50, ...extra }).then((r) => r.data);
  const credits = creditsOf;

  it('clones an avatar: processing, then ready with a normalized video, covers, duration and orientation', async () => {
    const upload = await uploadFile(a, 'video', avatarVideo);
    expect(upload.code).toBe(0);
    expect(await a.call(API.avatars.clone, { name: '', file_id: upload.data.file_id })).toMatchObject({ code: 1, msg: MSG.avatarNameRequired });
    const reply = await a.call(API.avatars.clone, { name: '我的主播', file_id: upload.data.file_id });
    expect(reply.code).toBe(0);
    avatarId = reply.data.id;
    expect((await avatars(a))[0]).toMatchObject({ id: avatarId, status: 1 });
    const ready = await until(() => avatars(a), (l) => l[0]?.status === 3);
    expect(ready[0]).toMatchObject({ name: '我的主播', status: 3, orientation: 1, source: 1 });
    expect(ready[0].duration).toBeCloseTo(6, 0);
    for (const url of [ready[0].url, ready[0].cover, ready[0].cover_small]) expect((await fetchHead(`${t.url}${url}`)).status).toBe(200);
    const normalized = path.join(t.dataDir, 'objects', ready[0].url.split('?')[0].replace('/storage/', ''));
    const info = await probe(normalized, 'mp4');
    expect(info.video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect(await a.call(API.avatars.clone, { name: '再来', file_id: upload.data.file_id })).toMatchObject({ code: 1 });
  });

  it('keeps avatars apart: B neither lists, uses nor deletes A\'s', async () => {
    expect(await avatars(b)).toEqual([]);
    expect((await b.call(API.avatars.remove, { id: avatarId })).msg).toBe(MSG.notFound);
    const audio = await uploadFile(b, 'voice', speech);
    expect(await b.call(API.works.create, { name: 'x', api: 'local', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' })).toMatchObject({ code: 1, msg: MSG.avatarRequired });
    const aUpload = await uploadFile(a, 'video', avatarVideo);
    expect((await b.call(API.avatars.clone, { name: 'x', file_id: aUpload.data.file_id })).msg).toBe(MSG.avatarVideoRequired);
  });

  it('renders an audio-driven work to exactly the audio\'s length and charges the actual duration', async () => {
    const audio = await uploadFile(a, 'voice', speech);
    const before = await credits(a);
    const reply = await a.call(API.works.create, { name: '第一条', api: 'local', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' });
    expect(reply.code).toBe(0);
    const reserve = Math.ceil((await probe(speech, 'mp3')).duration);
    expect(await credits(a)).toBe(before - reserve);
    const done = await until(() => works(a), (w) => w.list[0]?.status === 3);
    const work = done.list[0];
    expect(work).toMatchObject({ id: reply.data.id, name: '第一条', status: 3, api_key: 'local', api_name: '本地合成' });
    const file = path.join(dir, 'out.mp4');
    fs.writeFileSync(file, Buffer.from(await (await fetch(`${t.url}${work.url}`)).arrayBuffer()));
    const info = await probe(file, 'mp4');
    const audioInfo = await probe(speech, 'mp3');
    expect(Math.abs(info.duration - audioInfo.duration)).toBeLessThan(0.1);
    expect(info.video?.codec).toBe('h264');
    expect(info.audio?.codec).toBe('aac');
    expect(fs.readFileSync(file).indexOf('moov')).toBeLessThan(fs.readFileSync(file).indexOf('mdat'));
    expect(await credits(a)).toBe(before - Math.min(reserve, Math.ceil(info.duration)));
  });

  it('filters the list by the works page\'s tab: type is the type2 inside the level is_multi names', async () => {
    const ids = async (extra: Record<string, number>) => (await works(a, extra)).list.map((w: { id: number }) => w.id);
    const id = (await works(a)).list[0].id;
    expect(await ids({ type: 1 })).toEqual([id]);
    expect(await ids({ type: 2 })).toEqual([]);
    expect(await ids({ type: 3 })).toEqual([]);
    expect(await ids({ is_multi: 1, type: 1 })).toEqual([]);
    // A pet video (its submission is not open yet) lands under type2 = 2, and only there.
    await t.app.ctx.db.query('UPDATE works SET photo_type = 2 WHERE id = $1', [id]);
    expect(await ids({ type: 2 })).toEqual([id]);
    expect(await ids({ type: 1 })).toEqual([]);
    expect(await ids({ type: 4 })).toEqual([]);
    expect((await a.call(API.works.list, { page: 0, limit: 0, type: 2 })).data.total).toBe(1);
    await t.app.ctx.db.query('UPDATE works SET photo_type = 0 WHERE id = $1', [id]);
  });

  it('counts, renames and deletes works; keeps them apart', async () => {
    expect((await a.call(API.works.list, { page: 0, limit: 0 })).data).toMatchObject({ list: [], total: 1, generate: 0 });
    const id = (await works(a)).list[0].id;
    // While it renders on this machine, the card gets its progress and the time left at the pace so far.
    await t.app.ctx.db.query(`UPDATE works SET status = 2, local_progress = 25, render_started_at = now() - interval '30 seconds' WHERE id = $1`, [id]);
    const rendering = (await works(a)).list[0];
    expect(rendering.progress).toBe(25);
    // 30 s for a quarter: about 90 s left (more when a loaded machine answers the list late).
    expect(rendering.seconds_left).toBeGreaterThanOrEqual(89);
    expect(rendering.seconds_left).toBeLessThanOrEqual(150);
    await t.app.ctx.db.query('UPDATE works SET status = 3 WHERE id = $1', [id]);
    expect((await works(a)).list[0]).not.toHaveProperty('seconds_left');
    expect((await b.call(API.works.list, { page: 0, limit: 0 })).data.total).toBe(0);
    expect(await a.call(API.works.rename, { id, name: '' })).toMatchObject({ code: 1, msg: MSG.renameNameRequired });
    expect((await b.call(API.works.rename, { id, name: '抢' })).msg).toBe(MSG.notFound);
    expect((await a.call(API.works.rename, { id, name: '改名了' })).code).toBe(0);
    expect((await works(a)).list[0].name).toBe('改名了');
    expect((await b.call(API.works.remove, { id })).code).toBe(1);
    expect((await a.call(API.works.remove, { id })).code).toBe(0);
    expect((await works(a)).total).toBe(0);
  });

  it.each([
    [{ name: 'x', api: 'local', drive: 'audio' }, MSG.avatarRequired],
    [{ name: 'x', api: 'local', video_id: 1, drive: 'audio' }, MSG.audioFileRequired],
    [{ name: 'x', api: 'local', video_id: 1, drive: 'text', user_voice_id: 1 }, MSG.scriptRequired],
    [{ name: 'x', api: 'local', video_id: 1, drive: 'text', text: '你好' }, MSG.voiceRequired],
    [{ name: 'x', api: 'nope', video_id: 1, voice_id: 1 }, MSG.channelRequired],
    [{ name: 'x', api: 'local', video_id: -3, voice_id: 1 }, null],
  ])('refuses %j and queues nothing', async (params, message) => {
    const before = await credits(a);
    const reply = await a.call(API.works.create, params);
    expect(reply.code).toBe(1);
    if (message) expect(reply.msg).toBe(message);
    expect(reply.status).toBe(200);
    expect(await credits(a)).toBe(before);
    expect((await works(a)).total).toBe(0);
  });

  it('refuses a channel that is not configured and a work the user cannot pay for: nothing queued, nothing charged', async () => {
    const audio = await uploadFile(a, 'voice', speech);
    expect(await a.call(API.works.create, { name: 'x', api: 'fy', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' })).toMatchObject({ code: 1, msg: MSG.channelUnavailable });
    await t.app.ctx.db.query(`UPDATE channels SET credits = 500 WHERE kind = 'video' AND api = 'local'`);
    const before = await credits(a);
    expect(await a.call(API.works.create, { name: 'x', api: 'local', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await credits(a)).toBe(before);
    expect((await works(a)).total).toBe(0);
    await t.app.ctx.db.query(`UPDATE channels SET credits = 1 WHERE kind = 'video' AND api = 'local'`);
    const channels = (await a.call(API.works.videoChannel, {})).data;
    expect(channels.list.map((c: { api: string }) => c.api)).toEqual(['lip', 'local']);
    // The effect order names the channels offered, best (highest version) first, and only them.
    expect(channels.tips).toBe('效果排序：1.5 本地口型 > 1.0 本地合成');
    await t.app.ctx.db.query(`UPDATE channels SET enabled = true, engine = 'local' WHERE kind = 'video' AND api = 'df'`);
    expect((await a.call(API.works.videoChannel, {})).data.tips).toBe('效果排序：2.0 极速训练 > 1.5 本地口型 > 1.0 本地合成');
    await t.app.ctx.db.query(`UPDATE channels SET enabled = false, engine = 'none' WHERE kind = 'video' AND api = 'df'`);
  });

  it('a render that fails on its last attempt marks the work failed and returns the reservation exactly', async () => {
    const audio = await uploadFile(a, 'voice', speech);
    const before = await credits(a);
    await t.withJobsPaused(async () => {
      const reply = await a.call(API.works.create, { name: '会失败', api: 'local', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' });
      expect(await credits(a)).toBe(before - Math.ceil((await probe(speech, 'mp3')).duration));
      const { rows } = await t.app.ctx.db.query<{ object_key: string }>('SELECT object_key FROM files WHERE id = $1', [audio.data.file_id]);
      fs.writeFileSync(path.join(t.dataDir, 'objects', rows[0]!.object_key), 'not audio any more');
      await expect(runWorkRender(t.app.ctx, reply.data.id, 0)).rejects.toThrow();
      await runWorkRender(t.app.ctx, reply.data.id, JOB_RETRY_LIMIT);
      const work = (await works(a)).list.find((w: { id: number }) => w.id === reply.data.id);
      expect(work).toMatchObject({ status: 4 });
      expect(work.reason).toContain('退回');
      expect(await credits(a)).toBe(before);
      await runWorkRender(t.app.ctx, reply.data.id, JOB_RETRY_LIMIT);
      expect(await credits(a)).toBe(before);
      expect((await a.call(API.works.remove, { id: reply.data.id })).code).toBe(0);
    });
  });

  it('deletes an avatar with its objects, freeing the space', async () => {
    const before = (await a.call(API.credits.space, {})).data.used;
    expect((await a.call(API.avatars.remove, { id: avatarId })).code).toBe(0);
    expect(await avatars(a)).toEqual([]);
    expect((await a.call(API.credits.space, {})).data.used).toBeLessThan(before);
  });
});

describe('operator: avatar publish', () => {
  it('makes a public avatar through the same pipeline, listed by orientation', async () => {
    const t = await startApp('pglite');
    try {
      const portrait = makeVideo(path.join(dir, 'portrait.mp4'), { width: 360, height: 640, seconds: 5 });
      const reply = await t.operator(API.admin.avatarPublish, { name: '公共主播', video: portrait });
      expect(reply.code).toBe(0);
      const c = await t.user('15700000099');
      const list = await until(() => c.call(API.avatars.publicList, { source: 2, page: 1, limit: 20 }), (r) => r.data.slist.length === 1);
      expect(list.data.slist[0]).toMatchObject({ name: '公共主播', orientation: 2, source: 2, status: 3 });
      expect(list.data.hlist).toEqual([]);
      expect((await fetchHead(`${t.url}${list.data.slist[0].url}`)).status).toBe(200);
      const bad = await t.operator(API.admin.avatarPublish, { name: 'x', video: makeAudio(path.join(dir, 'not-video.mp3'), { seconds: 6 }) });
      expect(bad.msg).toContain(MSG.avatarVideoInvalid);
    } finally {
      await t.close();
    }
  });
});
