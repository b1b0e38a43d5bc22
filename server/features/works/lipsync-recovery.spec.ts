/**
 * kill -9 of the process rendering a work on the offline lip-sync channel, in the middle of its frames: after a
 * restart the job is picked up again and the work completes exactly once, charged exactly once. On PGlite the one
 * process (role all) dies and comes back; on PostgreSQL the API keeps serving while its worker process is killed and
 * a new worker starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API } from '../../../src/contract';
import { ApiTestClient, DB_KINDS, preparedData } from '../../../tests/support/app';
import { makeFaceVideo } from '../../../tests/support/face-media';
import { makeSpeech, mediaDir } from '../../../tests/support/media';
import { createDatabase } from '../../../tests/support/postgres';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { startServer, type RunningServer } from '../../../tests/support/server';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';
import { jobTempRoot } from '../../infra/work-dirs';

/**
 * Workers beat every 2 s here (not 10): the killed worker is taken for dead after 9 s of silence and its render is
 * retried at once, instead of after the render's whole allowance (60 s + 3 × its media time).
 */
const RECOVERY = { WORKER_HEARTBEAT_SECONDS: '2', JOB_RETRY_DELAY_SECONDS: '0', JOB_POLL_SECONDS: '0.5' };
/** Channel lip's seeded price, credits per second. */
const LIP_PRICE = 2;
/** Bytes of the work's mp4 in the render's scratch folder that prove the frames are flowing. */
const MID_RENDER_BYTES = 150_000;

const dir = mediaDir();

/** Stored mp4s as long as `seconds` (the avatar's own videos are shorter; a clone job that outlived its expiry may store them twice). */
async function storedVideosOf(dataDir: string, seconds: number): Promise<number> {
  const root = path.join(dataDir, 'objects');
  const videos = fs.readdirSync(root, { recursive: true }).map(String).filter((f) => f.endsWith('.mp4'));
  const lengths = await Promise.all(videos.map(async (f) => (await probe(path.join(root, f), 'mp4')).duration));
  return lengths.filter((d) => Math.abs(d - seconds) < 0.5).length;
}

/** The work mp4s under the render scratch folders of process `pid`, with their sizes. */
function renderingOutputs(dataDir: string, pid: number): number[] {
  const mine = path.join(jobTempRoot(dataDir), String(pid));
  if (!fs.existsSync(mine)) return [];
  return fs.readdirSync(mine).map((job) => path.join(mine, job, 'work.mp4')).filter((f) => fs.existsSync(f)).map((f) => fs.statSync(f).size);
}

describe.each(DB_KINDS)('a lip-sync render whose worker is killed with -9 mid-render (%s)', (kind) => {
  const servers: RunningServer[] = [];
  let database: { url: string; drop(): Promise<void> } | undefined;
  let speech: string;
  beforeAll(async () => {
    if (kind === 'postgres') database = await createDatabase(inject('postgresUrl'));
    // Long enough that the frames are still flowing when the worker dies, on a machine shared with others.
    speech = await makeSpeech(path.join(dir, `speech-${kind}.mp3`), '大家好，欢迎来到我的直播间。今天给大家带来一款新品，性价比非常高。'.repeat(3));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await database?.drop();
  });

  it('is picked up after the restart: completes once, charged once, nothing left behind', { timeout: 600_000 }, async () => {
    const env = { ...RECOVERY, ...(database ? { DATABASE_URL: database.url } : {}) };
    const start = async (role: 'api' | 'worker' | 'all', dataDir?: string) => {
      const server = await startServer({ env: { ...env, ROLE: role }, webRoot: '/nonexistent', ...(dataDir ? { dataDir } : {}) });
      servers.push(server);
      return server;
    };
    // The account and its ready avatar of a real face, arranged before the processes start (cloning is tested elsewhere).
    const video = makeFaceVideo(path.join(dir, 'face.mp4'), { width: 480, height: 640, seconds: 6 });
    const { dataDir, arranged: avatarId } = await preparedData(kind, database?.url, async (t) => readyAvatar(t, await t.createUser('15800000011', 'abc123', 5000), video, '真人'));
    const api = await start(database ? 'api' : 'all', dataDir);
    let worker = database ? await start('worker', api.dataDir) : api;
    const login = await new ApiTestClient(api.url).call(API.account.login, { username: '15800000011', password: 'abc123' });
    let client = new ApiTestClient(api.url, login.data.token);
    const audio = await uploadFile(client, 'voice', speech);
    const audioSeconds = (await probe(speech, 'mp3')).duration;
    expect(audioSeconds).toBeGreaterThan(15);
    const credits0 = (await client.call(API.account.credits, {})).data.credits as number;
    const work = await client.call(API.works.create, { name: '口型不怕重启', api: 'lip', video_id: avatarId, voice_id: audio.data.file_id, drive: 'audio' });
    expect(work.code, work.msg).toBe(0);
    const reserved = credits0 - ((await client.call(API.account.credits, {})).data.credits as number);
    expect(reserved).toBe(Math.ceil(audioSeconds * LIP_PRICE));

    // The worker is writing the lip-synced frames (its scratch mp4 grows), and dies.
    const killedPid = worker.process.pid!;
    await until(async () => renderingOutputs(worker.dataDir, killedPid), (sizes) => sizes.some((s) => s > MID_RENDER_BYTES), 180_000, 50);
    expect((await client.call(API.works.list, { page: 1, limit: 10 })).data.list[0].status).toBe(2);
    await worker.stop('SIGKILL');
    const killedAt = Date.now();

    worker = await start(database ? 'worker' : 'all', api.dataDir);
    if (!database) client = new ApiTestClient(worker.url, login.data.token);
    const done = await until(() => client.call(API.works.list, { page: 1, limit: 10 }), (r) => [3, 4].includes(r.data.list[0]?.status), 400_000, 500);
    // The dead worker stops beating; its render is retried long before the render's allowance runs out.
    const waited = (Date.now() - killedAt) / 1000;
    console.log(`${kind}: the work was done ${waited.toFixed(0)} s after the kill (allowance ${60 + Math.ceil(3 * audioSeconds)} s)`);
    const finished = done.data.list;
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ status: 3, api_key: 'lip' });
    expect(finished[0].reason ?? '').toBe('');
    expect(Math.abs(finished[0].duration - audioSeconds)).toBeLessThan(0.1);

    // Charged once: one spend in the log, and exactly the work's price (never above what was reserved).
    const log = (await client.call(API.credits.log, { page: 1, limit: 50 })).data.list as { credits: number }[];
    expect(log.filter((l) => l.credits < 0)).toHaveLength(1);
    expect(credits0 - ((await client.call(API.account.credits, {})).data.credits as number)).toBe(Math.min(Math.ceil(finished[0].duration * LIP_PRICE), reserved));

    // Completed once: one stored video of the work's length, no partial upload, the dead worker's scratch gone.
    expect(await storedVideosOf(api.dataDir, audioSeconds)).toBe(1);
    const objects = fs.readdirSync(path.join(api.dataDir, 'objects'), { recursive: true }).map(String);
    expect(objects.filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(fs.existsSync(path.join(jobTempRoot(api.dataDir), String(killedPid)))).toBe(false);
    const played = path.join(dir, `played-${kind}.mp4`);
    fs.writeFileSync(played, Buffer.from(await (await fetch(`${(database ? api : worker).url}${finished[0].url}`)).arrayBuffer()));
    expect(Math.abs((await probe(played, 'mp4')).duration - audioSeconds)).toBeLessThan(0.1);
  });
});
