/**
 * `npm run bench`: figures, never pass/fail. Each section prints what it measured beside a baseline
 * measured in the same run, since machines are noisy.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { sealRequest, API } from '../src/contract';
import { launchBrowser, newPage } from '../tests/support/browser';
import { ROOT, startServer } from '../tests/support/server';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function loginPageWeight(): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-bench-web-'));
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], { cwd: ROOT, env: { ...process.env, BUILD_OUT_DIR: out } });
  const server = await startServer({ webRoot: out });
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser);
    const bodies: { url: string; gzip: number; raw: number }[] = [];
    const pending: Promise<void>[] = [];
    page.on('response', (res) => {
      const url = res.url();
      if (!/\.(js|css)(\?|$)/.test(url)) return;
      pending.push(
        res.body().then((body) => {
          bodies.push({ url, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
        }),
      );
    });
    await page.goto(`${server.url}/#/login`);
    await page.waitForSelector('[data-testid=login-submit]:not([disabled])');
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    const gzip = bodies.reduce((s, b) => s + b.gzip, 0);
    const raw = bodies.reduce((s, b) => s + b.raw, 0);
    console.log('\n(a) JS + CSS loaded before the login page is interactive');
    for (const b of bodies.sort((x, y) => y.gzip - x.gzip)) console.log(`    ${kb(b.gzip).padStart(9)} gzip  ${path.basename(new URL(b.url).pathname)}`);
    console.log(`    total: ${kb(gzip)} gzip (${kb(raw)} raw) in ${bodies.length} files — goal ≤ 300 KB`);
    const all = fs.readdirSync(path.join(out, 'assets')).filter((f) => /\.(js|css)$/.test(f));
    const allGzip = all.reduce((s, f) => s + zlib.gzipSync(fs.readFileSync(path.join(out, 'assets', f))).length, 0);
    console.log(`    whole build for comparison: ${kb(allGzip)} gzip in ${all.length} files (the rest loads on demand)`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function cannon(url: string): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 10), pipelining: 1 });
}

async function apiThroughput(): Promise<void> {
  const server = await startServer({ webRoot: '/nonexistent', env: { LOG_LEVEL: 'warn' } });
  const hello = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['bench/hello-server.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const helloUrl = await new Promise<string>((resolve) => hello.stdout!.once('data', (d) => resolve(String(d).trim())));
  try {
    const sealed = new URLSearchParams(sealRequest({}));
    const siteUrl = `${server.url}${API.site.site.path}?${sealed}`;
    const check = await (await fetch(siteUrl)).json();
    if (check.code !== 0) throw new Error(`site info failed: ${JSON.stringify(check)}`);
    await cannon(`${helloUrl}/hello`); // warm both up
    await cannon(siteUrl);
    const base = await cannon(`${helloUrl}/hello`);
    const site = await cannon(siteUrl);
    console.log('\n(b) site info through the signed envelope vs a bare Fastify hello-world (autocannon, 10 connections)');
    console.log(`    bare hello-world: ${base.requests.average.toFixed(0)} req/s, p99 ${base.latency.p99} ms`);
    console.log(`    site info (envelope, database, sealed reply): ${site.requests.average.toFixed(0)} req/s, p99 ${site.latency.p99} ms`);
    console.log(`    ratio: ${(site.requests.average / base.requests.average).toFixed(2)} of the bare server — goal ≥ 0.5`);
  } finally {
    hello.kill('SIGTERM');
    await server.stop();
  }
}

const SECTIONS: Record<string, () => Promise<void>> = { web: loginPageWeight, api: apiThroughput };

const only = process.argv.slice(2);
for (const [name, section] of Object.entries(SECTIONS)) {
  if (only.length && !only.includes(name)) continue;
  await section();
}
process.exit(0);
