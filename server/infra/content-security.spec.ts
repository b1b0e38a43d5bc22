/**
 * The web app's Content-Security-Policy as the server sends it: our own origin only on local storage; on S3 exactly
 * the bucket's origin added where the browser reads and uploads; the hosts of the operator's site pictures for images.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/contract';
import { startApp, type TestApp } from '../../tests/support/app';
import { startS3Peer, type S3Peer } from '../../tests/support/peers/s3-peer';
import { contentSecurityPolicy, httpOrigin, siteImageOrigins } from './content-security';

/** The policy as a map of directive → its sources. */
const directives = (policy: string | null) =>
  Object.fromEntries((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources.join(' ')]));

const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-csp-web-'));
fs.mkdirSync(path.join(webRoot, 'assets'));
fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>t</title>');
fs.writeFileSync(path.join(webRoot, 'assets/app.js'), 'console.log(1)');
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));

const policyOf = async (t: TestApp, file = '/') => {
  const res = await fetch(`${t.url}${file}`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return directives(res.headers.get('content-security-policy'));
};

describe('on local storage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite', { webRoot });
  });
  afterAll(() => t.close());

  it('names our own origin only, on the page and on its assets', async () => {
    for (const file of ['/', '/assets/app.js']) {
      const policy = await policyOf(t, file);
      expect(policy).toMatchObject({
        'default-src': "'self'", 'script-src': "'self'", 'img-src': "'self' data: blob:", 'media-src': "'self' blob:",
        'connect-src': "'self'", 'object-src': "'none'", 'frame-ancestors': "'none'",
      });
    }
  });

  it('adds the host of an operator’s site picture to img-src only, and nothing for relative or junk values', async () => {
    const set = await t.operator(API.admin.siteSet, { settings: { qrcode: 'https://img.example.com/qr.png', logo: '/storage/public/x.png', login_bg: 'javascript:alert(1)' } });
    expect(set.code).toBe(0);
    const policy = await policyOf(t);
    expect(policy['img-src']).toBe("'self' https://img.example.com data: blob:");
    expect(policy['media-src']).toBe("'self' blob:");
    expect(policy['connect-src']).toBe("'self'");
  });
});

describe('the web root', () => {
  let t: TestApp;
  beforeAll(async () => {
    fs.writeFileSync(path.join(webRoot, '.env'), 'SECRET=1');
    t = await startApp('pglite', { webRoot });
  });
  afterAll(() => t.close());

  it('serves the build’s files and nothing beside them: no dotfile, nothing above the root, API paths answer in the contract', async () => {
    const get = async (file: string) => {
      const res = await fetch(`${t.url}${file}`);
      return { status: res.status, body: await res.text() };
    };
    expect(await get('/assets/app.js')).toMatchObject({ status: 200, body: 'console.log(1)' });
    for (const file of ['/.env', '/assets/missing.js', '/%2e%2e/%2e%2e/etc/passwd', '/assets/']) expect(await get(file), file).toMatchObject({ status: 404, body: 'Not found' });
    const api = await get(API.account.login.path);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ code: 1 });
  });
});

describe('on S3 storage', () => {
  let peer: S3Peer;
  let t: TestApp;
  beforeAll(async () => {
    peer = await startS3Peer();
    t = await startApp('pglite', { webRoot, s3: peer.settings });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.stop();
  });

  it('adds exactly the bucket’s origin where the browser reads and uploads', async () => {
    const policy = await policyOf(t);
    expect(policy['img-src']).toBe(`'self' ${peer.endpoint} data: blob:`);
    expect(policy['media-src']).toBe(`'self' ${peer.endpoint} blob:`);
    expect(policy['connect-src']).toBe(`'self' ${peer.endpoint}`);
    expect(policy['script-src']).toBe("'self'");
    expect(policy['default-src']).toBe("'self'");
  });
});

describe('the policy itself', () => {
  it('reads through a CDN, uploads to the bucket, and repeats no origin', () => {
    const policy = directives(contentSecurityPolicy({ reads: ['https://cdn.example.com'], uploads: ['https://media.s3.eu-west-1.amazonaws.com'] }, ['https://cdn.example.com']));
    expect(policy['img-src']).toBe("'self' https://cdn.example.com data: blob:");
    expect(policy['media-src']).toBe("'self' https://cdn.example.com blob:");
    expect(policy['connect-src']).toBe("'self' https://cdn.example.com https://media.s3.eu-west-1.amazonaws.com");
  });

  it('takes only absolute http(s) URLs as origins', () => {
    expect(httpOrigin('https://a.example.com:8443/x/y.png?z')).toBe('https://a.example.com:8443');
    expect(httpOrigin('data:image/png;base64,AAAA')).toBeUndefined();
    expect(httpOrigin('/storage/public/a.png')).toBeUndefined();
    expect(siteImageOrigins({ logo: 'http://a.test/l.png', qrcode: 'http://a.test/q.png', title: 'https://not-an-image.test' })).toEqual(['http://a.test']);
  });
});
