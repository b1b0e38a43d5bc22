import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directUploadFields } from '../../src/contract';
import { startS3Peer, type S3Peer } from '../../tests/support/peers/s3-peer';
import { configFromEnv, ConfigError } from './config';
import { S3Storage, type S3Settings } from './storage-s3';

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('S3 storage driver against an S3 protocol peer', () => {
  let peer: S3Peer;
  let storage: S3Storage;
  const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
  const key = (ext = 'png') => `7/${randomUUID()}.${ext}`;

  beforeAll(async () => {
    peer = await startS3Peer();
    storage = new S3Storage(peer.settings);
  });
  afterAll(() => peer.stop());

  it('puts buffers and streams, reads whole and ranged, stats, moves, lists, deletes and removes all under a prefix', async () => {
    await storage.ping();
    const a = key();
    const b = key('mp4');
    expect(await storage.put(a, bytes)).toEqual({ key: a, size: 5000 });
    expect(await storage.put(b, Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]))).toEqual({ key: b, size: 5000 });
    expect((await read(storage.get(a))).equals(bytes)).toBe(true);
    expect((await read(storage.get(b, { start: 10, end: 19 }))).equals(bytes.subarray(10, 20))).toBe(true);
    expect(await storage.stat(`7/${randomUUID()}.png`)).toBeNull();

    const moved = key('mp4');
    await storage.move(b, moved);
    expect(await storage.stat(b)).toBeNull();
    expect(await storage.stat(moved)).toEqual({ key: moved, size: 5000 });
    expect((await storage.list('7/')).map((o) => o.key).sort()).toEqual([a, moved].sort());

    await storage.delete(a);
    expect(await storage.stat(a)).toBeNull();
    await storage.removeAll('7/');
    expect(await storage.list('')).toEqual([]);
    await expect(read(storage.get(a))).rejects.toThrow();
  });

  it('hands ffmpeg a temp copy and removes it after, also when the work fails', async () => {
    const k = key();
    await storage.put(k, bytes);
    let seen = '';
    await expect(
      storage.withLocalFile(k, async (file) => {
        seen = file;
        expect(fs.readFileSync(file).equals(bytes)).toBe(true);
        throw new Error('ffmpeg failed');
      }),
    ).rejects.toThrow('ffmpeg failed');
    expect(fs.existsSync(seen)).toBe(false);
    await storage.removeAll('');
  });

  it('signs a POST policy that holds the key prefix, the size and the type, and the browser form lands in the bucket', async () => {
    const dir = `uploads/7/${randomUUID()}/`;
    const post = await storage.presignPost({ dir, maxBytes: 6000, typePrefix: 'image/', contentType: 'image/png', expiresSeconds: 600 });
    expect(post.host).toBe(`${peer.endpoint}/${peer.bucket}`);
    const policy = JSON.parse(Buffer.from(post.policy, 'base64').toString('utf8')) as { expiration: string; conditions: unknown[] };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['starts-with', '$key', dir], ['content-length-range', 1, 6000], ['starts-with', '$Content-Type', 'image/'],
        { bucket: peer.bucket }, { 'Content-Type': 'image/png' }, { success_action_status: '200' },
      ]),
    );
    expect(Date.parse(policy.expiration) - Date.now()).toBeGreaterThan(500_000);
    expect(Date.parse(policy.expiration) - Date.now()).toBeLessThanOrEqual(600_000);
    expect(post.fields['X-Amz-Algorithm']).toBe('AWS4-HMAC-SHA256');
    expect(post.fields['X-Amz-Credential']).toMatch(new RegExp(`^${peer.accessKeyId}/\\d{8}/us-east-1/s3/aws4_request$`));

    // The form exactly as the browser client builds it (src/contract directUploadFields), no session header.
    const objectKey = `${dir}${Date.now()}123.png`;
    const form = new FormData();
    const sign = { host: post.host, dir, access_key_id: post.accessKeyId, policy: post.policy, signature: post.signature, fields: post.fields };
    for (const [name, value] of directUploadFields(sign, objectKey)) form.set(name, value);
    form.set('file', new Blob([bytes]), 'a.png');
    const res = await fetch(post.host, { method: 'POST', body: form, headers: { origin: 'http://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(await storage.stat(objectKey)).toEqual({ key: objectKey, size: 5000 });
    expect(await storage.keyOfPostedUrl(`${post.host}/${objectKey}`)).toBe(objectKey);
    expect(await storage.keyOfPostedUrl(`http://elsewhere.example/${peer.bucket}/${objectKey}`)).toBeNull();

    // Reads: a presigned GET that answers our Content-Type (and an attachment when asked).
    const finalKey = key();
    await storage.move(objectKey, finalKey);
    const get = await fetch(await storage.readUrl(finalKey, { download: 'a.png', cacheControl: 'private, max-age=3600' }));
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('image/png');
    expect(get.headers.get('content-disposition')).toBe('attachment; filename="a.png"');
    expect(get.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await get.arrayBuffer()).equals(bytes)).toBe(true);
    expect(new URL(await storage.readUrl(finalKey, { cacheControl: 'no-store' })).searchParams.get('X-Amz-Expires')).toBe('300');
    await storage.removeAll('');
  });

  it('is not ready when the bucket is missing', async () => {
    await expect(new S3Storage({ ...peer.settings, bucket: 'no-such-bucket' }).ping()).rejects.toThrow();
  });

  it('reads STORAGE and the S3_* settings from the environment, and refuses half a configuration', () => {
    expect(configFromEnv({}).s3).toBeUndefined();
    expect(configFromEnv({ ...peer.env }).s3).toEqual(peer.settings);
    expect(configFromEnv({ ...peer.env, S3_ENDPOINT: '', S3_FORCE_PATH_STYLE: '', S3_REGION: 'cn-hangzhou' }).s3).toMatchObject({ endpoint: undefined, forcePathStyle: false, region: 'cn-hangzhou' });
    expect(() => configFromEnv({ ...peer.env, S3_BUCKET: '' })).toThrow(ConfigError);
    expect(() => configFromEnv({ STORAGE: 'ftp' })).toThrow(ConfigError);
    expect(() => configFromEnv({ ...peer.env, S3_ENDPOINT: 'minio:9000' })).toThrow(ConfigError);
    expect(() => configFromEnv({ ...peer.env, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(ConfigError);
    expect(configFromEnv({ ...peer.env, S3_PUBLIC_URL: 'https://cdn.example.com/media/' }).s3?.publicUrl).toBe('https://cdn.example.com/media');
    expect(() => configFromEnv({ ...peer.env, S3_PUBLIC_URL: 'cdn.example.com' })).toThrow(ConfigError);
  });

  it('names the origins a browser reaches: the bucket as the SDK addresses it, or the public URL for reads', async () => {
    const aws = { bucket: 'media', accessKeyId: 'a', secretAccessKey: 'b', forcePathStyle: false };
    const origins = (settings: Partial<S3Settings>) => new S3Storage({ ...aws, region: 'us-east-1', ...settings }).browserOrigins();
    // AWS itself: the regional virtual host.
    expect(await origins({ region: 'eu-west-1' })).toEqual({ reads: ['https://media.s3.eu-west-1.amazonaws.com'], uploads: ['https://media.s3.eu-west-1.amazonaws.com'] });
    // A virtual-host endpoint (OSS, COS): the bucket is a subdomain.
    expect(await origins({ endpoint: 'https://oss-cn-hangzhou.aliyuncs.com', region: 'cn-hangzhou' })).toEqual({
      reads: ['https://media.oss-cn-hangzhou.aliyuncs.com'], uploads: ['https://media.oss-cn-hangzhou.aliyuncs.com'],
    });
    // Path-style (MinIO, the peer): the endpoint itself, port included.
    expect(await storage.browserOrigins()).toEqual({ reads: [peer.endpoint], uploads: [peer.endpoint] });
    // A CDN in front: reads from it, uploads still to the bucket.
    expect(await origins({ endpoint: 'http://10.0.0.5:9000', forcePathStyle: true, publicUrl: 'https://cdn.example.com/m' })).toEqual({
      reads: ['https://cdn.example.com'], uploads: ['http://10.0.0.5:9000'],
    });
  });

  it('presigns reads under S3_PUBLIC_URL in place of the bucket, keeping the signed query', async () => {
    const k = key('mp4');
    const direct = await storage.readUrl(k, { cacheControl: 'private' });
    const viaCdn = await new S3Storage({ ...peer.settings, publicUrl: 'https://cdn.example.com/m' }).readUrl(k, { cacheControl: 'private', download: 'a.mp4' });
    expect(direct.startsWith(`${peer.endpoint}/${peer.bucket}/${k}?`)).toBe(true);
    expect(viaCdn.startsWith(`https://cdn.example.com/m/${k}?`)).toBe(true);
    const query = new URL(viaCdn).searchParams;
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(query.get('response-content-disposition')).toBe('attachment; filename="a.mp4"');
  });
});
