import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../tests/support/engine-spec';
import { startHeyGemPeer, type HeyGemPeer } from '../../../tests/support/peers/heygem-peer';
import { startLoopback } from '../../../tests/support/peers/loopback';
import { ffmpeg, probe } from '../../infra/media-probe';
import { HEYGEM_MSG, HeyGemEngine, type HeyGemConfig } from './heygem';
import { engineSlot, LipSyncEngineError, type RemoteTaskState } from './remote';

const AUDIO_SECONDS = 3;

let peer: HeyGemPeer;
let files: { url: string; close(): Promise<void> };
let dir: string;
let inputs: { audioUrl: string; videoUrl: string };
let codes = 0;

const engine = (config: Partial<HeyGemConfig> = {}) => new HeyGemEngine({ base_url: peer.url, ...config });
const task = (overrides: Partial<typeof inputs> = {}) => ({ code: `w1-${++codes}`, ...inputs, ...overrides });
const out = (name: string) => path.join(dir, name);

/** The call fails with a LipSyncEngineError whose message is Chinese for the user (never a raw crash). */
async function failure(promise: Promise<unknown>): Promise<LipSyncEngineError> {
  const err = await failureOf(LipSyncEngineError, promise);
  expect(err.message).toMatch(/^[\u4e00-\u9fff]/);
  return err;
}

/** Polls until the task leaves `running`, after the peer's work is over. */
async function finalState(code: string): Promise<RemoteTaskState> {
  await peer.settled();
  const e = engine();
  for (let i = 0; i < 20; i++) {
    const state = await e.query(code);
    if (state.state !== 'running') return state;
  }
  throw new Error('still running');
}

beforeAll(async () => {
  peer = await startHeyGemPeer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-heygem-spec-'));
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out('avatar.mp4')]);
  await ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=300:sample_rate=44100:duration=${AUDIO_SECONDS}`, '-c:a', 'libmp3lame', '-f', 'mp3', out('speech.mp3')]);
  // Our storage, as the engine reaches it: plain files over HTTP.
  files = await startLoopback(async (req, _body, res) => {
    const file = out(path.basename(new URL(req.url ?? '/', 'http://x').pathname));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200).end(fs.readFileSync(file));
  });
  inputs = { audioUrl: `${files.url}/speech.mp3`, videoUrl: `${files.url}/avatar.mp4` };
});

afterAll(async () => {
  await peer?.close();
  await files?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await peer.settled();
  peer.restart();
  Object.assign(peer, { progressSteps: 0, failWith: null, down: false, delayMs: 0, nextReply: null });
  peer.submissions.length = 0;
});

describe('HeyGem lip-sync: a job end to end', () => {
  it('submits the protocol body, reports progress while running, then done; the fetched result is a real mp4 of the audio’s length', async () => {
    peer.progressSteps = 2;
    const e = engine();
    const t = task();
    expect(await e.submit(t)).toEqual({ state: 'accepted' });
    expect(peer.submissions).toEqual([
      { code: 10000, body: { audio_url: inputs.audioUrl, video_url: inputs.videoUrl, code: t.code, chaofen: 0, watermark_switch: 0, pn: 1 } },
    ]);

    expect(await e.query(t.code)).toEqual({ state: 'running', progress: 33 });
    expect(await e.query(t.code)).toEqual({ state: 'running', progress: 66 });
    const done = await finalState(t.code);
    expect(done).toEqual({ state: 'done', result: `/${t.code}-r.mp4` });
    // The server forgets a task once it has answered done: the caller must keep the result location.
    expect(await e.query(t.code)).toEqual({ state: 'unknown' });

    const file = out('result.mp4');
    const { bytes } = await e.fetchResult(done.state === 'done' ? done.result : '', file);
    expect(bytes).toBe(fs.statSync(file).size);
    const probed = await probe(file, 'mp4');
    expect(probed.video).toMatchObject({ codec: 'h264', width: 320, height: 240 });
    expect(probed.audio?.codec).toBe('aac');
    expect(probed.duration).toBeGreaterThan(AUDIO_SECONDS - 0.3);
    expect(probed.duration).toBeLessThan(AUDIO_SECONDS + 0.3);
  });

  it('reads the result from a mounted result folder when the channel names one, by path or by file name', async () => {
    const t = task();
    await engine().submit(t);
    const done = await finalState(t.code);
    if (done.state !== 'done') throw new Error(`expected done, got ${done.state}`);
    const mounted = engine({ result_dir: peer.resultDir, base_url: 'http://127.0.0.1:9' });
    await mounted.fetchResult(done.result, out('mounted.mp4'));
    expect((await probe(out('mounted.mp4'), 'mp4')).video?.codec).toBe('h264');
    // Builds that answer a deeper path (e.g. /code/data/temp/<name>) are found by the file name.
    await mounted.fetchResult(`/code/data/temp${done.result}`, out('by-name.mp4'));
    expect(fs.statSync(out('by-name.mp4')).size).toBe(fs.statSync(out('mounted.mp4')).size);
  });

  it('follows a full result URL only inside the configured result folder', async () => {
    const t = task();
    await engine().submit(t);
    const done = await finalState(t.code);
    if (done.state !== 'done') throw new Error(`expected done, got ${done.state}`);
    await engine().fetchResult(`${peer.url}${done.result}`, out('full-url.mp4'));
    expect((await probe(out('full-url.mp4'), 'mp4')).duration).toBeGreaterThan(0);

    const elsewhere = await failure(engine().fetchResult(`http://169.254.169.254${done.result}`, out('x.mp4')));
    expect(elsewhere.message).toBe(HEYGEM_MSG.badReply);
    const climbing = await failure(engine({ result_dir: peer.resultDir }).fetchResult('/../../etc/passwd', out('x.mp4')));
    expect(climbing.message).toBe(HEYGEM_MSG.badReply);
    expect(fs.existsSync(out('x.mp4'))).toBe(false);
  });
});

