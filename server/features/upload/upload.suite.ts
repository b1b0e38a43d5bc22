import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG } from '../../../src/contract';
import { startApp, type ApiTestClient, type DbKind, type TestApp } from '../../../tests/support/app';
import { startS3Peer, type S3Peer } from '../../../tests/support/peers/s3-peer';
import { makeAudio, makeImage, makeVideo, mediaDir, FFMPEG } from '../../../tests/support/media';
import { postToStorage, signUpload, uploadFile } from '../../../tests/support/upload';
import { execFileSync } from 'node:child_process';

let dir: string;
let video: string;
let image: string;
let audio: string;
/** The media of one spec file (each file's temp folders are removed after it, and two files share this module). */
function makeMedia(): void {
  dir = mediaDir();
  video = makeVideo(path.join(dir, 'ok.mp4'), { width: 640, height: 360, seconds: 6 });
  image = makeImage(path.join(dir, 'ok.png'), { width: 400, height: 400 });
  audio = makeAudio(path.join(dir, 'ok.mp3'), { seconds: 6 });
}

/** An mp4 with its index (moov) at the end, cut off before it. */
function truncatedMp4(): Buffer {
  const file = path.join(dir, 'tail-moov.mp4');
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
  const bytes = fs.readFileSync(file);
  return bytes.subarray(0, bytes.indexOf(Buffer.from('moov')) - 8);
}

/** A valid mp4 whose movie and track headers all claim a duration of weeks (version-0 boxes, as ffmpeg writes them). */
function lyingHeadersMp4(): Buffer {
  const bytes = Buffer.from(fs.readFileSync(video));
  // Offset of the 32-bit duration after each box's type: mvhd and mdhd at +20, tkhd at +24.
  for (const [box, offset] of [['mvhd', 20], ['mdhd', 20], ['tkhd', 24]] as const) {
    for (let at = bytes.indexOf(box); at >= 0; at = bytes.indexOf(box, at + 4)) bytes.writeUInt32BE(0x7ffffff0, at + offset);
  }
  return bytes;
}

/** An mp3 whose Xing/Info header claims millions of frames (about five days), which ffprobe believes. */
function absurdDurationMp3(): Buffer {
  const bytes = Buffer.from(fs.readFileSync(audio));
  const tag = bytes.indexOf('Info') >= 0 ? bytes.indexOf('Info') : bytes.indexOf('Xing');
  bytes.writeUInt32BE(0x00ffffff, tag + 8);
  return bytes;
}

/**
 * The upload flow on one database and one storage: local disk (our own `/storage` host) or an S3-compatible bucket
 * (browsers post to the bucket; upload.s3.spec.ts). What only our host checks (the policy's signature and the key's
 * shape at POST time, sizes the bucket would refuse) is tested on local disk; the S3 policy itself in storage-s3.spec.ts.
 */
export function describeUploads(kind: DbKind, storage: 'local' | 's3'): void {
  describe(`uploads (${kind}, ${storage} storage)`, () => uploadTests(kind, storage));
}

