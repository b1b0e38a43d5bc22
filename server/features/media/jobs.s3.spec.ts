/**
 * A worker job on S3-compatible storage (an S3 protocol peer), on PGlite: the avatar clone reads the uploaded video
 * from the bucket (a temp copy for ffmpeg), writes its normalized video and covers back, and deleting the avatar
 * empties the bucket of them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, AvatarStatus } from '../../../src/contract';
import { startApp, type ApiTestClient, type TestApp } from '../../../tests/support/app';
import { makeVideo, mediaDir } from '../../../tests/support/media';
import { startS3Peer, type S3Peer } from '../../../tests/support/peers/s3-peer';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';

const video = makeVideo(path.join(mediaDir(), 'avatar.mp4'), { width: 640, height: 360, seconds: 6 });

describe('a worker job on S3 storage', () => {
  let peer: S3Peer;
  let t: TestApp;
  let a: ApiTestClient;
  const keys = async () => (await t.app.ctx.storage.list('')).map((o) => o.key).sort();

  beforeAll(async () => {
    peer = await startS3Peer();
    t = await startApp('pglite', { s3: peer.settings });
    a = await t.user('15300000001');
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  it('clones an avatar from the bucket into the bucket, serves it through presigned GETs, and deletes its objects', async () => {
    const upload = await uploadFile(a, 'video', video);
    expect(upload.code).toBe(0);
    const uploaded = t.app.ctx.urls.keyOf(upload.data.url)!;
    expect(await keys()).toEqual([uploaded]);

    const { data } = await a.call(API.avatars.clone, { name: '桶里的主播', file_id: upload.data.file_id });
    const list = () => a.call(API.avatars.list, { source: 1, page: 1, limit: 10 }).then((r) => r.data.list as any[]);
    const [ready] = await until(list, (l) => l[0]?.status !== AvatarStatus.Cloning, 120_000);
    expect(ready).toMatchObject({ id: data.id, status: AvatarStatus.Ready });
    expect(ready.duration).toBeCloseTo(6, 0);

    const made = [ready.url, ready.cover, ready.cover_small].map((url: string) => t.app.ctx.urls.keyOf(url)!);
    // The normalized copy (with its loop) replaced the upload: only the avatar's objects are in the bucket. The
    // upload is deleted just after the avatar reads as ready.
    const stored = await until(keys, (k) => !k.includes(uploaded), 30_000);
    expect(stored).not.toContain(uploaded);
    expect(stored).toEqual(expect.arrayContaining(made));
    expect(stored).toHaveLength(4);
    const served = await fetch(`${t.url}${ready.url}`, { redirect: 'manual' });
    expect(served.status).toBe(302);
    const location = served.headers.get('location')!;
    expect(location.startsWith(`${peer.endpoint}/${peer.bucket}/`)).toBe(true);
    const bytes = await fetch(location);
    expect(bytes.headers.get('content-type')).toBe('video/mp4');
    expect((await bytes.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    expect((await a.call(API.avatars.remove, { id: data.id })).code).toBe(0);
    expect(await keys()).toEqual([]);
  }, 150_000);
});