describe('HeyGem lip-sync: one job at a time', () => {
  it('a submission while a job runs is answered busy (dropped by the server), and taken once the job has ended', async () => {
    peer.progressSteps = 1;
    const e = engine();
    const first = task();
    const second = task();
    expect(await e.submit(first)).toEqual({ state: 'accepted' });
    expect(await e.submit(second)).toEqual({ state: 'busy' });
    expect(peer.tasks.has(second.code)).toBe(false);
    expect(peer.submissions.map((s) => s.code)).toEqual([10000, 10001]);

    expect(await finalState(first.code)).toMatchObject({ state: 'done' });
    expect(await e.submit(second)).toEqual({ state: 'accepted' });
    expect(await finalState(second.code)).toMatchObject({ state: 'done' });
  });
});

describe('HeyGem lip-sync: failures', () => {
  it('a failed job answers failed with a Chinese reason; the server’s own message is kept for the log', async () => {
    peer.failWith = 'CUDA out of memory';
    const t = task();
    await engine().submit(t);
    expect(await finalState(t.code)).toEqual({ state: 'failed', reason: HEYGEM_MSG.failed, detail: 'CUDA out of memory' });
  });

  it('a job whose audio cannot be downloaded fails on the server', async () => {
    const t = task({ audioUrl: `${files.url}/gone.mp3` });
    expect(await engine().submit(t)).toEqual({ state: 'accepted' });
    const state = await finalState(t.code);
    expect(state).toMatchObject({ state: 'failed', reason: HEYGEM_MSG.failed });
    expect(state.state === 'failed' && state.detail).toMatch(/音频下载失败/);
  });

  it('query codes 9999, 10002 and 10003 count as failed', async () => {
    for (const code of [9999, 10002, 10003]) {
      peer.nextReply = { status: 200, contentType: 'text/html; charset=utf-8', body: JSON.stringify({ code, success: false, msg: '系统异常', data: {} }) };
      expect(await engine().query('w1-any')).toEqual({ state: 'failed', reason: HEYGEM_MSG.internalError, detail: `code ${code}: 系统异常` });
    }
  });

  it('a task the server does not know, or lost in a restart, is unknown', async () => {
    expect(await engine().query('never-submitted')).toEqual({ state: 'unknown' });
    peer.progressSteps = 3;
    const t = task();
    await engine().submit(t);
    expect(await engine().query(t.code)).toMatchObject({ state: 'running' });
    peer.restart();
    expect(await engine().query(t.code)).toEqual({ state: 'unknown' });
  });

  it('a submission the server refuses for its parameters is a permanent error; its system errors are transient', async () => {
    const refused = await failure(engine().submit(task({ audioUrl: '' })));
    expect(refused).toMatchObject({ message: HEYGEM_MSG.rejected, transient: false, detail: 'audio_url参数缺失' });

    peer.nextReply = { status: 200, contentType: 'text/html', body: JSON.stringify({ code: 9999, success: false, msg: '系统异常', data: {} }) };
    const broken = await failure(engine().submit(task()));
    expect(broken).toMatchObject({ message: HEYGEM_MSG.internalError, transient: true });
  });
});

