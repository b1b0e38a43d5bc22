import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API } from '../../../src/contract';
import { ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeVideo, mediaDir } from '../../../tests/support/media';
import { startServer, type RunningServer } from '../../../tests/support/server';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';

const FAST_RECOVERY = { JOB_POLL_SECONDS: '0.5', WORKER_HEARTBEAT_SECONDS: '2', JOB_RETRY_DELAY_SECONDS: '0' };
/** The speech's length: its render (the sound encoded again) runs for seconds, so the kill lands in the middle of it. */
const LONG_SECONDS = 120;


describe('a worker killed in the middle of a render', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
  });

  it('is retried after a restart, completes, charges once and leaves no temporary file', { timeout: 240_000 }, async () => {
    const dir = mediaDir();
    const video = makeVideo(path.join(dir, 'a.mp4'), { width: 640, height: 360, seconds: 6 });
    // Long enough that the render is still running when the process is killed.
    const speech = makeAudio(path.join(dir, 'long.mp3'), { seconds: LONG_SECONDS });

    const first = await startServer({ env: FAST_RECOVERY, webRoot: '/nonexistent' });
    servers.push(first);
    await first.admin('user', 'create', '--username', '15800000001', '--password', 'abc123', '--credits', '5000');
    const login = await new ApiTestClient(first.url).call(API.account.login, { username: '15800000001', password: 'abc123' });
    const client = new ApiTestClient(first.url, login.data.token);
    const avatar = await client.call(API.avatars.clone, { name: '主播', file_id: (await uploadFile(client, 'video', video)).data.file_id });
    await until(() => client.call(API.avatars.list, { source: 1, page: 1, limit: 10 }), (r) => r.data.list[0]?.status === 3, 180_000, 250);
    const audio = await uploadFile(client, 'voice', speech);
    expect(audio.code).toBe(0);
    const credits0 = (await client.call(API.account.credits, {})).data.credits;
    const work = await client.call(API.works.create, { name: '长视频', api: 'local', video_id: avatar.data.id, voice_id: audio.data.file_id, drive: 'audio' });
    expect(work.code, work.msg).toBe(0);
    const reserved = credits0 - (await client.call(API.account.credits, {})).data.credits;
    expect(reserved).toBeGreaterThan(LONG_SECONDS - 10);

    const rendering = await until(() => client.call(API.works.list, { page: 1, limit: 10 }), (r) => r.data.list[0]?.status === 2, 30_000, 20);
    expect(rendering.data.list[0].status).toBe(2);
    const killedPid = first.process.pid!;
    await first.stop('SIGKILL');
    expect(fs.existsSync(path.join(first.dataDir, 'tmp', String(killedPid)))).toBe(true);

    const second = await startServer({ dataDir: first.dataDir, env: FAST_RECOVERY, webRoot: '/nonexistent' });
    servers.push(second);
    const again = new ApiTestClient(second.url, login.data.token);
    const done = await until(() => again.call(API.works.list, { page: 1, limit: 10 }), (r) => r.data.list[0]?.status === 3, 90_000, 500);
    expect(done.data.list[0]).toMatchObject({ status: 3 });
    expect(done.data.list[0].duration).toBeGreaterThan(LONG_SECONDS - 1);

    const log = (await again.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string; credits: number }[];
    expect(log.filter((l) => l.credits < 0)).toHaveLength(1);
    const spentNet = credits0 - (await again.call(API.account.credits, {})).data.credits;
    expect(spentNet).toBe(Math.ceil(done.data.list[0].duration) <= reserved ? Math.ceil(done.data.list[0].duration) : reserved);
    expect(fs.existsSync(path.join(first.dataDir, 'tmp', String(killedPid)))).toBe(false);
    const partials = fs.readdirSync(path.join(first.dataDir, 'objects'), { recursive: true }).filter((f) => String(f).endsWith('.part'));
    expect(partials).toEqual([]);
  });
});
