import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectKeyRefused, expectTimeoutTransient, failureOf, PLAIN_SPEECH as PARAMS, scratchDir, toneMp3 } from '../../../tests/support/engine-spec';
import { startFishAudioPeer, type FishAudioPeer } from '../../../tests/support/peers/fish-audio-peer';
import { startLoopback } from '../../../tests/support/peers/loopback';
import { probe } from '../../infra/media-probe';
import { FISH_DEFAULT_MODEL } from './fish-audio';
import { createProviderEngine } from './providers';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice } from './speech-engine';

let peer: FishAudioPeer;
const { out, remove } = scratchDir('aisa-fish-spec-');
let sample: CloneSample;

const engine = (config: Partial<EngineConfig> = {}) => createProviderEngine('fish', { base_url: peer.url, api_key: peer.apiKey, ...config });

const failure = (promise: Promise<unknown>) => failureOf(SpeechEngineError, promise);

async function readyVoice(): Promise<EngineVoice> {
  const state = await engine().clone(sample);
  if (state.state !== 'ready') throw new Error(`expected a ready voice, got ${state.state}`);
  return state.voice;
}

beforeAll(async () => {
  peer = await startFishAudioPeer();
  const file = out('sample.mp3');
  await toneMp3(file, 12);
  sample = { file, ext: 'mp3', name: '我的声音', trainingKey: 'run-1' };
});

afterAll(async () => {
  await peer?.close();
  remove();
});

beforeEach(() => {
  Object.assign(peer, { trainingPolls: 0, failTraining: false, rateLimitNext: 0, serverErrorNext: 0, delayMs: 0 });
  peer.tts.length = 0;
});

describe('Fish Audio clone and training', () => {
  it('creates a private fast model from the sample over multipart, trains through the polls, then is ready', async () => {
    peer.trainingPolls = 2;
    const e = engine();
    const first = await e.clone(sample);
    expect(first.state).toBe('training');
    const remoteId = first.state === 'training' ? first.voice.remoteId : '';
    const model = peer.models.get(remoteId)!;
    expect(model).toMatchObject({ type: 'tts', title: '我的声音', trainMode: 'fast', visibility: 'private' });
    expect(model.voices).toEqual([{ filename: 'sample.mp3', type: 'audio/mpeg', size: fs.statSync(sample.file).size }]);

    expect(await e.trainingState(remoteId)).toEqual({ state: 'training', voice: { remoteId } });
    expect(await e.trainingState(remoteId)).toEqual({ state: 'training', voice: { remoteId } });
    expect(await e.trainingState(remoteId)).toEqual({ state: 'ready', voice: { remoteId } });
    expect(peer.requests.filter((r) => r.method === 'GET' && r.path === `/model/${remoteId}`)).toHaveLength(3);
  });

  it('is ready at once when Fish answers trained on creation', async () => {
    const state = await engine().clone(sample);
    expect(state.state).toBe('ready');
  });

  it('a failed training answers failed with a reason the user can act on', async () => {
    peer.trainingPolls = 1;
    peer.failTraining = true;
    const e = engine();
    const first = await e.clone(sample);
    const remoteId = first.state === 'training' ? first.voice.remoteId : '';
    expect(await e.trainingState(remoteId)).toMatchObject({ state: 'training' });
    const last = await e.trainingState(remoteId);
    expect(last.state).toBe('failed');
    expect(last.state === 'failed' && last.reason).toMatch(/训练失败/);
  });

  it('a model Fish no longer knows answers failed', async () => {
    const state = await engine().trainingState('0123456789abcdef0123456789abcdef');
    expect(state).toMatchObject({ state: 'failed' });
  });
});