describe('HeyGem lip-sync: the engine down or garbled', () => {
  it('dropped connections and a closed port are transient: 唇形合成服务无法连接', async () => {
    peer.down = true;
    const dropped = await failure(engine().query('w1-any'));
    expect(dropped).toMatchObject({ message: HEYGEM_MSG.unreachable, transient: true });
    expect(dropped.message).toMatch(/唇形合成服务无法连接/);

    const gone = await startLoopback(async () => {});
    await gone.close();
    const closed = await failure(engine({ base_url: gone.url }).submit(task()));
    expect(closed).toMatchObject({ message: HEYGEM_MSG.unreachable, transient: true });
  });

  it('an answer slower than the channel timeout is transient', async () => {
    peer.delayMs = 400;
    const err = await failure(engine({ timeout_ms: 100 }).query('w1-any'));
    expect(err).toMatchObject({ message: HEYGEM_MSG.timeout, transient: true });
  });

  it('replies that are not the protocol are clear errors, never crashes', async () => {
    const cases: [HeyGemPeer['nextReply'], string, boolean][] = [
      [{ status: 200, contentType: 'text/html', body: '<html><body>nginx</body></html>' }, HEYGEM_MSG.badReply, true],
      [{ status: 200, contentType: 'text/html', body: '[1,2]' }, HEYGEM_MSG.badReply, true],
      [{ status: 200, contentType: 'text/html', body: JSON.stringify({ code: '10000', data: {} }) }, HEYGEM_MSG.badReply, true],
      [{ status: 200, contentType: 'text/html', body: JSON.stringify({ code: 10000, success: true, msg: '', data: { status: 9 } }) }, HEYGEM_MSG.badReply, true],
      [{ status: 200, contentType: 'text/html', body: JSON.stringify({ code: 10000, success: true, msg: '', data: { status: 2, result: '' } }) }, HEYGEM_MSG.badReply, true],
      [{ status: 200, contentType: 'text/html', body: JSON.stringify({ code: 12345, success: true, msg: '', data: {} }) }, HEYGEM_MSG.badReply, true],
      [{ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' }, HEYGEM_MSG.unavailable, true],
      [{ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' }, HEYGEM_MSG.misconfigured, false],
    ];
    for (const [reply, message, transient] of cases) {
      peer.nextReply = reply;
      const err = await failure(engine().query('w1-any'));
      expect({ body: reply!.body, message: err.message, transient: err.transient }).toEqual({ body: reply!.body, message, transient });
    }
  });

  it('progress out of range is clamped, and missing progress reads 0', async () => {
    peer.nextReply = { status: 200, contentType: 'text/html', body: JSON.stringify({ code: 10000, data: { status: 1, progress: 140 } }) };
    expect(await engine().query('a')).toEqual({ state: 'running', progress: 100 });
    peer.nextReply = { status: 200, contentType: 'text/html', body: JSON.stringify({ code: 10000, data: { status: 1 } }) };
    expect(await engine().query('a')).toEqual({ state: 'running', progress: 0 });
  });

  it('a result that is missing or not a video is refused, leaving no file behind', async () => {
    const missing = await failure(engine().fetchResult('/nothing-r.mp4', out('missing.mp4')));
    expect(missing).toMatchObject({ message: HEYGEM_MSG.resultMissing, transient: false });
    const missingMounted = await failure(engine({ result_dir: peer.resultDir }).fetchResult('/nothing-r.mp4', out('missing.mp4')));
    expect(missingMounted.message).toBe(HEYGEM_MSG.resultMissing);

    fs.writeFileSync(path.join(peer.resultDir, 'junk-r.mp4'), '<html>error</html>');
    const junk = await failure(engine().fetchResult('/junk-r.mp4', out('junk.mp4')));
    expect(junk).toMatchObject({ message: HEYGEM_MSG.resultInvalid, transient: false });
    expect(fs.existsSync(out('junk.mp4'))).toBe(false);

    peer.down = true;
    const down = await failure(engine().fetchResult('/any-r.mp4', out('down.mp4')));
    expect(down).toMatchObject({ message: HEYGEM_MSG.unreachable, transient: true });
  });

  it('a channel without a usable base URL is refused when the engine is made', () => {
    expect(() => new HeyGemEngine({})).toThrow(new LipSyncEngineError(HEYGEM_MSG.notConfigured));
    expect(() => new HeyGemEngine({ base_url: 'ftp://gpu:8383' })).toThrow(HEYGEM_MSG.misconfigured);
    expect(() => new HeyGemEngine({ base_url: 'http://gpu:8383', result_url: 'not a url' })).toThrow(HEYGEM_MSG.misconfigured);
  });
});

describe('engine slots (per-engine concurrency, first come first served)', () => {
  it('starts while a slot is free and nobody waits longer; otherwise answers the place in line', () => {
    expect(engineSlot(1, 0, 0)).toEqual({ start: true });
    expect(engineSlot(1, 1, 0)).toEqual({ start: false, position: 1 });
    expect(engineSlot(1, 1, 2)).toEqual({ start: false, position: 3 });
    expect(engineSlot(1, 0, 1)).toEqual({ start: false, position: 1 });
    expect(engineSlot(3, 1, 1)).toEqual({ start: true });
    expect(engineSlot(3, 1, 2)).toEqual({ start: false, position: 1 });
    expect(engineSlot(0, 0, 0)).toEqual({ start: true });
    expect(engineSlot(0, 1, 0)).toEqual({ start: false, position: 1 });
  });
});
