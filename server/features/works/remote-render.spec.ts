import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { API, MSG, multiSceneCredits } from '../../../src/contract';
import { ApiTestClient, DB_KINDS, preparedData, startApp, type TestApp } from '../../../tests/support/app';
import { creditsOf, publishPublicVoice } from '../../../tests/support/voices';
import { levelDb, makeAudio, makeSpeech, makeTone, makeVideo, mediaDir } from '../../../tests/support/media';
import { startHeyGemPeer, type HeyGemPeer } from '../../../tests/support/peers/heygem-peer';
import { createDatabase } from '../../../tests/support/postgres';
import { startServer, type RunningServer } from '../../../tests/support/server';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { fetchHead } from '../../../tests/support/fetch';
import { finishedWork, worksOf } from '../../../tests/support/works';
import { configFromEnv, ConfigError, DEFAULT_REMOTE_RENDER, remoteRenderTimings } from '../../infra/config';
import { probe } from '../../infra/media-probe';
import { HEYGEM_MSG, lipSyncEngineFor } from '../../engines/lipsync';

const dir = mediaDir();
const avatarVideo = makeVideo(path.join(dir, 'avatar.mp4'), { width: 640, height: 360, seconds: 5 });
const speech = makeAudio(path.join(dir, 'speech.mp3'), { seconds: 6 });
const SCRIPT = '大家好<#0.5#>欢迎来到我们的直播间。今天给大家介绍一款新产品。';
/**
 * The render job's polls and looks for a slot, shortened: what is tested is their order, not their length. The wait
 * after a busy answer stays the product's 5 s: the busy test finishes the other client's job within it.
 */
/** A remote render under a loaded CI machine can pass a minute; a stuck one still fails. */
const RENDER_TIMEOUT_MS = 180_000;
const QUICK_REMOTE_RENDER = { pollSeconds: 0.2, queueSeconds: 0.2 };
/** Channel fy's seeded price, credits per second. */
const FY_PRICE = 15;

const credits = creditsOf;
const workOf = async (c: ApiTestClient, id: number) => (await worksOf(c)).find((w) => w.id === id);
const finished = (c: ApiTestClient, id: number, ms = 90_000) => finishedWork(c, id, ms, 200);
const negatives = (c: ApiTestClient) => c.call(API.credits.log, { page: 1, limit: 200 }).then((r) => (r.data.list as { credits: number }[]).filter((l) => l.credits < 0).length);


