import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../src/contract';
import { ApiTestClient } from '../../../tests/support/app';
import { makeSpeech, mediaDir } from '../../../tests/support/media';
import { startServer, type RunningServer } from '../../../tests/support/server';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { startFishAudioPeer, type FishAudioPeer } from '../../../tests/support/peers/fish-audio-peer';

const FAST_RECOVERY = { JOB_POLL_SECONDS: '0.5', WORKER_HEARTBEAT_SECONDS: '2', JOB_RETRY_DELAY_SECONDS: '0' };

describe('a worker killed in the middle of a voice training and of an audition', () => {
  const servers: RunningServer[] = [];
  let fish: FishAudioPeer;
  beforeAll(async () => {
    fish = await startFishAudioPeer();
  });
  afterAll(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    await fish.close();
  });

  it('both are retried after a restart and finish; the clone is charged once', { timeout: 240_000 }, async () => {
    const sample = await makeSpeech(path.join(mediaDir(), 'sample.mp3'), '大家好，欢迎收看今天的节目，我们来聊一聊声音克隆。');
    const first = await startServer({ env: FAST_RECOVERY, webRoot: '/nonexistent' });
    servers.push(first);
    await first.admin('user', 'create', '--username', '15800000011', '--password', 'abc123', '--credits', '1000');
    await first.admin('channel', 'set', 'fish', '--enabled', 'true', '--base-url', fish.url, '--api-key', fish.apiKey, '--free-times', '0', '--credits', '100');
    const login = await new ApiTestClient(first.url).call(API.account.login, { username: '15800000011', password: 'abc123' });
    const client = new ApiTestClient(first.url, login.data.token);

    // Training: the provider keeps answering "training" while the server dies.
    fish.trainingPolls = 3;
    const upload = await uploadFile(client, 'voice', sample);
    const voice = await client.call(API.voices.create, { name: '重启也不丢', file_id: upload.data.file_id, api: 'fish' });
    expect(voice.code).toBe(0);
    await until(async () => fish.models.size, (n) => n === 1, 30_000, 100);
    expect((await client.call(API.account.credits, {})).data.credits).toBe(900);
    await first.stop('SIGKILL');

    const second = await startServer({ dataDir: first.dataDir, env: FAST_RECOVERY, webRoot: '/nonexistent' });
    servers.push(second);
    const again = new ApiTestClient(second.url, login.data.token);
    const trained = await until(() => again.call(API.voices.list, { source: 1, page: 1, limit: 10 }), (r) => r.data.list[0]?.generate_status === 2, 90_000, 500);
    expect(trained.data.list[0]).toMatchObject({ id: voice.data.id, generate_status: 2 });
    expect(fish.models.size).toBe(1);
    expect((await again.call(API.account.credits, {})).data.credits).toBe(900);

    // Audition: the provider's TTS is slow, and the server dies while it waits.
    fish.delayMs = 3000;
    const job = await again.call(API.voices.audition, { voice_id: voice.data.id, text: '服务重启后，试听会重新合成。' });
    expect(job.code).toBe(0);
    await until(async () => fish.requests.filter((r) => r.path === '/v1/tts').length, (n) => n >= 1, 30_000, 100);
    await second.stop('SIGKILL');
    fish.delayMs = 0;

    const third = await startServer({ dataDir: first.dataDir, env: FAST_RECOVERY, webRoot: '/nonexistent' });
    servers.push(third);
    const last = new ApiTestClient(third.url, login.data.token);
    const heard = await until(() => last.call(API.voices.auditionPoll, { job_id: job.data.job_id }), (r) => r.data?.status === 3, 90_000, 500);
    expect(heard.data).toMatchObject({ status: 3 });
    expect((await fetch(`${third.url}${heard.data.url}`)).status).toBe(200);
    const log = (await last.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string; credits: number }[];
    expect(log.filter((l) => l.action_name.includes('声音克隆'))).toEqual([expect.objectContaining({ credits: -100 })]);
  });
});
