/**
 * `npm run bench`: figures, never pass/fail. Each section prints what it measured beside a baseline
 * measured in the same run, since machines are noisy.
 */
import { spawn, spawnSync, execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import autocannon from 'autocannon';
import { sealRequest, API, LIMITS, countChars, pauseSeconds } from '../src/contract';
import { launchBrowser, newPage, submitLogin } from '../tests/support/browser';
import { ROOT, startServer } from '../tests/support/server';
import { monotonicMicros, summarizeProfile } from './cpu-profile';
import { captionReaderSpeed } from './ocr';
import { employeeFirstAudio } from './employee';
import { inScratchDir } from './scratch-dir';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** What the browser actually received for each response (body as sent, i.e. compressed, plus headers), and its raw size. */
function recordTransfers(page: import('playwright-core').Page) {
  type Row = { url: string; sent: number; raw: number; encoding: string };
  const rows: Promise<Row | null>[] = [];
  page.on('requestfinished', (request) => {
    rows.push(
      (async () => {
        const sizes = await request.sizes();
        const response = await request.response();
        const raw = response ? (await response.body().catch(() => Buffer.alloc(0))).length : 0;
        const encoding = (response && (await response.headerValue('content-encoding'))) || 'identity';
        return { url: request.url(), sent: sizes.responseBodySize + sizes.responseHeadersSize, raw, encoding };
      })().catch(() => null), // a request still finishing when the browser closes
    );
  });
  return { take: async () => (await Promise.all(rows.splice(0))).filter((r): r is Row => r !== null) };
}

async function loginPageWeight(): Promise<void> {
  await inScratchDir('web', async (out) => {
    execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], { cwd: ROOT, env: { ...process.env, BUILD_OUT_DIR: out } });
    const server = await startServer({ webRoot: out, productCompilers: true });
    // What people download: the full browser.
    const browser = await launchBrowser([], 'full');
    try {
      await server.admin('user', 'create', '--username', '13800000999', '--password', 'abc123', '--credits', '0');
      const { page } = await newPage(browser);
      const transfers = recordTransfers(page);
      await page.goto(`${server.url}/#/login`);
      await page.waitForSelector('[data-testid=login-submit]:not([disabled])');
      await page.waitForLoadState('networkidle');
      const login = (await transfers.take()).filter((b) => /\.(js|css)(\?|$)/.test(b.url));
      const sent = login.reduce((s, b) => s + b.sent, 0);
      const raw = login.reduce((s, b) => s + b.raw, 0);
      console.log('\n(a) JS + CSS loaded before the login page is interactive (bytes actually sent, as the server encoded them)');
      for (const b of login.sort((x, y) => y.sent - x.sent)) console.log(`    ${kb(b.sent).padStart(9)} ${b.encoding.padEnd(8)} ${path.basename(new URL(b.url).pathname)}`);
      console.log(`    total: ${kb(sent)} sent (${kb(raw)} raw) in ${login.length} files — goal ≤ 300 KB`);

      // Then log in: everything /home moves over the wire (assets, API replies, media), as sent.
      await submitLogin(page, '13800000999', 'abc123');
      await page.waitForSelector('.dock-panel[data-route="/home"]');
      await page.waitForLoadState('networkidle');
      const home = [...login, ...(await transfers.take())];
      const homeSent = home.reduce((s, b) => s + b.sent, 0);
      const homeRaw = home.reduce((s, b) => s + b.raw, 0);
      const byEncoding = new Map<string, number>();
      for (const b of home) byEncoding.set(b.encoding, (byEncoding.get(b.encoding) ?? 0) + b.sent);
      console.log(`    /home after logging in: ${kb(homeSent)} sent for ${kb(homeRaw)} of content in ${home.length} responses (${[...byEncoding].map(([e, n]) => `${e} ${kb(n)}`).join(', ')})`);
      const all = fs.readdirSync(path.join(out, 'assets')).filter((f) => /\.(js|css)$/.test(f));
      const allGzip = all.reduce((s, f) => s + zlib.gzipSync(fs.readFileSync(path.join(out, 'assets', f))).length, 0);
      console.log(`    whole build for comparison: ${kb(allGzip)} gzip in ${all.length} files (the rest loads on demand)`);
    } finally {
      await browser.close();
      await server.stop();
    }
  });
}

function cannon(url: string): Promise<autocannon.Result> {
  return autocannon({ url, connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 10), pipelining: 1 });
}

