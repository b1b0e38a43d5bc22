import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/contract';
import { checkKlingToken, startKlingPeer, type KlingPeer } from '../../../tests/support/peers/kling-peer';
import { until } from '../../../tests/support/wait';
import { ffmpeg } from '../../infra/media-probe';
import { KlingClient, klingReason, VideoGenError, type KlingTaskInput } from './kling';
import { klingToken } from '../kling-token';

let peer: KlingPeer;
let dir: string;
let picture: string;
beforeAll(async () => {
  peer = await startKlingPeer();
  peer.timeline = { submittedMs: 100, processingMs: 100 };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kling-spec-'));
  picture = path.join(dir, 'first.png');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=400x300', '-frames:v', '1', picture]);
});
afterAll(async () => {
  await peer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const client = (over: Partial<{ secretKey: string; model: string }> = {}) =>
  new KlingClient({ baseUrl: peer.url, accessKey: peer.accessKey, secretKey: over.secretKey ?? peer.secretKey, model: over.model ?? 'kling-v1', timeoutMs: 5000 });
const text: KlingTaskInput = { kind: 'text2video', prompt: '一只猫在草地上奔跑', negativePrompt: '模糊', cfgScale: 0.5, mode: 'std', duration: 5, aspectRatio: '9:16' };

async function settle(c: KlingClient, kind: KlingTaskInput['kind'], id: string) {
  return until(() => c.state(kind, id), (s) => s.state !== 'running', 5000, 50);
}

describe('Kling JWT', () => {
  it('is HS256 with iss, exp now + 1800 and nbf now − 5, and the peer checks all of it', () => {
    const now = 1_800_000_000;
    const token = klingToken('ak', 'sk', now);
    const [head, body] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>);
    expect(head).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(body).toEqual({ iss: 'ak', exp: now + 1800, nbf: now - 5 });
    expect(checkKlingToken(`Bearer ${token}`, 'ak', 'sk', now)).toBe(0);
    expect(checkKlingToken(`Bearer ${token}`, 'ak', 'sk', now + 1800)).toBe(1004);
    expect(checkKlingToken(`Bearer ${token}`, 'ak', 'sk', now - 10)).toBe(1003);
    expect(checkKlingToken(`Bearer ${token}`, 'ak', 'other', now)).toBe(1002);
    expect(checkKlingToken(`Bearer ${token}`, 'someone', 'sk', now)).toBe(1002);
    expect(checkKlingToken(undefined, 'ak', 'sk', now)).toBe(1001);
  });

  it('an expired or wrongly signed token is refused by the service with 1004 / 1002, which the adapter words for users', async () => {
    const expired = klingToken(peer.accessKey, peer.secretKey, Math.floor(Date.now() / 1000) - 3600);
    const res = await fetch(`${peer.url}/v1/videos/text2video/task-x`, { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 1004 });
    const wrong = client({ secretKey: 'not-the-secret' });
    const err = await wrong.submit(text).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoGenError);
    expect(err).toMatchObject({ message: MSG.klingAuthFailed, transient: false });
    expect(peer.authFailures.slice(-2)).toEqual([1004, 1002]);
  });
});

describe('Kling tasks against the peer', () => {
  it('text2video: submitted → processing → succeed, with the result a real mp4 at a URL', async () => {
    const c = client();
    const id = await c.submit(text);
    expect(await c.state('text2video', id)).toEqual({ state: 'running' });
    const state = await settle(c, 'text2video', id);
    expect(state).toMatchObject({ state: 'succeed', url: expect.stringContaining('/results/') });
    const sent = peer.tasks.at(-1)!.body;
    expect(sent).toMatchObject({ model_name: 'kling-v1', prompt: text.prompt, negative_prompt: '模糊', cfg_scale: 0.5, mode: 'std', duration: '5', aspect_ratio: '9:16' });
    const mp4 = Buffer.from(await (await fetch((state as { url: string }).url)).arrayBuffer());
    expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
    expect(peer.shapeErrors).toEqual([]);
  });

  it('image2video sends the frames as bare base64, and leaves cfg_scale out for a v2 model', async () => {
    const c = client({ model: 'kling-v2-master' });
    await c.submit({ ...text, kind: 'image2video', image: picture, imageTail: picture, duration: 10 });
    const sent = peer.tasks.at(-1)!;
    expect(sent.kind).toBe('image2video');
    expect(sent.body.image).toBe(fs.readFileSync(picture).toString('base64'));
    expect(sent.body.image_tail).toBe(sent.body.image);
    expect(sent.body).not.toHaveProperty('cfg_scale');
    expect(sent.body).not.toHaveProperty('aspect_ratio');
    expect(sent.body.duration).toBe('10');
    expect(peer.shapeErrors).toEqual([]);
  });

  it('the peer refuses what Kling does not document: aspect_ratio on image2video, unknown fields', async () => {
    const post = (kind: string, body: Record<string, unknown>) =>
      fetch(`${peer.url}/v1/videos/${kind}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${klingToken(peer.accessKey, peer.secretKey)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model_name: 'kling-v1', prompt: '猫', duration: '5', ...body }),
      }).then((r) => r.json());
    const image = fs.readFileSync(picture).toString('base64');
    expect(await post('image2video', { image, aspect_ratio: '16:9' })).toMatchObject({ code: 1201, message: 'aspect_ratio is not a field of image2video' });
    expect(await post('text2video', { image })).toMatchObject({ code: 1201 });
    expect(await post('text2video', { aspect_ratio: '1:1' })).toMatchObject({ code: 0 });
    peer.shapeErrors.length = 0;
  });

  it('a failed task carries its reason; business codes become clear Chinese reasons', async () => {
    const c = client();
    peer.failNext = '图片内容违规';
    const id = await c.submit(text);
    expect(await settle(c, 'text2video', id)).toEqual({ state: 'failed', reason: '视频生成失败：图片内容违规' });

    peer.refuseNext = { code: 1303, http: 429, message: 'parallel task over resource pack limit' };
    expect(await c.submit(text).catch((e: unknown) => e)).toMatchObject({ message: MSG.klingBusy, transient: true });
    peer.refuseNext = { code: 1102, http: 403, message: 'resource pack exhausted' };
    expect(await c.submit(text).catch((e: unknown) => e)).toMatchObject({ message: MSG.klingAccountUnavailable, transient: false });
    expect(klingReason(1301, 'risk')).toEqual({ reason: MSG.klingContentRejected, transient: false });
    expect(klingReason(5001, 'busy')).toEqual({ reason: MSG.klingServerError, transient: true });
    expect(klingReason(1201, 'duration invalid').reason).toContain('duration invalid');
  });

  it('an unreachable service is a transient failure', async () => {
    const c = new KlingClient({ baseUrl: 'http://127.0.0.1:9', accessKey: 'a', secretKey: 'b', model: 'kling-v1', timeoutMs: 2000 });
    expect(await c.submit(text).catch((e: unknown) => e)).toMatchObject({ message: MSG.klingUnreachable, transient: true });
  });
});