function uploadTests(kind: DbKind, storage: 'local' | 's3'): void {
  let t: TestApp;
  let a: ApiTestClient;
  let b: ApiTestClient;
  let peer: S3Peer | undefined;
  const local = storage === 'local';
  const objectsUnder = async (prefix: string) => (await t.app.ctx.storage.list(`${prefix}/`)).map((o) => o.key);

  beforeAll(async () => {
    makeMedia();
    peer = local ? undefined : await startS3Peer();
    t = await startApp(kind, peer ? { s3: peer.settings } : {});
    a = await t.user('15600000001', 100);
    b = await t.user('15600000002', 100);
  });
  afterAll(async () => {
    await t.close();
    await peer?.stop();
  });

  it.each(['video', 'voice', 'image'] as const)('registers a real %s, serves it with our Content-Type, and counts it in space used', async (type) => {
    const file = { video, voice: audio, image }[type];
    const before = (await a.call(API.credits.space, {})).data.used;
    const reply = await uploadFile(a, type, file);
    expect(reply).toMatchObject({ code: 0 });
    expect(reply.data.file_id).toBeGreaterThan(0);
    const res = await fetch(`${t.url}${reply.data.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe({ video: 'video/mp4', voice: 'audio/mpeg', image: 'image/png' }[type]);
    // A bucket's presigned GET cannot carry this header (README); our own host sends it.
    if (local) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
    const after = (await a.call(API.credits.space, {})).data.used;
    expect(after).toBeGreaterThan(before);
  });

  it('serves byte ranges (video seeking) and downloads as attachments', async () => {
    const reply = await uploadFile(a, 'video', video);
    const ranged = await fetch(`${t.url}${reply.data.url}`, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    const download = await fetch(`${t.url}${reply.data.url}&download=1`);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it.each([
    ['PNG bytes named .mp4', 'video', () => fs.readFileSync(image), 'x.mp4', MSG.avatarVideoInvalid],
    ['HTML in an .mp4', 'video', () => Buffer.from('<html><script>alert(1)</script></html>'), 'x.mp4', MSG.fileUnrecognized('video')],
    ['a text file named .mp3', 'voice', () => Buffer.from('这不是音频，只是一段文字。'), 'x.mp3', MSG.fileUnrecognized('voice')],
    ['a text file named .png', 'image', () => Buffer.from('这不是图片，只是一段文字。'), 'x.png', MSG.fileUnrecognized('image')],
    ['an mp4 cut before its moov atom', 'video', truncatedMp4, 'x.mp4', MSG.avatarVideoInvalid],
    ['an mp3 whose header claims days', 'voice', absurdDurationMp3, 'x.mp3', MSG.audioDurationInvalid],
    ['an mp4 cut to 40% with its index at the front (the index still claims 6 s)', 'video', () => fs.readFileSync(video).subarray(0, Math.floor(fs.statSync(video).size * 0.4)), 'x.mp4', MSG.videoDurationInvalid],
    ['a 2-second video', 'video', () => fs.readFileSync(makeVideo(path.join(dir, 'short.mp4'), { seconds: 2 })), 'x.mp4', MSG.videoDurationInvalid],
    ['a 200 px wide video', 'video', () => fs.readFileSync(makeVideo(path.join(dir, 'tiny.mp4'), { width: 200, height: 200, seconds: 6 })), 'x.mp4', MSG.videoResolutionInvalid],
    ['a video as a voice sample', 'voice', () => fs.readFileSync(image), 'x.mp3', MSG.audioInvalid],
    ['a 2-second voice sample', 'voice', () => fs.readFileSync(makeAudio(path.join(dir, 'short.mp3'), { seconds: 2 })), 'x.mp3', MSG.audioDurationInvalid],
    ['a 100 px image', 'image', () => fs.readFileSync(makeImage(path.join(dir, 'small.png'), { width: 100, height: 100 })), 'x.png', MSG.imageTooSmall],
    // A bucket refuses these by the policy's content-length-range (which the test peer does not enforce).
    ...(local
      ? ([
          ['0 bytes', 'image', () => Buffer.alloc(0), 'x.png', MSG.fileEmpty],
          ['a 0-byte video', 'video', () => Buffer.alloc(0), 'x.mp4', MSG.fileEmpty],
          ['an image one byte over 10 MB', 'image', () => Buffer.alloc(LIMITS.image.maxBytes + 1, 1), 'x.png', MSG.imageInvalid],
        ] as const)
      : []),
  ] as const)('refuses %s, leaves no object and no file, charges nothing', async (_label, type, bytes, name, message) => {
    const filesBefore = (await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM files')).rows[0]!.n;
    const reply = await uploadFile(a, type, bytes(), name);
    expect(reply.code).toBe(1);
    expect(reply.msg).toBe(message);
    expect(reply.status).toBeLessThan(500);
    expect(await objectsUnder('uploads')).toEqual([]);
    expect((await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM files')).rows[0]!.n).toBe(filesBefore);
    expect((await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM upload_reservations')).rows[0]!.n).toBe(0);
    expect((await a.call(API.account.credits, {})).data.credits).toBe(100);
  });

  it('measures an mp4 by its content, not by headers that claim weeks', async () => {
    const reply = await uploadFile(a, 'video', lyingHeadersMp4(), 'lying.mp4');
    expect(reply.code).toBe(0);
    const { rows } = await t.app.ctx.db.query<{ duration: number }>('SELECT duration FROM files WHERE id = $1', [reply.data.file_id]);
    expect(Number(rows[0]!.duration)).toBeCloseTo(6, 0);
  });

  if (local) describeOwnHost();
  else describeBucketKeys();

  /** Our `/storage` host checks what a bucket's policy checks: key prefix and shape, the signature, one use. */
  function describeOwnHost() {
  it.each([
    ['../ in the key', (dir: string) => `${dir}../../../operator.key`],
    ['an absolute path', () => '/etc/passwd'],
    ['a NUL byte', (dir: string) => `${dir}1700000000000\u0000.mp4`],
    ['a long name', (dir: string) => `${dir}${'1'.repeat(300)}.mp4`],
    ['another user\'s folder', (dir: string) => dir.replace(/^uploads\/\d+/, 'uploads/999')],
  ])('refuses a key with %s', async (_label, makeKey) => {
    const sign = await signUpload(a, 'image');
    const res = await postToStorage(a, sign, fs.readFileSync(image), { key: makeKey(sign.dir) });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe(1);
    expect(await objectsUnder('uploads')).toEqual([]);
  });

  it('refuses a forged policy, a policy used by another user, and a reused policy', async () => {
    const sign = await signUpload(a, 'image');
    expect((await postToStorage(a, { ...sign, signature: 'AAAA' + sign.signature.slice(4) }, fs.readFileSync(image))).status).toBe(403);
    expect((await postToStorage(b, sign, fs.readFileSync(image), { token: b.token })).status).toBe(403);
    const first = await postToStorage(a, sign, fs.readFileSync(image));
    expect(first.status).toBe(200);
    expect((await postToStorage(a, sign, fs.readFileSync(image))).status).toBe(403);
    expect((await a.call(API.upload.complete, { file_type: 'image', size: 1, url: first.url })).code).toBe(0);
  });
  }

  /** A bucket takes any key under the policy's prefix: registering checks the key, the sweep removes the rest. */
  function describeBucketKeys() {
    it('registers only keys of our shape, and the sweep clears the upload folder', async () => {
      const sign = await signUpload(a, 'image', fs.statSync(image).size);
      expect(sign.host).toBe(`${peer!.endpoint}/${peer!.bucket}`);
      const odd = await postToStorage(a, sign, fs.readFileSync(image), { key: `${sign.dir}page.html` });
      expect(odd.status).toBe(200);
      expect((await a.call(API.upload.complete, { file_type: 'image', size: 10, url: odd.url })).msg).toBe(MSG.uploadFailed);
      expect(await objectsUnder('uploads')).toHaveLength(1);
      await t.app.ctx.db.query(`UPDATE upload_reservations SET expires_at = now() - interval '1 second'`);
      const { sweepUploads } = await import('./upload.jobs');
      expect(await sweepUploads(t.app.ctx)).toBe(1);
      expect(await objectsUnder('uploads')).toEqual([]);
    });

    it('holds the declared size at signing and refuses a signature when the space is full', async () => {
      const userId = await t.createUser('15600000011', 'abc123');
      const c = await t.login('15600000011', 'abc123');
      const sign = await signUpload(c, 'video', 1000);
      const policy = JSON.parse(Buffer.from(sign.policy, 'base64').toString('utf8')) as { conditions: unknown[] };
      expect(policy.conditions).toContainEqual(['content-length-range', 1, 1000]);
      expect(policy.conditions).toContainEqual(['starts-with', '$key', sign.dir]);
      const { rows } = await t.app.ctx.db.query<{ bytes: string }>('SELECT bytes FROM upload_reservations WHERE object_key = $1', [sign.dir]);
      expect(rows.map((r) => Number(r.bytes))).toEqual([1000]);
      expect((await c.call(API.upload.sign, { file_type: 'video', size: LIMITS.video.maxBytes })).code).toBe(0);
      await t.app.ctx.db.query(`INSERT INTO files (user_id, kind, object_key, size) VALUES ($1, 'other', 'x/${userId}', $2)`, [userId, 1024 ** 3]);
      expect((await c.call(API.upload.sign, { file_type: 'image', size: 10 })).msg).toBe(MSG.spaceFull);
      await t.app.ctx.db.query('DELETE FROM upload_reservations');
    });
  }

  it('keeps users apart: B cannot register A\'s upload, and nobody reads an object without its signature', async () => {
    const sign = await signUpload(a, 'image');
    const direct = await postToStorage(a, sign, fs.readFileSync(image), { name: 'a.png' });
    expect((await b.call(API.upload.complete, { file_type: 'image', size: 10, url: direct.url })).msg).toBe(MSG.uploadFailed);
    const mine = await a.call(API.upload.complete, { file_type: 'image', size: 10, url: direct.url });
    expect(mine.code).toBe(0);
    const bare = mine.data.url.split('?')[0];
    expect((await fetch(`${t.url}${bare}`)).status).toBe(404);
    expect((await fetch(`${t.url}${bare}?exp=9999999999&sig=forged`)).status).toBe(404);
    expect((await fetch(`${t.url}/storage/${sign.dir}`)).status).toBe(404);
  });

  it('never lets 20 concurrent uploads near the limit exceed the quota', async () => {
    const quota = 1024 ** 3;
    const userId = await t.createUser('15600000009', 'abc123');
    const c = await t.login('15600000009', 'abc123');
    const png = fs.readFileSync(image);
    // Leave room for about three of them (each reserves its request size).
    await t.app.ctx.db.query(`INSERT INTO files (user_id, kind, object_key, size) VALUES ($1, 'other', 'x/${userId}', $2)`, [userId, quota - png.length * 3 - 2000]);
    const results = await Promise.all(Array.from({ length: 20 }, () => uploadFile(c, 'image', png, 'p.png')));
    const ok = results.filter((r) => r.code === 0).length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThanOrEqual(3);
    expect(results.filter((r) => r.code === 1).every((r) => r.msg === MSG.spaceFull)).toBe(true);
    const { rows } = await t.app.ctx.db.query<{ used: string }>('SELECT SUM(size)::bigint AS used FROM files WHERE user_id = $1', [userId]);
    expect(Number(rows[0]!.used)).toBeLessThanOrEqual(quota);
    expect(await objectsUnder('uploads'), 'leftover upload objects').toEqual([]);
  });

  it('sweeps uploads that were never registered once their reservation expires', async () => {
    const { sweepUploads } = await import('./upload.jobs');
    const sign = await signUpload(a, 'image');
    const direct = await postToStorage(a, sign, fs.readFileSync(image));
    expect(await objectsUnder('uploads')).toHaveLength(1);
    await t.app.ctx.db.query(`UPDATE upload_reservations SET expires_at = now() - interval '1 second'`);
    expect(await sweepUploads(t.app.ctx)).toBe(1);
    expect(await objectsUnder('uploads')).toEqual([]);
    expect((await a.call(API.upload.complete, { file_type: 'image', size: 1, url: direct.url })).msg).toBe(MSG.uploadExpired);
  });

  it('validates the calls themselves', async () => {
    expect((await a.call(API.upload.sign, { file_type: 'exe' })).code).toBe(1);
    expect((await a.call(API.upload.complete, { file_type: 'image', size: -1, url: '/storage/x' })).code).toBe(1);
    expect((await a.call(API.upload.complete, { file_type: 'image', size: 10, url: 'http://elsewhere.example/storage/uploads/1/x/1.png' })).code).toBe(1);
    expect((await t.client().call(API.upload.sign, { file_type: 'image' })).code).toBe(100);
  });
}
