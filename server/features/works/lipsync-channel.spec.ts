/**
 * The offline lip-sync channel end to end: cloning analyses the avatar's face once, a work on channel `lip`
 * renders through the lip-sync engine (the engine's own spec measures that the mouth follows the speech), and an
 * avatar without a usable face still renders — looped, with the reason on the work.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';
import { makeSpeech, mediaDir } from '../../../tests/support/media';
import { makeFaceVideo, makeFacelessVideo } from '../../../tests/support/face-media';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const SCRIPT = '大家好<#0.5#>欢迎来到直播间，今天给大家介绍一款新产品。';

// Runs once, on PGlite (CI time: three avatar clones with face analysis and three lip-sync renders): its subject is
// face analysis and the render; a lip-sync work's SQL (reserve, settle per second, list) is also run on PostgreSQL
// by the works and recovery specs.
describe.each(DB_KINDS.filter((k) => k === 'pglite'))('the offline lip-sync channel (%s)', (kind) => {
  const t = useApp(kind);
  let a: ApiTestClient;

  const avatarNote = async (id: number) =>
    (await t.app.ctx.db.query<{ faces_key: string; face_note: string }>('SELECT faces_key, face_note FROM avatars WHERE id = $1', [id])).rows[0]!;
  async function clone(c: ApiTestClient, name: string, file: string) {
    const made = await c.call(API.avatars.clone, { name, file_id: (await uploadFile(c, 'video', file)).data.file_id });
    await until(() => c.call(API.avatars.list, { source: 1, page: 1, limit: 50 }), (r) => r.data.list.find((x: any) => x.id === made.data.id)?.status === 3, 120_000);
    return made.data.id as number;
  }
  async function render(c: ApiTestClient, videoId: number, voiceId: number) {
    const reply = await c.call(API.works.create, { name: '口型作品', api: 'lip', video_id: videoId, user_voice_id: voiceId, text: SCRIPT });
    expect(reply.code, reply.msg).toBe(0);
    const list = await until(() => c.call(API.works.list, { page: 1, limit: 50 }), (r) => [3, 4].includes(r.data.list.find((w: any) => w.id === reply.data.id)?.status), 180_000);
    return list.data.list.find((w: any) => w.id === reply.data.id);
  }
  let voice = 0;
  /** One public voice on the offline speech channel, once it has trained. */
  async function publicVoice() {
    if (voice) return voice;
    const sample = await makeSpeech(path.join(dir, `voice-${kind}.mp3`), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    voice = (await t.operator(API.admin.voicePublish, { name: '主持人', audio: sample, api: 'local' })).data.id as number;
    await until(() => a.call(API.voices.list, { source: 2, page: 1, limit: 10 }), (r) => r.data.list.find((v: any) => v.id === voice)?.generate_status === 2, 60_000);
    return voice;
  }

  it('offers the channel, analyses a face at clone time and renders a lip-synced work, charged per second', { timeout: 300_000 }, async () => {
    a = await t.user('15700000001', 1000);
    const channels = (await a.call(API.works.videoChannel, {})).data.list;
    expect(channels.find((c: any) => c.api === 'lip')).toMatchObject({ name: '本地口型' });
    const face = await clone(a, '正脸', makeFaceVideo(path.join(dir, `face-${kind}.mp4`), { width: 480, height: 640, seconds: 6 }));
    const analysed = await avatarNote(face);
    expect(analysed.face_note).toBe('ok');
    expect(analysed.faces_key).toMatch(/\.bin$/);

    const voiceId = await publicVoice();
    const before = (await a.call(API.account.credits, {})).data.credits;
    const work = await render(a, face, voiceId);
    expect(work).toMatchObject({ status: 3, api_key: 'lip' });
    expect(work.reason ?? '').toBe('');
    const file = path.join(dir, `lip-${kind}.mp4`);
    await writeFile(file, Buffer.from(await (await fetch(`${t.url}${work.url}`)).arrayBuffer()));
    const info = await probe(file, 'mp4');
    expect(info.video?.codec).toBe('h264');
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.1);
    expect(before - (await a.call(API.account.credits, {})).data.credits).toBe(Math.ceil(work.duration * 2));
  });

  it('renders a work on an avatar without a face as the loop, and says why on the work', { timeout: 300_000 }, async () => {
    const faceless = await clone(a, '无人脸', makeFacelessVideo(path.join(dir, `noface-${kind}.mp4`), { seconds: 6 }));
    const analysed = await avatarNote(faceless);
    expect(analysed.faces_key).toBe('');
    expect(analysed.face_note).toMatch(/已按原视频循环播放$/);
    const work = await render(a, faceless, await publicVoice());
    expect(work).toMatchObject({ status: 3 });
    expect(work.reason).toBe(analysed.face_note);
  });

  it('analyses at render time an avatar that was never analysed, and keeps the result', { timeout: 300_000 }, async () => {
    const face = await clone(a, '旧数字人', makeFaceVideo(path.join(dir, `old-${kind}.mp4`), { width: 480, height: 640, seconds: 6 }));
    await t.app.ctx.db.query(`UPDATE avatars SET faces_key = '', face_note = '' WHERE id = $1`, [face]);
    const work = await render(a, face, await publicVoice());
    expect(work).toMatchObject({ status: 3 });
    expect(work.reason ?? '').toBe('');
    expect(await avatarNote(face)).toMatchObject({ face_note: 'ok' });
  });
});