describe('Fish Audio synthesis', () => {
  it('discards a model: gone from Fish, no longer speakable; discarding it again is no error', async () => {
    const voice = await readyVoice();
    await engine().discard!(voice);
    expect(peer.models.has(voice.remoteId)).toBe(false);
    expect(peer.requests.at(-1)).toEqual({ method: 'DELETE', path: `/model/${voice.remoteId}` });
    expect((await failure(engine().synthesize('你好', voice, PARAMS, out('gone.mp3')))).message).toMatch(/拒绝|不存在/);
    await engine().discard!(voice);
  });

  it('writes a playable mp3 and maps rate to prosody.speed, volume to dB; pitch is not sent', async () => {
    const voice = await readyVoice();
    const file = out('plain.mp3');
    await engine().synthesize('大家好，欢迎来到直播间。', voice, { ...PARAMS, rate: 1.5, volume: 2, pitch: 1.8 }, file);

    const probed = await probe(file, 'mp3');
    expect(probed.audio?.codec).toBe('mp3');
    expect(probed.duration).toBeGreaterThan(0);

    expect(peer.tts).toHaveLength(1);
    const call = peer.tts[0]!;
    expect(call.model).toBe(FISH_DEFAULT_MODEL);
    expect(call.body).toMatchObject({ text: '大家好，欢迎来到直播间。', reference_id: voice.remoteId, format: 'mp3' });
    const prosody = call.body.prosody as { speed: number; volume: number };
    expect(prosody.speed).toBe(1.5);
    expect(prosody.volume).toBeCloseTo(20 * Math.log10(2), 2);
    expect(JSON.stringify(call.body)).not.toMatch(/pitch/);
  });

  it('clamps the product ranges onto Fish ranges and sends the configured model header', async () => {
    const voice = await readyVoice();
    await engine({ model: 's1' }).synthesize('你好', voice, { ...PARAMS, rate: 0.5, volume: 0.1 }, out('quiet.mp3'));
    await engine().synthesize('你好', voice, { ...PARAMS, rate: 2, volume: 3 }, out('loud.mp3'));
    expect(peer.tts[0]!.model).toBe('s1');
    expect(peer.tts[0]!.body.prosody).toEqual({ speed: 0.5, volume: -20 });
    expect(peer.tts[1]!.body.prosody).toEqual({ speed: 2, volume: 9.54 });
  });

  it('speaks without reference_id when no voice is given (Fish’s default voice)', async () => {
    await engine().synthesize('你好', undefined, PARAMS, out('default.mp3'));
    expect(peer.tts[0]!.body).not.toHaveProperty('reference_id');
  });

  it('pause markers become real silence between separately spoken segments', async () => {
    const voice = await readyVoice();
    const single = out('single.mp3');
    const paused = out('paused.mp3');
    expect(await engine().synthesize('第一句', voice, PARAMS, single)).toEqual([{ text: '第一句', start: 0, end: expect.any(Number) }]);
    peer.tts.length = 0;
    const stretches = await engine().synthesize('<#0.5#>第一句<#1#>第二句<#0.3#><#0.2#>', voice, PARAMS, paused);

    // One call per text segment, markers never sent to Fish.
    expect(peer.tts.map((c) => c.body.text)).toEqual(['第一句', '第二句']);
    const one = (await probe(single, 'mp3')).duration;
    const total = (await probe(paused, 'mp3')).duration;
    const pauses = 0.5 + 1 + 0.3 + 0.2;
    expect(total).toBeGreaterThan(2 * one + pauses - 0.25);
    expect(total).toBeLessThan(2 * one + pauses + 0.25);
    expect((await probe(paused, 'mp3')).audio?.codec).toBe('mp3');
    // Each segment where it landed: its real length, the pauses' seconds between (the subtitles' times).
    expect(stretches.map((s) => s.text)).toEqual(['第一句', '第二句']);
    expect(stretches[0]!.start).toBeCloseTo(0.5, 2);
    expect(stretches[0]!.end - stretches[0]!.start).toBeCloseTo(one, 1);
    expect(stretches[1]!.start - stretches[0]!.end).toBeCloseTo(1, 2);
    expect(total - stretches[1]!.end).toBeCloseTo(0.5, 1);
  });

  it('refuses a script with nothing to speak', async () => {
    const err = await failure(engine().synthesize('<#1#> ', undefined, PARAMS, out('empty.mp3')));
    expect(err.message).toBe('文案不能为空');
  });
});

describe('Fish Audio errors', () => {
  it('a wrong key is a SpeechEngineError in Chinese, not worth retrying', async () => {
    const wrong = engine({ api_key: 'not-the-key' });
    await expectKeyRefused(() => wrong.synthesize('你好', undefined, PARAMS, out('x.mp3')), () => wrong.clone(sample));
  });

  it('rate limits and server errors are transient', async () => {
    peer.rateLimitNext = 1;
    const limited = await failure(engine().synthesize('你好', undefined, PARAMS, out('x.mp3')));
    expect(limited.message).toMatch(/频繁/);
    expect(limited.transient).toBe(true);

    peer.serverErrorNext = 1;
    const broken = await failure(engine().clone(sample));
    expect(broken.transient).toBe(true);
  });

  it('a slow answer past the channel timeout is transient', async () => {
    peer.delayMs = 400;
    await expectTimeoutTransient(() => engine({ timeout_ms: 100 }).synthesize('你好', undefined, PARAMS, out('x.mp3')));
  });

  it('an unreachable service is transient', async () => {
    const gone = await startLoopback(async () => {});
    await gone.close();
    const err = await failure(engine({ base_url: gone.url }).synthesize('你好', undefined, PARAMS, out('x.mp3')));
    expect(err.transient).toBe(true);
  });

  it('a channel without a key or base URL is refused by the factory', () => {
    expect(() => createProviderEngine('fish', { base_url: peer.url })).toThrow(new SpeechEngineError('该渠道尚未配置接口密钥'));
    expect(() => createProviderEngine('fish', { api_key: 'k', base_url: '  ' })).toThrow('该渠道尚未配置接口密钥');
    expect(() => createProviderEngine('minimax', { base_url: peer.url, api_key: '' })).toThrow(SpeechEngineError);
  });
});
