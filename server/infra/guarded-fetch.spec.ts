/**
 * The guarded fetcher against real sockets: the SSRF set (loopback, private, link-local and metadata addresses in
 * their spellings, other schemes, IPv6 loopback, names that resolve inside, redirects that lead inside) is refused
 * with nothing fetched from the inside; redirects are re-checked and counted; the byte cap and the time limit hold.
 * A trap server on loopback counts every request that reaches it: it must see none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMediaHost, type MediaHost } from '../../tests/support/peers/parse-peers';
import { makeVideo } from '../../tests/support/media';
import { FetchRefused, guardedDownload, type FetchGuard } from './guarded-fetch';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guard-'));
const out = () => path.join(dir, `out-${Math.random().toString(36).slice(2)}`);

async function refusal(link: string, guard: FetchGuard): Promise<string> {
  const file = out();
  try {
    await guardedDownload(link, file, guard);
  } catch (err) {
    expect(err).toBeInstanceOf(FetchRefused);
    expect(fs.existsSync(file) ? fs.statSync(file).size : 0).toBe(0);
    return (err as FetchRefused).failure;
  }
  throw new Error(`${link} was fetched`);
}

describe('guarded download of user-supplied links', () => {
  let host: MediaHost;
  let trap: MediaHost;
  let guard: FetchGuard;
  const clip = makeVideo(path.join(dir, 'clip.mp4'), { seconds: 2 });

  beforeAll(async () => {
    host = await startMediaHost();
    trap = await startMediaHost();
    trap.serve('/secret', clip);
    host.serve('/clip.mp4', clip);
    // Only the host's port is let through, as a test's peers are; the trap stays an internal service.
    guard = { maxBytes: 50 * 1024 * 1024, timeoutMs: 5000, allowLoopbackPorts: [host.port] };
  });
  afterAll(async () => {
    await host.close();
    await trap.close();
  });

  it('refuses the SSRF set without a fetch', async () => {
    const t = trap.port;
    const inside = [
      `http://127.0.0.1:${t}/secret`, `http://127.9.9.9:${t}/secret`, `http://[::1]:${t}/secret`, `http://[::ffff:127.0.0.1]:${t}/secret`,
      `http://2130706433:${t}/secret`, `http://localhost:${t}/secret`, 'http://10.0.0.8/a.mp4', 'http://192.168.1.1/a.mp4', 'http://172.16.0.1/a.mp4',
      'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/a.mp4', 'http://[fd12::1]/a.mp4', 'http://0.0.0.0/a.mp4',
    ];
    for (const link of inside) expect(await refusal(link, guard), link).toBe('address');
    expect(await refusal(`file://${clip}`, guard)).toBe('scheme');
    expect(await refusal(`gopher://127.0.0.1:${t}/_GET%20/secret`, guard)).toBe('scheme');
    expect(await refusal('ftp://example.com/a.mp4', guard)).toBe('scheme');
    expect(trap.hits).toEqual([]);
  });

  it('refuses a name that resolves to an internal address, even one of several', async () => {
    const resolve = async (name: string) =>
      name === 'intranet.example' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.216.34', family: 4 }, { address: '169.254.169.254', family: 4 }];
    expect(await refusal('http://intranet.example/a.mp4', { ...guard, resolve })).toBe('address');
    expect(await refusal('http://mixed.example/a.mp4', { ...guard, resolve })).toBe('address');
  });

  it('checks every redirect again and follows at most three', async () => {
    host.redirect('/to-trap', `http://127.0.0.1:${trap.port}/secret`);
    host.redirect('/to-metadata', 'http://169.254.169.254/latest/meta-data/iam/');
    host.redirect('/to-file', `file://${clip}`);
    host.redirect('/to-v6', `http://[::1]:${trap.port}/secret`);
    for (const p of ['/to-trap', '/to-metadata', '/to-v6']) expect(await refusal(`${host.url}${p}`, guard), p).toBe('address');
    expect(await refusal(`${host.url}/to-file`, guard)).toBe('scheme');
    expect(trap.hits).toEqual([]);

    host.redirect('/r1', '/r2');
    host.redirect('/r2', '/r3');
    host.redirect('/r3', '/clip.mp4');
    const got = await guardedDownload(`${host.url}/r1`, out(), guard);
    expect(got).toMatchObject({ size: fs.statSync(clip).size, url: `${host.url}/clip.mp4` });
    host.redirect('/r0', '/r1');
    expect(await refusal(`${host.url}/r0`, guard)).toBe('redirects');
  });

  it('holds the byte cap and the time limit, and reports what the host answered', async () => {
    host.huge('/huge.mp4');
    host.stall('/stall.mp4');
    expect(await refusal(`${host.url}/huge.mp4`, guard)).toBe('size');
    expect(await refusal(`${host.url}/clip.mp4`, { ...guard, maxBytes: 1000 })).toBe('size');
    expect(await refusal(`${host.url}/stall.mp4`, { ...guard, timeoutMs: 300 })).toBe('timeout');
    expect(await refusal(`${host.url}/missing.mp4`, guard)).toBe('status');
    const file = out();
    await guardedDownload(`${host.url}/clip.mp4`, file, guard);
    expect(fs.readFileSync(file).equals(fs.readFileSync(clip))).toBe(true);
  });
});