/** A stored work's mp4, fetched into the spec's folder. */
async function saved(baseUrl: string, url: string): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.mp4`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(`${baseUrl}${url}`)).arrayBuffer()));
  return file;
}

async function playable(baseUrl: string, url: string) {
  return probe(await saved(baseUrl, url), 'mp4');
}

describe('PUBLIC_URL: where a GPU host reaches our storage', () => {
  it('is an origin; unset, the render job uses this server\'s loopback address', () => {
    expect(configFromEnv({ PUBLIC_URL: 'http://192.168.1.20:8080/' }).publicUrl).toBe('http://192.168.1.20:8080');
    expect(configFromEnv({ PUBLIC_URL: 'https://avatar.example.com' }).publicUrl).toBe('https://avatar.example.com');
    expect(configFromEnv({}).publicUrl).toBeUndefined();
    expect(() => configFromEnv({ PUBLIC_URL: 'ftp://host' })).toThrow(ConfigError);
    expect(() => configFromEnv({ PUBLIC_URL: 'http://host:8080/app' })).toThrow(ConfigError);
  });
});

describe('LIPSYNC_POLL_SECONDS: how often a remote lip-sync task is asked about', () => {
  it('unset, every 2 s (with the other timings of the render job); a positive number of seconds otherwise', () => {
    expect(remoteRenderTimings(configFromEnv({}))).toEqual(DEFAULT_REMOTE_RENDER);
    expect(DEFAULT_REMOTE_RENDER).toMatchObject({ pollSeconds: 2, queueSeconds: 2, busySeconds: 5, timeoutSeconds: 7200, maxLost: 3 });
    expect(remoteRenderTimings(configFromEnv({ LIPSYNC_POLL_SECONDS: '0.5' }))).toEqual({ ...DEFAULT_REMOTE_RENDER, pollSeconds: 0.5 });
    for (const bad of ['0', '-1', 'soon']) expect(() => configFromEnv({ LIPSYNC_POLL_SECONDS: bad })).toThrow(ConfigError);
  });
});

describe.each(DB_KINDS)('works on a HeyGem lip-sync channel, against its protocol peer (%s)', (kind) => {
  let t: TestApp;
  let peer: HeyGemPeer;
  let a: ApiTestClient;
  let avatarId: number;
  let audioId: number;
  let publicVoice: number;
  /** What a work driven by the uploaded audio reserves (and the most it costs). */
  let reserve: number;
  const submissionsOf = (workId: number) => peer.submissions.filter((s) => String(s.body.code).startsWith(`w${workId}-`));
  /** A work on fy with the avatar (unless a material video is given), driven by the uploaded audio unless `drive` says otherwise. */
  const create = (c: ApiTestClient, name: string, drive: Record<string, unknown> = { voice_id: audioId, drive: 'audio' }) =>
    c.call(API.works.create, { name, api: 'fy', ...('material_video_id' in drive ? {} : { video_id: avatarId }), ...drive }).then((r) => {
      expect(r).toMatchObject({ code: 0 });
      return r.data.id as number;
    });
  const files = () => t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM files WHERE user_id = (SELECT id FROM users WHERE username = $1)', ['15900000001']).then((r) => r.rows[0]!.n);
  const tasksLeft = () => t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM remote_lipsync_tasks').then((r) => r.rows[0]!.n);

  beforeAll(async () => {
    peer = await startHeyGemPeer();
    t = await startApp(kind, { remoteRender: QUICK_REMOTE_RENDER });
    a = await t.user('15900000001', 5000);
    // Cloning is tested in avatars.spec.ts: the engine gets an avatar as a clone leaves it.
    avatarId = await readyAvatar(t, a, avatarVideo);
    audioId = (await uploadFile(a, 'voice', speech)).data.file_id;
    reserve = Math.ceil((await probe(speech, 'mp3')).duration * FY_PRICE);
    const sample = await makeSpeech(path.join(dir, 'sample.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    publicVoice = await publishPublicVoice(t, a, sample);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });
  beforeEach(async () => {
    await peer.settled();
    Object.assign(peer, { progressSteps: 1, failWith: null, down: false, delayMs: 0, nextReply: null });
  });

  it('an operator maps fy to heygem: never enabled without a usable base URL; the other lip-sync channels stay off', async () => {
    const set = (body: Record<string, unknown>) => t.operator(API.admin.channelSet, { api: 'fy', kind: 'video', ...body });
    expect(await set({ engine: 'heygem', enabled: 'true' })).toMatchObject({ code: 1, msg: expect.stringContaining('--base-url') });
    expect(await set({ engine: 'heygem', enabled: 'true', base_url: 'ftp://gpu:8383' })).toMatchObject({ code: 1, msg: expect.stringContaining('http(s)') });
    expect((await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', engine: 'heygem' })).code).toBe(1);
    expect((await a.call(API.works.videoChannel, {})).data.list.map((c: { api: string }) => c.api)).toEqual(['lip', 'local']);
    expect(await a.call(API.works.create, { name: 'x', api: 'fy', video_id: avatarId, voice_id: audioId, drive: 'audio' })).toMatchObject({ code: 1, msg: MSG.channelUnavailable });

    expect(await set({ engine: 'heygem', enabled: 'true', base_url: peer.url })).toMatchObject({
      code: 0, data: { kind: 'video', api: 'fy', engine: 'heygem', enabled: true, configured: ['base_url'] },
    });
    // The channel dialog on /create lists it (with its price) beside the local one; df, gj and ou have no engine.
    const listed = (await a.call(API.works.videoChannel, {})).data.list as { api: string; credits: number }[];
    expect(listed.map((c) => c.api).sort()).toEqual(['fy', 'lip', 'local']);
    expect(listed.find((c) => c.api === 'fy')).toMatchObject({ credits: FY_PRICE, version_name: '3.0' });
    // Pictures (photo avatars, pet and photo-speak) render on this machine only: the clients offer those channels.
    expect(Object.fromEntries(listed.map((c) => [c.api, (c as { pictures?: boolean }).pictures]))).toEqual({ fy: false, lip: true, local: true });
  });

  it('renders a text work on fy through the engine into a playable mp4, charged once on the actual duration', { timeout: RENDER_TIMEOUT_MS }, async () => {
    const before = await credits(a);
    const filesBefore = await files();
    const id = await create(a, '唇形文本', { drive: 'text', user_voice_id: publicVoice, text: SCRIPT });
    const work = await finished(a, id);
    expect(work).toMatchObject({ status: 3, api_key: 'fy', reason: '' });
    expect(work.queue_ahead).toBeUndefined();
    expect(work.progress).toBeUndefined();
    const info = await playable(t.url, work.url);
    expect(info.video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect(info.audio?.codec).toBe('aac');
    expect(info.duration).toBeGreaterThan(3);
    expect(Math.abs(info.duration - work.duration)).toBeLessThan(0.05);

    // The engine was handed absolute signed URLs of our storage, and really fetched them.
    const [submission] = submissionsOf(id);
    expect(submissionsOf(id)).toHaveLength(1);
    expect(submission).toMatchObject({ code: 10000, body: { code: `w${id}-1`, chaofen: 0, watermark_switch: 0, pn: 1 } });
    for (const url of [submission!.body.audio_url, submission!.body.video_url]) expect(String(url)).toMatch(new RegExp(`^${t.url}/storage/\\d+/.+\\?exp=\\d+&sig=`));

    expect(before - (await credits(a))).toBe(Math.ceil(work.duration * FY_PRICE));
    // Only the video and its subtitles stay: the speech stored for the engine went with the task.
    expect((await fetchHead(`${t.url}${work.srt}`)).status).toBe(200);
    expect((await files()) - filesBefore).toBe(2);
    expect(await tasksLeft()).toBe(0);
  });

  it('background music goes under the engine\'s result as under a local render', { timeout: RENDER_TIMEOUT_MS }, async () => {
    // A 3 kHz tone as the library track, under a work whose own sound is a 330 Hz tone: the band holds only the music.
    const track = await t.operator(API.music.publish, { name: '远端配乐', audio: makeTone(path.join(dir, 'tone-3k.mp3'), { hz: 3000, seconds: 6 }) });
    expect(track.code).toBe(0);
    const plain = await finished(a, await create(a, '无配乐'));
    const scored = await finished(a, await create(a, '有配乐', { voice_id: audioId, drive: 'audio', bgm: `lib-${track.data.id}`, bgm_volume: 0.5 }));
    expect(scored).toMatchObject({ status: 3, api_key: 'fy' });
    const band = async (url: string) => levelDb(await saved(t.url, url), { from: 1.5, to: 4, bandHz: 3000 });
    expect(await band(scored.url)).toBeGreaterThan(-40);
    expect((await band(scored.url)) - (await band(plain.url))).toBeGreaterThan(20);
    expect(Math.abs(scored.duration - plain.duration)).toBeLessThan(0.1);
  });

  it('a material-library video as the avatar: prepared for the engine, the work keeps its own cover', { timeout: RENDER_TIMEOUT_MS }, async () => {
    await uploadFile(a, 'video', avatarVideo);
    const videos = (await a.call(API.material.list, { type: 'video', page: 1, limit: 50 })).data.list as { id: number }[];
    const filesBefore = await files();
    const id = await create(a, '素材视频', { material_video_id: Math.max(...videos.map((v) => v.id)), voice_id: audioId, drive: 'audio' });
    const work = await finished(a, id);
    expect(work.status).toBe(3);
    expect((await playable(t.url, work.url)).video).toMatchObject({ codec: 'h264', width: 640, height: 360 });
    expect((await fetchHead(`${t.url}${work.cover}`)).status).toBe(200);
    // The video and its cover stay; the normalized copy made for the engine is gone.
    expect((await files()) - filesBefore).toBe(2);
    expect(await tasksLeft()).toBe(0);
  });

  it('three works at once with a limit of 1: queued in order with their places shown, one on the engine at a time, all finished', { timeout: RENDER_TIMEOUT_MS }, async () => {
    peer.progressSteps = 2;
    const before = await credits(a);
    const ids = [await create(a, '一'), await create(a, '二'), await create(a, '三')];
    const seen = { ahead: new Map<number, Set<number>>(), progress: new Set<number>(), maxSubmitted: 0 };
    const done = await until(
      async () => {
        const { rows } = await t.app.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM remote_lipsync_tasks WHERE state = 'submitted'`);
        seen.maxSubmitted = Math.max(seen.maxSubmitted, rows[0]!.n);
        const works = (await worksOf(a)).filter((w) => ids.includes(w.id));
        for (const w of works) {
          if (w.queue_ahead !== undefined) seen.ahead.set(w.id, (seen.ahead.get(w.id) ?? new Set()).add(w.queue_ahead));
          if (w.progress !== undefined) seen.progress.add(w.progress);
        }
        return works;
      },
      (works) => works.every((w) => w.status === 3),
      120_000,
      100,
    );
    expect(done.map((w) => w.status)).toEqual([3, 3, 3]);
    expect(seen.maxSubmitted).toBe(1);
    // First come, first served: the third waited behind two, the second behind one.
    expect([...(seen.ahead.get(ids[2]!) ?? [])]).toContain(2);
    expect([...(seen.ahead.get(ids[1]!) ?? [])]).toContain(1);
    expect([...seen.progress].some((p) => p > 0 && p < 100)).toBe(true);
    // Never a busy answer: nothing was submitted while another job ran.
    const ours = peer.submissions.filter((s) => ids.some((id) => String(s.body.code).startsWith(`w${id}-`)));
    expect(ours.map((s) => [s.body.code, s.code])).toEqual(ids.map((id) => [`w${id}-1`, 10000]));

    const charged = done.reduce((sum, w) => sum + Math.min(Math.ceil(w.duration * FY_PRICE), reserve), 0);
    expect(before - (await credits(a))).toBe(charged);
    for (const w of done) expect((await playable(t.url, w.url)).duration).toBeGreaterThan(5);
  });

  it('an engine busy with a job that is not ours: the work keeps its place and is submitted again later', { timeout: RENDER_TIMEOUT_MS }, async () => {
    peer.progressSteps = 2;
    const foreign = lipSyncEngineFor('heygem', { base_url: peer.url });
    if (foreign?.kind !== 'remote') throw new Error('heygem is a remote engine');
    expect(await foreign.submit({ code: 'someone-else', audioUrl: `${peer.url}/none.mp3`, videoUrl: `${peer.url}/none.mp4` })).toEqual({ state: 'accepted' });
    const id = await create(a, '忙碌');
    await until(async () => submissionsOf(id).length, (n) => n >= 1, 30_000, 100);
    expect(submissionsOf(id)[0]).toMatchObject({ code: 10001, body: { code: `w${id}-1` } });
    // Back in line, at its head: it starts as soon as the engine takes it.
    expect(await until(() => workOf(a, id), (w) => w?.queue_ahead === 0, 10_000, 50)).toMatchObject({ queue_ahead: 0 });
    // The other client's job ends (its polls are answered) and ours goes through under a new code.
    await peer.settled();
    while ((await foreign.query('someone-else')).state === 'running');
    expect((await finished(a, id)).status).toBe(3);
    expect(submissionsOf(id).map((s) => [s.body.code, s.code])).toEqual([[`w${id}-1`, 10001], [`w${id}-2`, 10000]]);
  });

  it('a job the engine fails: the work fails with its reason and the reservation comes back exactly', { timeout: RENDER_TIMEOUT_MS }, async () => {
    peer.failWith = 'CUDA out of memory';
    const before = await credits(a);
    const id = await create(a, '会失败');
    expect(before - (await credits(a))).toBe(reserve);
    const work = await finished(a, id);
    expect(work).toMatchObject({ status: 4, reason: `${HEYGEM_MSG.failed}，积分已退回` });
    expect(await credits(a)).toBe(before);
    expect(await tasksLeft()).toBe(0);
  });

  it('a task the engine lost in a restart is submitted again, and the work finishes once', { timeout: RENDER_TIMEOUT_MS }, async () => {
    // Long enough to be restarted mid-job (progress climbs 4% a poll).
    peer.progressSteps = 20;
    const before = await credits(a);
    const negativesBefore = await negatives(a);
    const id = await create(a, '重启');
    const running = await until(() => workOf(a, id), (w) => w?.status === 2 && w.progress > 0, 60_000, 100);
    expect(running.progress).toBeGreaterThan(0);
    peer.progressSteps = 1;
    peer.restart();
    const work = await finished(a, id);
    expect(work.status).toBe(3);
    expect(submissionsOf(id).map((s) => [s.body.code, s.code])).toEqual([[`w${id}-1`, 10000], [`w${id}-2`, 10000]]);
    expect(await negatives(a)).toBe(negativesBefore + 1);
    expect(before - (await credits(a))).toBe(Math.min(Math.ceil(work.duration * FY_PRICE), reserve));
  });

  it('an engine that stays down: the work fails after the retries with the engine\'s reason, refunded exactly', { timeout: 120_000 }, async () => {
    peer.down = true;
    const before = await credits(a);
    const id = await create(a, '连不上');
    const work = await finished(a, id, 100_000);
    expect(work).toMatchObject({ status: 4, reason: `${HEYGEM_MSG.unreachable}，积分已退回` });
    expect(work.reason).toMatch(/^唇形合成服务无法连接/);
    expect(await credits(a)).toBe(before);
    expect(submissionsOf(id)).toEqual([]);
    expect(await tasksLeft()).toBe(0);
  });

  it('multi-scene works on fy: the channel offered, each avatar scene lip-synced there in turn, joined and settled at fy\'s price', { timeout: 120_000 }, async () => {
    const { multi } = (await a.call(API.works.videoChannel, {})).data;
    expect(multi).toEqual({ api: 'fy', name: '深度训练', credits: FY_PRICE, local: false, tip: MSG.multiSceneLipSync('深度训练', false) });
    const seconds = (await probe(speech, 'mp3')).duration;
    const [before, filesBefore] = [await credits(a), await files()];
    const scene = { type: 'audio', file_id: audioId, video_id: avatarId };
    const reply = await a.call(API.works.multi, { name: '多场景', content: JSON.stringify([scene, scene]) });
    expect(reply.code, reply.msg).toBe(0);
    expect(before - (await credits(a))).toBe(multiSceneCredits(2 * seconds, FY_PRICE));
    const work = await finished(a, reply.data.id);
    expect(work).toMatchObject({ status: 3, api_key: 'fy', api_name: '多场景 · 深度训练' });
    // One submission per scene, one after the other, each with the scene's speech and its avatar's video.
    const sent = submissionsOf(reply.data.id);
    expect(sent.map((s) => [s.body.code, s.code])).toEqual([[`w${reply.data.id}-1`, 10000], [`w${reply.data.id}-2`, 10000]]);
    expect(Math.abs((await playable(t.url, work.url)).duration - 2 * seconds)).toBeLessThan(0.3);
    expect(before - (await credits(a))).toBe(Math.min(Math.ceil(work.duration * FY_PRICE), multiSceneCredits(2 * seconds, FY_PRICE)));
    // The first scene's result, kept while the second rendered, went with the task: only the work's video is new.
    expect(await tasksLeft()).toBe(0);
    expect(await files()).toBe(filesBefore + 1);
  });

  it('a multi-scene work whose second scene fails there: failed with the engine\'s reason, refunded, the first scene\'s result deleted', { timeout: 120_000 }, async () => {
    const [before, filesBefore] = [await credits(a), await files()];
    // The first scene runs a few polls: long enough to arrange that the engine fails the next submission.
    peer.progressSteps = 4;
    const scene = { type: 'audio', file_id: audioId, video_id: avatarId };
    const reply = await a.call(API.works.multi, { name: '第二场失败', content: JSON.stringify([scene, scene]) });
    expect(reply.code, reply.msg).toBe(0);
    await until(async () => submissionsOf(reply.data.id).length, (n) => n === 1, 30_000, 20);
    peer.failWith = 'CUDA out of memory';
    const work = await finished(a, reply.data.id);
    expect(work).toMatchObject({ status: 4, reason: `${HEYGEM_MSG.failed}，积分已退回` });
    expect(submissionsOf(reply.data.id)).toHaveLength(2);
    expect(await credits(a)).toBe(before);
    expect(await tasksLeft()).toBe(0);
    expect(await files()).toBe(filesBefore);
  });
});

