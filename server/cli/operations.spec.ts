/**
 * What operators see of a running server, through the real CLI entry (`npm run admin -- …` against its data
 * directory) and real HTTP: accounts, public voices and avatars with their states and reasons, the job queue,
 * publish --wait, health (live / ready) and the Prometheus metrics.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CLONING_SERVER_MSG, METRICS_PATH, MSG, OPERATOR_KEY_HEADER } from '../../src/contract';
import { ApiTestClient } from '../../tests/support/app';
import { makeAudio, makeVideo, mediaDir } from '../../tests/support/media';
import { runAdmin, startServer, type RunningServer } from '../../tests/support/server';
import { operatorKey } from '../infra/data-dir';

describe('operators see what happens (CLI and HTTP against a running server)', () => {
  let server: RunningServer;
  let key: string;
  const operator = async (call: { path: string; method: string }, body: unknown) => {
    const res = await fetch(`${server.url}${call.path}`, { method: call.method, headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key }, body: JSON.stringify(body) });
    return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
  };
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as { code: number; msg: string; data: Record<string, unknown> } });

  beforeAll(async () => {
    server = await startServer({ webRoot: '/nonexistent', env: { JOB_POLL_SECONDS: '0.5', JOB_STOP_SECONDS: '1' } });
    key = operatorKey(server.dataDir);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('user list and user show: credits, space and live sessions', async () => {
    expect((await operator(API.admin.userCreate, { username: '13900000001', password: 'abc123', credits: 500 })).code).toBe(0);
    expect((await operator(API.admin.userCreate, { username: '13900000002', password: 'abc123' })).code).toBe(0);
    expect((await new ApiTestClient(server.url).call(API.account.login, { username: '13900000001', password: 'abc123' })).code).toBe(0);

    const list = (await server.admin('user', 'list')).split('\n');
    expect(list[0]).toMatch(/^id\s+username\s+credits\s+space\s+sessions\s+created$/);
    expect(list.find((l) => l.includes('13900000001'))).toMatch(/13900000001\s+500\s+0 MB \/ 1 GB\s+1\s+\d{4}-\d\d-\d\d/);
    expect(list.find((l) => l.includes('13900000002'))).toMatch(/13900000002\s+0\s+0 MB \/ 1 GB\s+0\s/);
    expect(list.at(-1)).toBe('2 of 2 accounts');

    const show = await server.admin('user', 'show', '13900000001');
    expect(show).toContain('credits: 500 left (granted 500, spent 0, refunded 0)');
    expect(show).toMatch(/\n\s+500\s+500\s+operator\s+\d{4}-\d\d-\d\d/);
    expect(show).toContain('space: 0 MB used of 1 GB');
    expect(show).toMatch(/sessions: 1 live\n\s+since\s+until\s+ip\n\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+127\.0\.0\.1/);
  });

  it('voice publish --wait exits non-zero with the reason when training fails; voice list --public shows it', async () => {
    const share = fs.mkdtempSync(path.join(mediaDir(), 'share-'));
    expect((await operator(API.admin.channelSet, { api: 'kyy', base_url: 'http://127.0.0.1:9', share_dir: share, enabled: 'true' })).code).toBe(0);
    // Under 3 s of sound: GPT-SoVITS cannot take it as a reference, a permanent failure of the sample.
    const short = makeAudio(path.join(mediaDir(), 'short.mp3'), { seconds: 2 });
    const failed = server.admin('voice', 'publish', short, '--name', '太短', '--channel', 'kyy', '--wait');
    await expect(failed).rejects.toThrow(new RegExp(`failed \\(1\\).*public voice \\d+ \\(太短\\) failed: ${CLONING_SERVER_MSG.referenceTooShort}`, 's'));

    const voices = (await server.admin('voice', 'list', '--public')).split('\n');
    expect(voices[0]).toMatch(/^id\s+name\s+state\s+channel\s+created\s+reason$/);
    expect(voices.find((l) => l.includes('太短'))).toMatch(new RegExp(`太短\\s+failed\\s+kyy\\s+.*${CLONING_SERVER_MSG.referenceTooShort}$`));
    // Logged once at warn with the job's name, id and reason.
    const warned = server.output().split('\n').filter((l) => l.includes('"msg":"job failed"') && l.includes('"job":"voices-train"'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/"id":"[0-9a-f-]{36}"/);
    expect(warned[0]).toContain(`"reason":"${CLONING_SERVER_MSG.referenceTooShort}"`);
  });

  it('jobs: counts by name and state, and the latest failure with its reason', async () => {
    const out = await server.admin('jobs');
    const [counts, failures] = out.split('\n\n');
    expect(counts!.split('\n')[0]).toMatch(/^job\s+.*completed/);
    expect(counts).toMatch(/voices-train\s+/);
    expect(failures).toMatch(new RegExp(`latest failures:\\n.*\\n.*voices-train\\s+[0-9a-f-]{36}\\s+failed\\s+0\\s+${CLONING_SERVER_MSG.referenceTooShort}`));
  });

  it('health: /api/health as before, live, and ready (503 while the storage is gone)', async () => {
    expect(await json(await fetch(`${server.url}${API.site.health.path}`))).toMatchObject({ status: 200, body: { code: 0, data: { status: 'ok', database: 'pglite' } } });
    expect(await json(await fetch(`${server.url}${API.site.healthLive.path}`))).toMatchObject({ status: 200, body: { code: 0, data: { status: 'live', role: 'all' } } });
    expect(await json(await fetch(`${server.url}${API.site.healthReady.path}`))).toMatchObject({
      status: 200, body: { code: 0, data: { status: 'ready', database: { kind: 'pglite', ok: true }, storage: { ok: true }, shutting_down: false } },
    });
    const objects = path.join(server.dataDir, 'objects');
    fs.renameSync(objects, `${objects}.away`);
    try {
      const res = await json(await fetch(`${server.url}${API.site.healthReady.path}`));
      expect(res).toMatchObject({ status: 503, body: { code: 1, msg: MSG.serviceNotReady, data: { status: 'not ready', database: { ok: true }, storage: { ok: false } } } });
      expect(res.body.data.storage).toHaveProperty('error');
    } finally {
      fs.renameSync(`${objects}.away`, objects);
    }
    expect((await fetch(`${server.url}${API.site.healthReady.path}`)).status).toBe(200);
  });

  it('metrics in Prometheus format behind the operator key: requests by call and code, jobs, job seconds, ledger totals', async () => {
    expect((await fetch(`${server.url}${METRICS_PATH}`)).status).toBe(401);
    expect((await fetch(`${server.url}${METRICS_PATH}`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    await new ApiTestClient(server.url).call(API.site.site, {});
    await new ApiTestClient(server.url, 'no-such-token').call(API.account.profile, {});
    const res = await fetch(`${server.url}${METRICS_PATH}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^aisa_http_requests_total\{call="site\.info",code="0"\} [1-9]\d*$/m);
    expect(text).toMatch(/^aisa_http_requests_total\{call="account\.profile",code="100"\} 1$/m);
    expect(text).toMatch(/^aisa_http_requests_total\{call="site\.healthReady",code="1"\} 1$/m);
    expect(text).toMatch(/^aisa_jobs\{name="voices-train",state="completed"\} 1$/m);
    expect(text).toMatch(/^aisa_job_run_seconds_count\{name="voices-train",outcome="done"\} 1$/m);
    expect(text).toMatch(/^aisa_credits_ledger_total\{kind="granted"\} 500$/m);
    expect(text).toMatch(/^aisa_credits_ledger_total\{kind="spent"\} 0$/m);
    expect(text).toMatch(/^aisa_process_resident_memory_bytes \d+/m);
    // The operator-key header works too (curl by hand).
    expect((await fetch(`${server.url}${METRICS_PATH}`, { headers: { [OPERATOR_KEY_HEADER]: key } })).status).toBe(200);
  });

  it('avatar publish --wait blocks while the avatar is prepared (exits non-zero past --timeout); avatar list --public shows its state', async () => {
    // 30 s of video: its face analysis takes far longer than the timeout and than the next command, even on a quiet
    // machine (a 5 s clip could finish first), so the clone is still running at shutdown (the next test).
    const video = makeVideo(path.join(mediaDir(), 'a.mp4'), { seconds: 30 });
    await expect(server.admin('avatar', 'publish', video, '--name', '主播', '--wait', '--timeout', '1')).rejects.toThrow(/public avatar \d+ is still cloning after 1 s/);
    const avatars = (await server.admin('avatar', 'list', '--public')).split('\n');
    expect(avatars[0]).toMatch(/^id\s+name\s+state\s+face\s+created\s+reason$/);
    expect(avatars.find((l) => l.includes('主播'))).toMatch(/主播\s+cloning\s+-\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+-$/);
  });

  it('SIGTERM hands the unfinished clone back to the queue, unstarted and without spending an attempt', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toMatch(/"msg":"shutdown: running jobs handed back to the queue"/);
    expect(server.output()).toMatch(/"jobs":\["avatars-clone [0-9a-f-]{36}"\],"released":1/);
    // With no server running, the CLI opens the data directory itself.
    const counts = (await runAdmin(server.dataDir, ['jobs', '--failures', '0'])).split('\n');
    const states = counts[0]!.split(/\s+/);
    const clone = counts.find((l) => l.startsWith('avatars-clone'))!.split(/\s+/);
    expect(clone[states.indexOf('created')]).toBe('1');
    expect(states).not.toContain('active');
  });
});
