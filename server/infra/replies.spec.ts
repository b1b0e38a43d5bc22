/**
 * Every reply from /api is the contract's shape, even for requests that never become a call: a query string
 * past Node's header limit, bodies that are not forms. And signed media URLs: short-lived, never in the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, openReply, sealRequest } from '../../src/contract';
import { startApp, type TestApp } from '../../tests/support/app';
import { startServer, type RunningServer } from '../../tests/support/server';
import { ObjectUrls, PRIVATE_URL_STEP_SECONDS, PRIVATE_URL_TTL_SECONDS } from './object-urls';
import { redactUrl } from './logging';

describe('replies outside any call keep the contract shape', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite');
  });
  afterAll(() => t.close());

  const bodyOf = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> });

  it('a GET query string past Node’s header limit gets the envelope message, not Node’s own 431 JSON', async () => {
    const sealed = new URLSearchParams({ ...sealRequest({}), pad: 'x'.repeat(20_000) });
    const res = await bodyOf(await fetch(`${t.url}${API.account.profile.path}?${sealed}`));
    expect(res.status).toBe(431);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.body).toEqual({ code: 1, msg: MSG.envelopeRejected, data: null });
    // The server is still there for the next request.
    expect((await t.client().call(API.site.site, {})).code).toBe(0);
  });

  it.each([
    ['text/plain', 'hello'],
    ['text/plain', new URLSearchParams(sealRequest({ username: '13800000000', password: 'abc123' })).toString()],
    ['application/json', JSON.stringify('a string')],
    ['application/json', JSON.stringify(['an', 'array'])],
    ['application/json', '{broken'],
    ['application/xml', '<a/>'],
  ])('a checked call posted as %s (%s) gets the one envelope message', async (type, body) => {
    const res = await fetch(`${t.url}${API.account.login.path}`, { method: 'POST', headers: { 'content-type': type }, body });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // Sealed like every reply of a checked call, and it says the envelope message.
    const opened = openReply((await res.json()) as Record<string, unknown>);
    expect(opened.ok && opened.value).toEqual({ code: 1, msg: MSG.envelopeRejected, data: null });
  });

  it('an unchecked call posted as a bare JSON string gets the plain contract shape', async () => {
    const res = await fetch(`${t.url}${API.admin.userCreate.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"x"' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 1, msg: MSG.badRequest, data: null });
  });
});

describe('signed media URLs', () => {
  it(`live ${PRIVATE_URL_TTL_SECONDS / 3600} hour for a user's objects; public objects need no signature`, () => {
    const urls = new ObjectUrls('secret');
    const now = Math.floor(Date.now() / 1000) * 1000;
    const url = new URL(urls.url('7/abc.mp4', { now }), 'http://x');
    const exp = Number(url.searchParams.get('exp'));
    expect(exp).toBeLessThanOrEqual(now / 1000 + PRIVATE_URL_TTL_SECONDS);
    expect(exp).toBeGreaterThanOrEqual(now / 1000 + PRIVATE_URL_TTL_SECONDS - PRIVATE_URL_STEP_SECONDS);
    expect(PRIVATE_URL_TTL_SECONDS).toBeLessThanOrEqual(3600);
    // Asked again within the same step (a poll a few seconds later), the URL is the same, so players do not reload.
    const stepStart = (exp - PRIVATE_URL_TTL_SECONDS) * 1000 + 1000;
    expect(urls.url('7/abc.mp4', { now: stepStart })).toBe(urls.url('7/abc.mp4', { now: stepStart + 60_000 }));
    expect(urls.url('public/a.png')).toBe('/storage/public/a.png');
    expect(urls.verify('7/abc.mp4', url.searchParams.get('exp')!, url.searchParams.get('sig')!)).toBe(true);
    // An hour and a second ago's URL no longer opens.
    const old = new URL(urls.url('7/abc.mp4', { now: now - (PRIVATE_URL_TTL_SECONDS + 1) * 1000 }), 'http://x');
    expect(urls.verify('7/abc.mp4', old.searchParams.get('exp')!, old.searchParams.get('sig')!)).toBe(false);
  });

  it('redacts signatures from URLs', () => {
    expect(redactUrl('/storage/7/a.mp4?exp=1&sig=AbC-_1&download=1')).toBe('/storage/7/a.mp4?exp=1&sig=[redacted]&download=1');
    expect(redactUrl('/api/x?a=1')).toBe('/api/x?a=1');
  });

  describe('in the running server’s request log', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer({ env: { LOG_LEVEL: 'debug' } }); // request lines are logged at debug
    });
    afterAll(async () => {
      await server.stop();
    });

    it('a signed URL’s signature never appears, the path does', async () => {
      const signature = 'S1gnatureThatMustNotBeLogged';
      await fetch(`${server.url}/storage/7/abc.mp4?exp=9999999999&sig=${signature}`);
      await new Promise((r) => setTimeout(r, 300));
      expect(server.output()).toContain('/storage/7/abc.mp4?exp=9999999999&sig=[redacted]');
      expect(server.output()).not.toContain(signature);
    });
  });
});
