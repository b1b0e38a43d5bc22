import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../src/contract';
import { startApp, type ApiTestClient, type TestApp } from '../../../tests/support/app';
import { startS3Peer, type S3Peer } from '../../../tests/support/peers/s3-peer';
import { makeImage, mediaDir } from '../../../tests/support/media';
import { uploadFile } from '../../../tests/support/upload';
import { publishLocalFile } from '../../infra/user-files';

let image: string;
let bytes: Buffer;

/** Serving on local disk (our host answers) or S3 (our signed URL redirects to the bucket's presigned GET, which answers). */
export function describeServing(storage: 'local' | 's3'): void {
describe(`serving stored objects (${storage} storage)`, () => {
  let t: TestApp;
  let a: ApiTestClient;
  let url: string;
  let peer: S3Peer | undefined;
  const get = (u: string, headers: Record<string, string> = {}) => fetch(`${t.url}${u}`, { headers });

  beforeAll(async () => {
    // Made for each spec file: its temp folders are removed after it, and two files share this module.
    image = makeImage(path.join(mediaDir(), 'served.png'), { width: 400, height: 400 });
    bytes = fs.readFileSync(image);
    peer = storage === 's3' ? await startS3Peer() : undefined;
    t = await startApp('pglite', peer ? { s3: peer.settings } : {});
    a = await t.user('15400000001');
    url = (await uploadFile(a, 'image', image)).data.url;
  });
  afterAll(async () => {
    await t.close();
    await peer?.stop();
  });

  it('serves public objects to anyone, cached, and 404s what is not there or not a key', async () => {
    const key = await publishLocalFile(t.app.ctx, image, 'image');
    const res = await get(`/storage/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('public');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get('/storage/public/missing.png')).status).toBe(404);
    expect((await get('/storage/public/..%2F..%2Fstorage.key')).status).toBe(404);
  });

  it('serves a user\'s object only with its signature', async () => {
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('private');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    const [bare, query] = url.split('?');
    expect((await get(bare!)).status).toBe(404);
    expect((await get(`${bare}?${query!.replace(/sig=[^&]+/, 'sig=forged')}`)).status).toBe(404);
    // A valid signature for an object that does not exist.
    expect((await get(t.app.ctx.urls.url(`1/${randomUUID()}.png`))).status).toBe(404);
  });

  it('answers byte ranges: from a start, to the end, the last bytes, and 416 beyond the end', async () => {
    const range = async (spec: string) => {
      const res = await get(url, { range: spec });
      return { status: res.status, contentRange: res.headers.get('content-range'), body: Buffer.from(await res.arrayBuffer()) };
    };
    expect(await range('bytes=0-99')).toMatchObject({ status: 206, contentRange: `bytes 0-99/${bytes.length}`, body: bytes.subarray(0, 100) });
    expect(await range('bytes=100-')).toMatchObject({ status: 206, body: bytes.subarray(100) });
    // The S3 test peer (s3rver) answers a suffix range from the start (README); AWS, MinIO, OSS and COS answer the last bytes.
    if (storage === 'local') expect(await range('bytes=-10')).toMatchObject({ status: 206, contentRange: `bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`, body: bytes.subarray(-10) });
    // A bucket answers 416 with an XML error and no Content-Range.
    expect(await range(`bytes=${bytes.length}-`)).toMatchObject(storage === 'local' ? { status: 416, contentRange: `bytes */${bytes.length}` } : { status: 416 });
  });

  it('offers a download as an attachment, and 404s once the object is deleted', async () => {
    expect((await get(`${url}&download=1`)).headers.get('content-disposition')).toMatch(/^attachment;/);
    const [material] = (await a.call(API.material.list, { type: 'image', page: 1, limit: 10 })).data.list;
    expect((await a.call(API.material.remove, { id: material.id })).code).toBe(0);
    expect((await get(url)).status).toBe(404);
  });
});
}
