import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BehaviorSubject, lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, LOGIN_ROUTE, MSG, ResultCode, TOKEN_HEADER, type CallDef } from '../contract';
import { screenServices } from '../../tests/support/fake-api';
import { ApiCallError } from './api-client';
import { DirectUploadService, UploadRefusedError, bucketRefusal } from './upload-service';
import type { ApiClient, Location, Navigation, Notifier, TokenStore } from './tokens';

/** A storage host on loopback that answers every upload with the given status and body (CORS allowed, as the product's is same-origin). */
function storageHost() {
  let answer = { status: 200, body: '' };
  const seen: { token?: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', 'POST');
    if (req.method === 'OPTIONS') return res.end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ token: req.headers[TOKEN_HEADER] as string | undefined, body: Buffer.concat(chunks).toString('latin1') });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  return {
    server, seen,
    answer: (status: number, body: unknown) => (answer = { status, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  };
}

describe('DirectUploadService', () => {
  const host = storageHost();
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => host.server.close(() => resolve())));

  function setup(signed: Record<string, unknown> = {}) {
    const token = new BehaviorSubject<string | null>('tok');
    const tokens: TokenStore = { token$: token, get: () => token.value, set: (t) => token.next(t), clear: () => token.next(null) };
    const notifier: Notifier = { success: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const current: Location = { path: '/profile', query: {} };
    const navigation = { location$: new BehaviorSubject(current), current, navigate: vi.fn(), href: () => '/profile' } as unknown as Navigation;
    const calls: string[] = [];
    const api: ApiClient = {
      call: (async (call: CallDef) => {
        calls.push(call.id);
        if (call === API.upload.sign) return { host: url, dir: '1/', accessid: 'a', policy: 'p', signature: 's', expire: 0, callback: '', ...signed };
        return { file_id: 1, url: `${url}/1/x.mp4` };
      }) as ApiClient['call'],
    };
    return { service: new DirectUploadService(screenServices({ api, tokens, notifier, navigation })), tokens, notifier, navigation, calls };
  }

  // The first bytes of an MP4 (an ftyp box): what the service sniffs before sending.
  const mp4Head = () => { const b = new Uint8Array(64); b.set([0, 0, 0, 0x20, ...new TextEncoder().encode('ftypisom')]); return b; };
  const file = () => new File([mp4Head()], 'clip.mp4', { type: 'video/mp4' });

  it.each([
    ['an empty file', new File([], 'clip.mp4'), 'video', MSG.fileEmpty],
    ['a text file named .mp4', new File(['这不是视频'], 'clip.mp4', { type: 'video/mp4' }), 'video', MSG.fileUnrecognized('video')],
    ['a text file named .mp3', new File(['这不是音频'], 'a.mp3'), 'voice', MSG.fileUnrecognized('voice')],
    ['a text file named .png', new File(['这不是图片'], 'a.png'), 'image', MSG.fileUnrecognized('image')],
  ] as const)('refuses %s before anything is sent, in its own words', async (_label, bad, type, message) => {
    const { service, calls } = setup();
    const sent = host.seen.length;
    const failed = await lastValueFrom(service.upload(bad, type)).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(UploadRefusedError);
    expect((failed as Error).message).toBe(message);
    expect(calls).toEqual([]);
    expect(host.seen.length).toBe(sent);
  });

  it('a transfer answered with code 100 clears the token and goes to login with the way back, as every call does', async () => {
    host.answer(401, { code: ResultCode.SessionExpired, msg: MSG.sessionExpired, data: null });
    const { service, tokens, notifier, navigation, calls } = setup();
    const failed = await lastValueFrom(service.upload(file(), 'video')).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(ApiCallError);
    expect((failed as ApiCallError).code).toBe(ResultCode.SessionExpired);
    expect(host.seen.at(-1)?.token).toBe('tok');
    expect(tokens.get()).toBeNull();
    expect(notifier.warn).toHaveBeenCalledWith(MSG.sessionExpired);
    expect(navigation.navigate).toHaveBeenCalledWith(LOGIN_ROUTE, { redirectUrl: '/profile' });
    expect(calls).toEqual([API.upload.sign.id]); // never registered
  });

  it('any other refusal keeps the session and says the host’s words', async () => {
    host.answer(400, { code: ResultCode.Error, msg: '空间不足', data: null });
    const { service, tokens, navigation } = setup();
    const failed = await lastValueFrom(service.upload(file(), 'video')).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(UploadRefusedError);
    expect((failed as Error).message).toBe('空间不足');
    expect(tokens.get()).toBe('tok');
    expect(navigation.navigate).not.toHaveBeenCalled();
  });

  it('a stored file is registered', async () => {
    host.answer(200, { code: 0, msg: 'ok', data: null });
    const { service, calls } = setup();
    const last = await lastValueFrom(service.upload(file(), 'video'));
    expect(last.done).toEqual({ file_id: 1, url: `${url}/1/x.mp4` });
    expect(calls).toEqual([API.upload.sign.id, API.upload.complete.id]);
  });

  it('posts to a bucket the presigned policy’s fields, the signature as x-amz-signature, the file last, and no session', async () => {
    host.answer(200, { code: 0, msg: 'ok', data: null });
    const fields = { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-Credential': 'AK/20260101/us-east-1/s3/aws4_request', 'Content-Type': 'video/mp4' };
    const { service, calls } = setup({ policy: 'cG9saWN5', signature: 'abc', fields });
    await lastValueFrom(service.upload(file(), 'video'));
    const { token, body } = host.seen.at(-1)!;
    expect(token).toBeUndefined();
    const names = [...body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(['key', 'X-Amz-Algorithm', 'X-Amz-Credential', 'Content-Type', 'policy', 'x-amz-signature', 'file']);
    expect(body).toContain('AK/20260101/us-east-1/s3/aws4_request');
    expect(calls).toEqual([API.upload.sign.id, API.upload.complete.id]);
  });

  const bucketFields = { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'Content-Type': 'video/mp4' };

  it('a bucket’s XML refusal says what the bucket refused', async () => {
    host.answer(400, '<?xml version="1.0" encoding="UTF-8"?><Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>');
    const { service, calls } = setup({ fields: bucketFields });
    const failed = await lastValueFrom(service.upload(file(), 'video')).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(UploadRefusedError);
    expect((failed as Error).message).toBe(MSG.bucketTooLarge);
    expect(calls).toEqual([API.upload.sign.id]);
  });

  it('a bucket that cannot be reached (or refuses this site by CORS) says so, not a bare failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadHost = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { service } = setup({ host: deadHost, fields: bucketFields });
    const failed = await lastValueFrom(service.upload(file(), 'video')).catch((err: unknown) => err);
    expect((failed as Error).message).toBe(MSG.bucketUnreachable);
  });
});

describe('bucketRefusal', () => {
  const refusal = (code: string, message: string) => `<Error><Code>${code}</Code><Message>${message}</Message><RequestId>1</RequestId></Error>`;
  it('names the refusals an S3-compatible bucket gives a presigned POST', () => {
    expect(bucketRefusal(refusal('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'))).toBe(MSG.bucketTooLarge);
    expect(bucketRefusal(refusal('AccessDenied', 'Invalid according to Policy: Policy Condition failed: ["starts-with", "$Content-Type", "video/"]'))).toBe(MSG.bucketTypeRefused);
    expect(bucketRefusal(refusal('AccessDenied', 'Invalid according to Policy: Policy expired.'))).toBe(MSG.uploadExpired);
    expect(bucketRefusal(refusal('SignatureDoesNotMatch', 'The request signature we calculated does not match'))).toBe(MSG.bucketRefused('SignatureDoesNotMatch'));
    expect(bucketRefusal('{"code":1}')).toBeUndefined();
    expect(bucketRefusal('')).toBeUndefined();
  });
});
