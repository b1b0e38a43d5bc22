import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApi } from 'swagger-typescript-api';
import { API, DubbingStatus, LIMITS, MSG, OPEN_BASE, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, parseSrt } from '../../../src/contract';
import { probe } from '../../infra/media-probe';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { makeAudio, makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { creditsOf, downloadTo, publishPublicVoice } from '../../../tests/support/voices';
import { until } from '../../../tests/support/wait';
import { webhookSignature, webhookUrlRefused } from './openapi.service';
import { OpenApiRepository } from './openapi.repository';

const dir = mediaDir();
/**
 * How often a test polls a record with a key: a key may make LIMITS.openApi.requestsPerMinute requests a minute, so a
 * job that takes long on a loaded machine would otherwise be polled into 操作过于频繁 (a refusal, not the record).
 */
const KEY_POLL_MS = Math.ceil(60_000 / LIMITS.openApi.requestsPerMinute) + 100;

/** A webhook receiver on loopback: answers 500 to the first delivery (to see the retry), 200 after. */
function receiver() {
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = got.length === 1 ? 500 : 200;
      res.end();
    });
  });
  return { got, server, listen: () => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port))) };
}

describe.each(DB_KINDS)('public API (%s)', (kind) => {
  const t = useApp(kind, { openApi: { webhookLoopback: true, watchSeconds: 1, webhookRetrySeconds: 1 } });
  const hook = receiver();
  const [a] = useUsers(t, ['15900000001'], 5000);
  const [b] = useUsers(t, ['15900000002'], 100);
  let keyA: { id: number; key: string; webhook_secret: string };
  let keyB: string;
  let avatarId: number;
  let voiceId: number;

  /** A plain REST request, as curl would send it. */
  const open = async (method: string, p: string, key: string | undefined, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}${OPEN_BASE}${p}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const newKey = async (c: ApiTestClient, name = '集成') => {
    const r = await c.call(API.openapi.keyCreate, { name });
    expect(r).toMatchObject({ code: 0, msg: MSG.apiKeyCreated });
    return r.data as { id: number; key: string; webhook_secret: string };
  };

  beforeAll(async () => {
    keyA = await newKey(a);
    keyB = (await newKey(b)).key;
    avatarId = await readyAvatar(t, a, makeVideo(path.join(dir, 'open.mp4'), { width: 640, height: 360, seconds: 3 }));
    const sample = await makeSpeech(path.join(dir, 'open-voice.mp3'), '大家好，我是今天的主持人，欢迎收看我们的节目。');
    voiceId = await publishPublicVoice(t, a, sample);
  }, 240_000);
  afterAll(() => new Promise<void>((r) => hook.server.close(() => r())));

  it('shows a key once: the list keeps its first characters only; a user holds at most 10; guests none', async () => {
    expect(keyA.key).toMatch(/^aisa_[A-Za-z0-9_-]{32}$/);
    const { list } = (await a.call(API.openapi.keyList, {})).data;
    expect(list).toEqual([expect.objectContaining({ id: keyA.id, name: '集成', prefix: `${keyA.key.slice(0, 11)}…`, last_used_time: '', webhook_url: '' })]);
    expect(JSON.stringify(list)).not.toContain(keyA.key.slice(11));
    expect(await a.call(API.openapi.keyCreate, { name: ' ' })).toMatchObject({ code: 1, msg: MSG.apiKeyNameRequired });
    const c = await t.user('15900000003');
    for (let i = 0; i < LIMITS.openApi.maxKeys; i++) await newKey(c, `k${i}`);
    expect(await c.call(API.openapi.keyCreate, { name: '第十一个' })).toMatchObject({ code: 1, msg: MSG.apiKeyLimit(LIMITS.openApi.maxKeys) });
    await t.operator(API.admin.siteSet, { settings: { guest_credits: '10' } });
    const guest = t.client((await t.client().call(API.credits.tourist, {})).data.token);
    expect(await guest.call(API.openapi.keyCreate, { name: '游客' })).toMatchObject({ code: 1, msg: MSG.apiKeyGuest });
  });

  it('answers 401 without a key, with a wrong one and with a revoked one; only the owner revokes', async () => {
    expect(await open('GET', '/me', undefined)).toMatchObject({ status: 401, body: { code: 1, msg: MSG.apiKeyInvalid } });
    expect(await open('GET', '/me', 'aisa_not-a-key')).toMatchObject({ status: 401, body: { code: 1, msg: MSG.apiKeyInvalid } });
    const spare = await newKey(a, '临时');
    expect((await open('GET', '/me', spare.key)).body).toMatchObject({ username: '15900000001', credits: 5000, space: { total_format: expect.any(String) } });
    expect(await b.call(API.openapi.keyRemove, { id: spare.id })).toMatchObject({ code: 1, msg: MSG.apiKeyMissing });
    expect(await a.call(API.openapi.keyRemove, { id: spare.id })).toMatchObject({ code: 0, msg: MSG.apiKeyRevoked });
    expect(await open('GET', '/me', spare.key)).toMatchObject({ status: 401, body: { msg: MSG.apiKeyInvalid } });
    expect((await a.call(API.openapi.keyList, {})).data.list.map((k: { id: number }) => k.id)).toEqual([keyA.id]);
  });

  it('takes a callback URL only at a public https address (loopback only under the setting, off by default)', async () => {
    for (const url of ['http://example.com/hook', 'https://10.0.0.8/hook', 'https://169.254.169.254/', 'ftp://example.com/']) {
      expect(await a.call(API.openapi.webhookSet, { id: keyA.id, url })).toMatchObject({ code: 1, msg: MSG.webhookUrlInvalid });
    }
    const defaults = { ...t.app.ctx.config, openApi: undefined };
    expect(webhookUrlRefused('http://127.0.0.1:9000/hook', defaults)).toBe(true);
    expect(webhookUrlRefused('https://127.0.0.1:9000/hook', defaults)).toBe(true);
    expect(webhookUrlRefused('https://hooks.example.com/aisa', defaults)).toBe(false);
    expect(await b.call(API.openapi.webhookSet, { id: keyA.id, url: 'https://hooks.example.com/x' })).toMatchObject({ code: 1, msg: MSG.apiKeyMissing });
    expect(await b.call(API.openapi.deliveries, { id: keyA.id })).toMatchObject({ code: 1, msg: MSG.apiKeyMissing });
  });

  it('refuses bad input in Chinese with 400, another user\'s work with 404, and never answers a stack', async () => {
    expect(await open('POST', '/works', keyA.key, { name: '缺分身', channel: 'local' })).toMatchObject({ status: 400, body: { code: 1, msg: expect.stringContaining('avatar_id') } });
    expect(await open('POST', '/works', keyA.key, { name: '缺声音', channel: 'local', avatar_id: avatarId, text: '你好' })).toMatchObject({ status: 400, body: { code: 1, msg: MSG.voiceRequired } });
    // Another user's avatar is none of theirs, as the browser's call answers it.
    expect(await open('POST', '/works', keyB, { name: '别人的分身', channel: 'local', avatar_id: avatarId, voice_id: voiceId, text: '你好' })).toMatchObject({ status: 400, body: { msg: MSG.avatarRequired } });
    const broken = await fetch(`${t.url}${OPEN_BASE}/works`, { method: 'POST', headers: { authorization: `Bearer ${keyA.key}`, 'content-type': 'application/json' }, body: '{"name":' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ code: 1, msg: MSG.badRequest });
    expect(await open('GET', '/works/abc', keyA.key)).toMatchObject({ status: 404, body: { msg: MSG.notFound } });
    expect(await open('GET', '/nothing', keyA.key)).toMatchObject({ status: 404, body: { msg: MSG.notFound } });
  });

  it('answers 402 when the credits do not cover a work, charging nothing; the key list says when a key was last used', async () => {
    const poor = await t.user('15900000004', 0);
    const key = await newKey(poor);
    const publicAvatar = await readyAvatar(t, null, makeVideo(path.join(dir, 'open.mp4'), { width: 640, height: 360, seconds: 3 }), '公共主播');
    const refused = await open('POST', '/works', key.key, { name: '没积分', channel: 'local', avatar_id: publicAvatar, voice_id: voiceId, text: '大家好。' }, { 'idempotency-key': 'poor-1' });
    expect(refused).toMatchObject({ status: 402, body: { code: 1, msg: MSG.insufficientCredits } });
    expect((await open('GET', '/works', key.key)).body).toEqual({ list: [], total: 0 });
    expect((await poor.call(API.openapi.keyList, {})).data.list[0].last_used_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('drives the whole flow with a client generated from openapi.json: upload, work, replayed idempotency key, webhook, download, delete', async () => {
    const doc = await open('GET', '/openapi.json', undefined);
    expect(doc.body.openapi).toBe('3.1.0');
    const out = fs.mkdtempSync(path.join(dir, 'client-'));
    fs.writeFileSync(path.join(out, 'openapi.json'), JSON.stringify(doc.body));
    await generateApi({ input: path.join(out, 'openapi.json'), output: out, fileName: 'client.ts', httpClientType: 'fetch', silent: true });
    const { Api } = (await import(path.join(out, 'client.ts'))) as { Api: new (c: object) => any };
    const client = new Api({ baseUrl: t.url, baseApiParams: { headers: { authorization: `Bearer ${keyA.key}` } } });

    const port = await hook.listen();
    expect(await a.call(API.openapi.webhookSet, { id: keyA.id, url: `http://127.0.0.1:${port}/hook` })).toMatchObject({ code: 0 });

    const me = (await client.open.me()).data;
    expect(me.credits).toBe(5000);
    expect((await client.open.avatars()).data.list.map((x: { id: number }) => x.id)).toContain(avatarId);
    expect((await client.open.voices()).data.list).toEqual([expect.objectContaining({ id: voiceId, source: 2, generate_status: 2 })]);

    const audio = makeAudio(path.join(dir, 'open-upload.mp3'), { seconds: 6 });
    const uploaded = (await client.open.upload({ file: new File([fs.readFileSync(audio)], 'open-upload.mp3', { type: 'audio/mpeg' }) }, { type: 'voice' })).data;
    expect(uploaded.file_id).toBeGreaterThan(0);
    const notAudio = await client.open.upload({ file: new File([Buffer.from('not audio at all')], 'x.mp3') }, { type: 'voice' }).catch((r: Response & { error: unknown }) => r);
    expect(notAudio.status).toBe(400);
    expect((notAudio.error as { msg: string }).msg).toBeTruthy();

    const submission = { name: '接口作品', avatar_id: avatarId, voice_id: voiceId, text: '大家好，欢迎来到直播间。', channel: 'local' };
    const headers = { headers: { 'idempotency-key': 'order-1' } };
    const created = await client.open.workCreate(submission, headers);
    expect(created.status).toBe(201);
    const id = created.data.id as number;
    const reserved = 5000 - (await creditsOf(a));
    expect(reserved).toBeGreaterThan(0);
    expect((await client.open.workCreate(submission, headers)).data).toEqual({ id });
    expect(5000 - (await creditsOf(a))).toBe(reserved);
    const reused = await client.open.workCreate({ ...submission, name: '另一个' }, headers).catch((r: Response & { error: unknown }) => r);
    expect(reused.status).toBe(409);
    expect(reused.error).toEqual({ code: 1, msg: MSG.idempotencyReused });
    // The hourly sweep forgets answers older than a day, and only those.
    await t.app.ctx.db.query("UPDATE api_idempotency SET created_at = now() - interval '2 days' WHERE idem_key = 'order-1'");
    await new OpenApiRepository(t.app.ctx.db).sweepIdempotent();
    expect((await t.app.ctx.db.query('SELECT idem_key FROM api_idempotency')).rows).toEqual([]);

    expect(await open('GET', `/works/${id}`, keyB)).toMatchObject({ status: 404, body: { msg: MSG.notFound } });
    expect(await open('DELETE', `/works/${id}`, keyB)).toMatchObject({ status: 404 });

    const done = await until(() => client.open.workGet(id).then((r: { data: any }) => r.data), (w: any) => w.status === 3 || w.status === 4, 180_000, KEY_POLL_MS);
    expect(done).toMatchObject({ id, status: 3, reason: '' });
    expect(done.duration).toBeGreaterThan(0);
    expect(done.credits).toBe(5000 - (await creditsOf(a)));
    const video = await fetch(`${t.url}${done.url}`);
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await client.open.workList({ page: 1, limit: 5 })).data).toMatchObject({ total: 1, list: [expect.objectContaining({ id, status: 3 })] });

    // The receiver refused the first delivery: the retry came, signed over the timestamp and the body.
    await until(async () => hook.got.length, (n) => n >= 2, 30_000);
    for (const got of hook.got) {
      const ts = Number(got.headers[WEBHOOK_TIMESTAMP_HEADER]);
      expect(got.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(webhookSignature(keyA.webhook_secret, ts, got.body));
      expect(JSON.parse(got.body)).toMatchObject({ event: 'work.done', data: { id, status: 3, url: done.url } });
    }
    const log = await until(() => a.call(API.openapi.deliveries, { id: keyA.id }), (r) => r.data.list[0]?.status === 2, 10_000);
    expect(log.data.list).toEqual([expect.objectContaining({ event: 'work.done', object_id: id, status: 2, attempts: 2, last_code: 200 })]);

    expect((await client.open.workDelete(id)).status).toBe(200);
    expect(await open('GET', `/works/${id}`, keyA.key)).toMatchObject({ status: 404 });
  }, 300_000);

  it('dubs through the same door: refusals in Chinese, one line spoken into an mp3 and its SRT, the webhook, another user\'s dub unseen, delete', async () => {
    const dub = (body: unknown, key = keyA.key, headers: Record<string, string> = {}) => open('POST', '/dubbings', key, body, headers);
    const doc = (await open('GET', '/openapi.json', undefined)).body;
    expect(Object.keys(doc.paths[`${OPEN_BASE}/dubbings`]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${OPEN_BASE}/dubbings/{id}`]).sort()).toEqual(['delete', 'get']);
    expect(doc.components.schemas.DubbingCreate.properties.lines.example[0]).toMatchObject({ voice_id: expect.any(Number), text: expect.any(String) });
    expect(await dub({ name: '空', lines: [] })).toMatchObject({ status: 400, body: { code: 1, msg: MSG.dubLinesEmpty } });
    expect(await dub({ name: '无声', lines: [{ text: '你好' }] })).toMatchObject({ status: 400, body: { code: 1, msg: expect.stringContaining('voice_id') } });
    expect(await dub({ name: '空句', lines: [{ voice_id: voiceId, text: ' ' }] })).toMatchObject({ status: 400, body: { code: 1, msg: MSG.dubLineEmpty(1) } });
    expect(await dub({ name: '文本', lines: '[]' })).toMatchObject({ status: 400, body: { code: 1, msg: expect.stringMatching(/[\u4e00-\u9fff]/) } });
    const refused = await dub({ name: '没有的声音', lines: [{ voice_id: 2 ** 31 - 1, text: '你好' }] });
    expect(refused).toMatchObject({ status: 400, body: { code: 1, msg: expect.stringMatching(/^第1句/) } });

    const line = '大家好，欢迎收听今天的节目。';
    const submission = { name: '接口配音', lines: [{ voice_id: voiceId, text: line, role: '旁白' }], gap: 0.3 };
    const created = await dub(submission, keyA.key, { 'idempotency-key': 'dub-1' });
    expect(created).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    const id = created.body.id as number;
    expect((await dub(submission, keyA.key, { 'idempotency-key': 'dub-1' })).body).toEqual({ id });
    expect((await open('GET', '/dubbings', keyA.key)).body.total).toBe(1);

    expect(await open('GET', `/dubbings/${id}`, keyB)).toMatchObject({ status: 404, body: { code: 1, msg: MSG.notFound } });
    expect(await open('DELETE', `/dubbings/${id}`, keyB)).toMatchObject({ status: 404, body: { code: 1, msg: MSG.notFound } });
    expect((await open('GET', '/dubbings', keyB)).body).toEqual({ list: [], total: 0 });

    const done = (await until(() => open('GET', `/dubbings/${id}`, keyA.key), (r) => r.body.status === DubbingStatus.Done || r.body.status === DubbingStatus.Failed, 120_000, KEY_POLL_MS)).body;
    expect(done).toMatchObject({ id, name: '接口配音', status: DubbingStatus.Done, reason: '', credits: 0 });
    const mp3 = await downloadTo(t, done.url, dir, 'mp3');
    const heard = await probe(mp3, 'mp3');
    expect(heard.audio?.codec).toBe('mp3');
    expect(Math.abs(heard.duration - done.duration)).toBeLessThan(0.2);
    const srt = parseSrt(await (await fetch(`${t.url}${done.srt}`)).text());
    expect(srt.map((c) => c.lines.join(''))).toEqual([line.replace(/。$/, '')]);
    expect((await open('GET', '/dubbings?page=1&limit=5', keyA.key)).body).toEqual({ total: 1, list: [done] });

    // Submitted under a key with a callback URL: its own event, signed the same way.
    const got = (await until(async () => hook.got.find((g) => JSON.parse(g.body).event === 'dubbing.done'), Boolean, 30_000))!;
    expect(got.headers[WEBHOOK_SIGNATURE_HEADER]).toBe(webhookSignature(keyA.webhook_secret, Number(got.headers[WEBHOOK_TIMESTAMP_HEADER]), got.body));
    expect(JSON.parse(got.body).data).toEqual(done);
    const log = await until(() => a.call(API.openapi.deliveries, { id: keyA.id }), (r) => r.data.list.some((d: { event: string; status: number }) => d.event === 'dubbing.done' && d.status === 2), 10_000);
    expect(log.data.list[0]).toMatchObject({ event: 'dubbing.done', object_id: id, attempts: 1, last_code: 200 });

    expect(await open('DELETE', `/dubbings/${id}`, keyA.key)).toMatchObject({ status: 200, body: {} });
    expect(await open('GET', `/dubbings/${id}`, keyA.key)).toMatchObject({ status: 404 });
    expect((await fetch(`${t.url}${done.url}`)).status).toBe(404);
  }, 180_000);

  it('limits each key to its requests a minute: RateLimit headers, then 429 with Retry-After', async () => {
    const burst = await newKey(b, '压测');
    const first = await open('GET', '/me', burst.key);
    expect(first.headers.get('ratelimit-limit')).toBe(String(LIMITS.openApi.requestsPerMinute));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMITS.openApi.requestsPerMinute - 1));
    for (let i = 1; i < LIMITS.openApi.requestsPerMinute; i++) expect((await open('GET', '/me', burst.key)).status).toBe(200);
    const over = await open('GET', '/me', burst.key);
    expect(over).toMatchObject({ status: 429, body: { code: 1, msg: MSG.tooManyRequests } });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another key of the same user has its own allowance.
    expect((await open('GET', '/me', keyB)).status).toBe(200);
    // Submissions have their own, smaller one (counted per attempt that reaches the works call).
    const works = await newKey(b, '提交');
    const attempt = () => open('POST', '/works', works.key, { name: '没有声音', channel: 'local', avatar_id: avatarId, text: '你好' });
    for (let i = 0; i < LIMITS.openApi.worksPerMinute; i++) expect((await attempt()).status).toBe(400);
    expect(await attempt()).toMatchObject({ status: 429, body: { msg: MSG.tooManyRequests } });
    // A dub is a submission too: the same allowance.
    expect(await open('POST', '/dubbings', works.key, { name: '配音', lines: [{ voice_id: voiceId, text: '你好' }] })).toMatchObject({ status: 429, body: { msg: MSG.tooManyRequests } });
  });

  it('serves the reference page and its viewer from our own assets', async () => {
    const page = await fetch(`${t.url}/open/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/open/docs/assets/swagger-ui-bundle.js', '/open/docs/assets/swagger-ui.css', '/open/docs/start.js']) {
      expect(html).toContain(asset);
      expect((await fetch(`${t.url}${asset}`)).status).toBe(200);
    }
    expect((await fetch(`${t.url}/open/docs/assets/package.json`)).status).toBe(404);
  });
});