describe.each(DB_KINDS)('a server killed with -9 while its work runs on the HeyGem engine (%s)', (kind) => {
  const servers: RunningServer[] = [];
  let peer: HeyGemPeer;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    peer = await startHeyGemPeer();
    if (kind === 'postgres') database = await createDatabase(inject('postgresUrl'));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await peer?.close();
    await database?.drop();
  });

  it('picks the work up after a restart: it completes once, submitted once, charged once', { timeout: 240_000 }, async () => {
    // Polls of 1 s: the six the peer answers "running" leave the test time to kill the server mid-job.
    const env = { JOB_POLL_SECONDS: '0.5', WORKER_HEARTBEAT_SECONDS: '2', JOB_RETRY_DELAY_SECONDS: '0', LIPSYNC_POLL_SECONDS: '1', ...(database ? { DATABASE_URL: database.url } : {}) };
    // The account and its ready avatar, arranged before the processes start (cloning is tested elsewhere).
    const { dataDir, arranged: avatarId } = await preparedData(kind, database?.url, async (t) => readyAvatar(t, await t.createUser('15900000009', 'abc123', 1000), avatarVideo));
    const first = await startServer({ dataDir, env, webRoot: '/nonexistent' });
    servers.push(first);
    // The operator's command, with the engine's result folder mounted here.
    const set = await first.admin('channel', 'set', 'fy', '--kind', 'video', '--engine', 'heygem', '--base-url', peer.url, '--result-dir', peer.resultDir, '--enabled', 'true');
    expect(set).toContain('engine heygem');
    const login = await new ApiTestClient(first.url).call(API.account.login, { username: '15900000009', password: 'abc123' });
    const client = new ApiTestClient(first.url, login.data.token);
    const audio = await uploadFile(client, 'voice', speech);
    const credits0 = await credits(client);
    const reserve = Math.ceil((await probe(speech, 'mp3')).duration * FY_PRICE);

    peer.progressSteps = 6;
    const work = await client.call(API.works.create, { name: '不怕重启', api: 'fy', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' });
    expect(work.code).toBe(0);
    await until(async () => peer.submissions.length, (n) => n === 1, 30_000, 50);
    // The engine has fetched its inputs (our old port is gone after the restart) and works on; we die mid-poll.
    await peer.settled();
    expect((await workOf(client, work.data.id)).status).toBe(2);
    await first.stop('SIGKILL');

    const second = await startServer({ dataDir: first.dataDir, env, webRoot: '/nonexistent' });
    servers.push(second);
    const again = new ApiTestClient(second.url, login.data.token);
    const done = await finished(again, work.data.id, 120_000);
    expect(done).toMatchObject({ status: 3, api_key: 'fy' });
    expect((await playable(second.url, done.url)).video?.codec).toBe('h264');
    expect(peer.submissions.map((s) => [s.body.code, s.code])).toEqual([[`w${work.data.id}-1`, 10000]]);
    expect(await negatives(again)).toBe(1);
    expect(credits0 - (await credits(again))).toBe(Math.min(Math.ceil(done.duration * FY_PRICE), reserve));
  });
});