async function apiThroughput(): Promise<void> {
  // BENCH_CPU_PROF=<dir>: the server runs under `node --cpu-prof`, and its profile of the measured load is summarized.
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : '';
  const server = await startServer({ webRoot: '/nonexistent', env: { LOG_LEVEL: 'warn' }, productCompilers: true, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
  const hello = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['bench/hello-server.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const helloUrl = await new Promise<string>((resolve) => hello.stdout!.once('data', (d) => resolve(String(d).trim())));
  try {
    const sealed = new URLSearchParams(sealRequest({}));
    const siteUrl = `${server.url}${API.site.site.path}?${sealed}`;
    const text = await (await fetch(siteUrl)).text();
    const check = JSON.parse(text);
    if (check.code !== 0) throw new Error(`site info failed: ${text}`);
    const sizedUrl = `${helloUrl}/sized?bytes=${Buffer.byteLength(text)}`;
    const openedUrl = `${helloUrl}/opened?bytes=${Buffer.byteLength(text)}&${sealed}`;
    await cannon(`${helloUrl}/hello`); // warm all up
    await cannon(sizedUrl);
    await cannon(openedUrl);
    await cannon(siteUrl);
    const base = await cannon(`${helloUrl}/hello`);
    const sized = await cannon(sizedUrl);
    const opened = await cannon(openedUrl);
    const loadFrom = monotonicMicros();
    const site = await cannon(siteUrl);
    const loadTo = monotonicMicros();
    console.log('\n(b) site info through the signed envelope vs a bare Fastify hello-world (autocannon, 10 connections)');
    console.log(`    bare hello-world: ${base.requests.average.toFixed(0)} req/s, p99 ${base.latency.p99} ms`);
    console.log(`    bare Fastify sending a reply of site info's size (${kb(Buffer.byteLength(text))}): ${sized.requests.average.toFixed(0)} req/s, p99 ${sized.latency.p99} ms`);
    console.log(`    bare Fastify opening the request's envelope (HMAC + AES-GCM), then the same reply: ${opened.requests.average.toFixed(0)} req/s, p99 ${opened.latency.p99} ms (${(opened.requests.average / base.requests.average).toFixed(2)} of the hello-world: the envelope's floor)`);
    console.log(`    site info (envelope, database, sealed reply): ${site.requests.average.toFixed(0)} req/s, p99 ${site.latency.p99} ms`);
    console.log(`    ratio: ${(site.requests.average / base.requests.average).toFixed(2)} of the bare server — goal ≥ 0.5; ${(site.requests.average / sized.requests.average).toFixed(2)} of the same-size bare reply; ${(site.requests.average / opened.requests.average).toFixed(2)} of the bare server that opens the envelope`);
    const [load1, load5] = os.loadavg() as [number, number];
    console.log(`    load average ${load1.toFixed(1)} / ${load5.toFixed(1)} (1 / 5 min) on ${os.cpus().length} cores`);
    if (profileDir) {
      hello.kill('SIGTERM');
      await server.stop();
      const endedAt = monotonicMicros();
      const written = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(profileDir, f));
      // The main thread's profile is the largest (tsx's loader thread writes one too).
      const newest = written.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
      if (newest) console.log(`    server CPU profile during the site-info load (${newest}):\n${summarizeProfile(newest, 20, { from: loadFrom, to: loadTo, endedAt })}`);
    }
  } finally {
    hello.kill('SIGTERM');
    await server.stop();
  }
}

/** Resident memory of a process, from /proc (bytes). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function bigUpload(): Promise<void> {
  const { ApiTestClient } = await import('../tests/support/app');
  const { signUpload } = await import('../tests/support/upload');
  const { TOKEN_HEADER, LIMITS, directUploadFields } = await import('../src/contract');
  await inScratchDir('up', async (dir) => {
    const file = path.join(dir, 'big.mp4');
    const size = LIMITS.video.maxBytes;
    // Incompressible bytes, written in chunks (the bench itself must not hold 500 MB either).
    const out = fs.openSync(file, 'w');
    const chunk = Buffer.alloc(8 * 1024 * 1024);
    for (let written = 0; written < size; written += chunk.length) fs.writeSync(out, (await import('node:crypto')).randomFillSync(chunk), 0, Math.min(chunk.length, size - written));
    fs.closeSync(out);

    const copyStart = performance.now();
    await pipeline(fs.createReadStream(file), fs.createWriteStream(path.join(dir, 'copy.bin')));
    const copySeconds = (performance.now() - copyStart) / 1000;
    fs.rmSync(path.join(dir, 'copy.bin'));

    const server = await startServer({ webRoot: '/nonexistent', env: { LOG_LEVEL: 'warn' }, productCompilers: true });
    try {
      await server.admin('user', 'create', '--username', '13800000000', '--password', 'abc123');
      const login = await new ApiTestClient(server.url).call(API.account.login, { username: '13800000000', password: 'abc123' });
      const client = new ApiTestClient(server.url, login.data.token);
      const sign = await signUpload(client, 'video');
      const pid = server.process.pid!;
      const before = rss(pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
      // curl sends the form, as a browser would: natively. (Node's own multipart encoder, not the server, was the limit.)
      const start = performance.now();
      const status = await new Promise<string>((resolve, reject) =>
        execFile('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `${TOKEN_HEADER}: ${login.data.token}`,
          ...directUploadFields(sign, `${sign.dir}${Date.now()}1.mp4`).flatMap(([k, v]) => ['-F', `${k}=${v}`]), '-F', `file=@${file}`, `${server.url}${sign.host}`],
        (err, stdout) => (err ? reject(err) : resolve(stdout))),
      );
      const res = { status };
      const seconds = (performance.now() - start) / 1000;
      clearInterval(sampler);
      const mb = size / 1024 / 1024;
      console.log('\n(c) a 500 MB upload through the local storage host');
      console.log(`    status ${res.status}; server memory ${(before / 1048576).toFixed(0)} MB before, peak ${(peak / 1048576).toFixed(0)} MB: growth ${((peak - before) / 1048576).toFixed(1)} MB — goal ≤ 64 MB`);
      console.log(`    upload ${(mb / seconds).toFixed(0)} MB/s (${seconds.toFixed(1)} s) beside a plain stream copy ${(mb / copySeconds).toFixed(0)} MB/s (${copySeconds.toFixed(1)} s): ratio ${(copySeconds / seconds).toFixed(2)} — goal ≥ 0.5`);
    } finally {
      await server.stop();
    }
  });
}

async function renderSpeed(): Promise<void> {
  const { makeVideo, makeAudio } = await import('../tests/support/media');
  const { prepareAvatar, renderTalkingVideo } = await import('../server/engines/render');
  const { ffmpeg } = await import('../server/infra/media-probe');
  await inScratchDir('render', async (dir) => {
    const avatar = makeVideo(path.join(dir, 'avatar.mp4'), { width: 1080, height: 1920, seconds: 10 });
    const speech = makeAudio(path.join(dir, 'speech.mp3'), { seconds: 60 });
    const prepStart = performance.now();
    const prepared = await prepareAvatar(avatar, 'mp4', dir);
    const prepSeconds = (performance.now() - prepStart) / 1000;
    const start = performance.now();
    const { duration } = await renderTalkingVideo(prepared.loop, speech, 'mp3', path.join(dir, 'work.mp4'));
    const seconds = (performance.now() - start) / 1000;
    const bareStart = performance.now();
    await ffmpeg(['-stream_loop', '-1', '-f', 'mov', '-i', prepared.normalized, '-f', 'mp3', '-i', speech, '-t', duration.toFixed(3), '-map', '0:v:0', '-map', '1:a:0',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', path.join(dir, 'bare.mp4')]);
    const bareSeconds = (performance.now() - bareStart) / 1000;
    console.log('\n(d) rendering a 60 s work from a 10 s portrait 1080p avatar on the local engine');
    console.log(`    render ${seconds.toFixed(2)} s for ${duration.toFixed(1)} s of video: ${(seconds / duration).toFixed(3)} of real time — goal ≤ 0.05`);
    console.log(`    bare ffmpeg encode of the same output: ${bareSeconds.toFixed(2)} s (${(bareSeconds / duration).toFixed(3)} of real time); ours is ${(bareSeconds / seconds).toFixed(1)}× faster`);
    console.log(`    one-time avatar preparation (normalize, covers, loop): ${prepSeconds.toFixed(1)} s`);
  });
}

/** A 1,000-character Chinese script (markers not counted) with a pause marker after every sentence. */
function benchScript(): string {
  const sentences = ['在这个快速发展的时代，人工智能正在改变我们的生活方式。', '数字人技术让每个人都可以拥有自己的虚拟形象。', '只需要一段视频和一段声音，就能制作专属的口播视频。', '从知识科普到产品介绍，内容创作变得前所未有的简单。'];
  const pauses = [0.3, 0.5, 1, 0.2];
  let script = '';
  for (let i = 0; countChars(script) < 1000; i++) script += `${sentences[i % sentences.length]}<#${pauses[i % pauses.length]}#>`;
  while (countChars(script) > 1000) script = script.replace(/<#[\d.]+#>$/, '').slice(0, -1);
  return script;
}

async function speechSpeed(): Promise<void> {
  const { OfflineSpeechEngine } = await import('../server/engines/speech/offline/offline-engine');
  const { ffmpeg, probe } = await import('../server/infra/media-probe');
  await inScratchDir('speech', async (dir) => {
    const engine = new OfflineSpeechEngine();
    const params = { rate: 1, volume: 1, pitch: 1, language: '', emotion: '' };
    try {
      const script = benchScript();
      const output = path.join(dir, 'speech.mp3');
      await engine.synthesize('预热', undefined, params, path.join(dir, 'warm.mp3')); // worker start and WASM compile, once per server
      const runs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        await engine.synthesize(script, undefined, params, output);
        runs.push((performance.now() - start) / 1000);
      }
      const seconds = runs.sort((a, b) => a - b)[1]!;
      const { duration } = await probe(output, 'mp3');
      const bareStart = performance.now();
      await ffmpeg(['-f', 'lavfi', '-i', `anullsrc=r=22050:cl=mono`, '-t', duration.toFixed(2), '-c:a', 'libmp3lame', '-b:a', '64k', '-compression_level', '7', path.join(dir, 'bare.mp3')]);
      const bareSeconds = (performance.now() - bareStart) / 1000;
      console.log(`\n(e) offline speech: a ${countChars(script)}-character Chinese script with ${pauseSeconds(script).toFixed(1)} s of pauses in ${(script.match(/<#/g) ?? []).length} markers`);
      console.log(`    synthesis ${seconds.toFixed(2)} s (median of 3) for ${duration.toFixed(1)} s of speech: ${(seconds / duration).toFixed(4)} of real time — goal ≤ 0.02`);
      console.log(`    of which an mp3 encode of that much audio alone takes ${bareSeconds.toFixed(2)} s (${(bareSeconds / duration).toFixed(4)} of real time)`);
    } finally {
      await engine.close();
    }
  });
}

/** From pressing submit (audition, then the work) to a playable 60 s single video, on the offline engines. */
async function submitToPlayable(): Promise<void> {
  const { ApiTestClient } = await import('../tests/support/app');
  const { uploadFile } = await import('../tests/support/upload');
  const { until } = await import('../tests/support/wait');
  const { makeVideo, makeSpeech } = await import('../tests/support/media');
  const { prepareAvatar, renderTalkingVideo } = await import('../server/engines/render');
  await inScratchDir('pipeline', async (dir) => {
    const server = await startServer({ webRoot: '/nonexistent', env: { LOG_LEVEL: 'warn' }, productCompilers: true });
    try {
      await server.admin('user', 'create', '--username', '13800000000', '--password', 'abc123', '--credits', '100000');
      const login = await new ApiTestClient(server.url).call(API.account.login, { username: '13800000000', password: 'abc123' });
      const client = new ApiTestClient(server.url, login.data.token);
      const video = await uploadFile(client, 'video', makeVideo(path.join(dir, 'avatar.mp4'), { width: 1080, height: 1920, seconds: 10 }));
      const avatar = await client.call(API.avatars.clone, { name: '主播', file_id: video.data.file_id });
      await server.admin('voice', 'publish', await makeSpeech(path.join(dir, 'sample.mp3'), '大家好，欢迎来到今天的节目，我们聊一聊数字人。'), '--name', '女声');
      await until(() => client.call(API.avatars.list, { source: 1, page: 1, limit: 10 }), (r) => r.data.list[0]?.status === 3, 120_000);
      const voices = await until(() => client.call(API.voices.list, { source: 2, page: 1, limit: 10 }), (r) => r.data.list.length > 0, 60_000);
      // About 60 s of speech: this voice speaks about 3.2 characters a second (the estimate's 4.2 is a mean).
      let script = '';
      while (countChars(script) < 60 * 3.2) script += '数字人技术让每个人都可以拥有自己的虚拟形象，轻松制作口播视频。';
      const poll = 100;

      const start = performance.now();
      const job = await client.call(API.voices.audition, { voice_id: voices.data.list[0].id, text: script, rate: 1, volume: 1, pitch: 1 });
      const heard = await until(() => client.call(API.voices.auditionPoll, { job_id: job.data.job_id }), (r) => r.data?.status === 3, 120_000, poll);
      const spoken = performance.now();
      const work = await client.call(API.works.create, { name: '一分钟', api: 'local', video_id: avatar.data.id, user_voice_id: voices.data.list[0].id, voice_id: heard.data.file_id, text: script });
      const done = await until(() => client.call(API.works.list, { page: 1, limit: 10 }), (r) => r.data.list.find((w: { id: number }) => w.id === work.data.id)?.status === 3, 300_000, poll);
      const finished = done.data.list.find((w: { id: number }) => w.id === work.data.id);
      const playable = (await fetch(`${server.url}${finished.url}`, { headers: { range: 'bytes=0-1023' } })).status;
      const total = (performance.now() - start) / 1000;
      const speechSeconds = (spoken - start) / 1000;

      // The render alone, on the same inputs, in this process.
      const audio = path.join(dir, 'speech.mp3');
      fs.writeFileSync(audio, Buffer.from(await (await fetch(`${server.url}${heard.data.url}`)).arrayBuffer()));
      const prepared = await prepareAvatar(path.join(dir, 'avatar.mp4'), 'mp4', dir);
      const renderStart = performance.now();
      await renderTalkingVideo(prepared.loop, audio, 'mp3', path.join(dir, 'alone.mp4'));
      const renderSeconds = (performance.now() - renderStart) / 1000;

      console.log(`\n(f) pressing submit to a playable ${finished.duration.toFixed(1)} s single video (offline speech + local engine; status ${playable})`);
      console.log(`    total ${total.toFixed(2)} s: speech ${speechSeconds.toFixed(2)} s (queue, synthesis, store), then the work ${(total - speechSeconds).toFixed(2)} s (queue, render, settle)`);
      console.log(`    the render alone on the same inputs: ${renderSeconds.toFixed(2)} s — pipeline overhead ${(total - renderSeconds).toFixed(2)} s (${(total / renderSeconds).toFixed(1)}× the render)`);
      console.log(`    a job sent by this process wakes its worker at once (other workers poll every JOB_POLL_SECONDS); the browser polls auditions every ${LIMITS.auditionPollMs / 1000} s and works every ${LIMITS.worksPollMs / 1000} s`);
    } finally {
      await server.stop();
    }
  });
}

/** A 60 s lip-synced 720p work from a real face on the offline lip-sync engine, and the avatar's one-time analysis. */
async function lipSyncSpeed(): Promise<void> {
  const { makeFaceVideo } = await import('../tests/support/face-media');
  const { makeSpeech } = await import('../tests/support/media');
  const { prepareAvatar, renderTalkingVideo } = await import('../server/engines/render');
  const { analyseAvatarFaces, closeLandmarkWorkers } = await import('../server/engines/lipsync');
  const { ffmpeg, probe } = await import('../server/infra/media-probe');
  await inScratchDir('lipsync', async (dir) => {
    try {
      const source = makeFaceVideo(path.join(dir, 'face.mp4'), { width: 720, height: 1280, seconds: 10 });
      const prepared = await prepareAvatar(source, 'mp4', dir);
      const sentence = await makeSpeech(path.join(dir, 'sentence.mp3'), '在这个快速发展的时代，人工智能正在改变我们的生活方式。数字人技术让每个人都可以拥有自己的虚拟形象。');
      const speech = path.join(dir, 'speech.mp3');
      await ffmpeg(['-stream_loop', '-1', '-f', 'mp3', '-i', sentence, '-t', '60', '-c:a', 'libmp3lame', '-b:a', '64k', speech]);
      const faces = path.join(dir, 'avatar.faces');
      await analyseAvatarFaces(prepared.normalized, path.join(dir, 'warm.faces')); // worker start and WASM compile, once per server
      const analysisCpu = process.cpuUsage(); // this process and its landmark worker threads
      const analysisStart = performance.now();
      const analysis = await analyseAvatarFaces(prepared.normalized, faces);
      const analysisSeconds = (performance.now() - analysisStart) / 1000;
      const analysisCpuSeconds = ((({ user, system }) => user + system)(process.cpuUsage(analysisCpu))) / 1e6;
      if (!analysis.found) throw new Error(`no face in the bench avatar: ${analysis.reason}`);
      // The render in a child under bash's `time`: wall, and user + system CPU including its ffmpeg processes.
      const timed = spawnSync('bash', ['-c', `TIMEFORMAT='%R %U %S'; time '${path.join(ROOT, 'node_modules/.bin/tsx')}' bench/lipsync-render.ts "$@"`, 'bash', prepared.normalized, faces, speech, path.join(dir, 'work.mp4')], { cwd: ROOT, encoding: 'utf8' });
      if (timed.status !== 0) throw new Error(`lip-sync render failed: ${timed.stderr}`);
      const { duration, timing, nodeCpu, peakMb } = JSON.parse(timed.stdout.trim().split('\n').pop()!) as { duration: number; nodeCpu: number; peakMb: number; timing: Record<'frames' | 'decode' | 'warp' | 'encode' | 'curve', number> };
      const [seconds, user, system] = timed.stderr.trim().split('\n').pop()!.split(' ').map(Number) as [number, number, number];
      const cpu = user + system;
      const loopStart = performance.now();
      await renderTalkingVideo(prepared.loop, speech, 'mp3', path.join(dir, 'looped.mp4'));
      const loopSeconds = (performance.now() - loopStart) / 1000;
      const { video } = await probe(path.join(dir, 'work.mp4'), 'mp4');
      const cores = os.cpus().length;
      const inLoop = timing.decode + timing.warp + timing.encode + timing.curve;
      const share = (s: number) => `${s.toFixed(1)} s (${((100 * s) / inLoop).toFixed(0)}%)`;
      const [load1, load5] = os.loadavg() as [number, number];
      console.log(`\n(g) a ${duration.toFixed(1)} s lip-synced ${video?.width}×${video?.height} work from a 10 s real-face avatar (offline lip-sync engine, ${cores} cores, load average ${load1.toFixed(1)} / ${load5.toFixed(1)} (1 / 5 min) after the render)`);
      console.log(`    render time / media time: ${(seconds / duration).toFixed(2)} wall (${seconds.toFixed(1)} s) — goal ≤ 1.0; ${(cpu / cores / duration).toFixed(2)} from CPU spent (${cpu.toFixed(1)} s over ${cores} cores), what ${cores} idle cores would need`);
      console.log(`    where the time goes:`);
      console.log(`      landmarks: none at render time (the avatar's face track is read from disk); found once per avatar at clone time, ${(analysisSeconds / analysis.seconds).toFixed(2)} s wall, ${(analysisCpuSeconds / analysis.seconds).toFixed(2)} s CPU per avatar second (every 2nd frame, 2 worker threads; ${analysisSeconds.toFixed(1)} s for this ${analysis.seconds.toFixed(0)} s avatar)`);
      console.log(`      CPU: per-frame work in Node (mouth warp, mouth curve) ${nodeCpu.toFixed(1)} s = ${((1000 * nodeCpu) / timing.frames).toFixed(1)} ms a frame; ffmpeg (decode + x264/AAC encode) ${(cpu - nodeCpu).toFixed(1)} s = ${((1000 * (cpu - nodeCpu)) / timing.frames).toFixed(1)} ms a frame`);
      console.log(`      the render loop's clock: mouth warp ${share(timing.warp)} (${((1000 * timing.warp) / timing.frames).toFixed(1)} ms a frame), waiting for the encoder ${share(timing.encode)}, waiting for decoded frames ${share(timing.decode)}, mouth curve ${share(timing.curve)}`);
      console.log(`    memory: the render process peaked at ${peakMb.toFixed(0)} MB resident for ${timing.frames} frames (${((timing.frames * (video?.width ?? 0) * (video?.height ?? 0) * 1.5) / 1048576).toFixed(0)} MB if it held them as raw frames)`);
      console.log(`    the loop render (no lip-sync, copied video) of the same audio: ${loopSeconds.toFixed(2)} s`);
    } finally {
      await closeLandmarkWorkers();
    }
  });
}

const SECTIONS: Record<string, () => Promise<void>> = { web: loginPageWeight, api: apiThroughput, upload: bigUpload, render: renderSpeed, speech: speechSpeed, pipeline: submitToPlayable, lipsync: lipSyncSpeed, ocr: captionReaderSpeed, employee: employeeFirstAudio };

const only = process.argv.slice(2);
for (const [name, section] of Object.entries(SECTIONS)) {
  if (only.length && !only.includes(name)) continue;
  await section();
}
process.exit(0);
