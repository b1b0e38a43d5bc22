import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectKeyRefused, expectTimeoutTransient, failureOf, PLAIN_SPEECH as PARAMS, scratchDir, toneMp3 as tone } from '../../../tests/support/engine-spec';
import { startMiniMaxPeer, type MiniMaxPeer } from '../../../tests/support/peers/minimax-peer';
import { probe } from '../../infra/media-probe';
import { MINIMAX_DEFAULT_MODEL, MINIMAX_DEFAULT_VOICE, minimaxVoiceId, planMiniMaxScript } from './minimax';
import { createProviderEngine } from './providers';
import { SpeechEngineError, type CloneSample, type EngineConfig, type EngineVoice, type SpeechParams } from './speech-engine';

const GROUP = '1900000000000000001';

let peer: MiniMaxPeer;
const { out, remove } = scratchDir('aisa-minimax-spec-');
let sample: CloneSample;
let shortSample: CloneSample;
let runs = 0;

const engine = (config: Partial<EngineConfig> = {}) => createProviderEngine('minimax', { base_url: peer.url, api_key: peer.apiKey, group_id: GROUP, ...config });
const nextKey = () => `3f2a9c1e-7b4d-4e8a-9f00-${String(++runs).padStart(12, '0')}`;

const failure = (promise: Promise<unknown>) => failureOf(SpeechEngineError, promise);

async function clonedVoice(): Promise<EngineVoice> {
  const state = await engine().clone({ ...sample, trainingKey: nextKey() });
  if (state.state !== 'ready') throw new Error(`expected a ready voice, got ${JSON.stringify(state)}`);
  return state.voice;
}

beforeAll(async () => {
  peer = await startMiniMaxPeer();
  await tone(out('sample.mp3'), 12);
  await tone(out('short.mp3'), 3);
  sample = { file: out('sample.mp3'), ext: 'mp3', name: '我的声音', trainingKey: '' };
  shortSample = { file: out('short.mp3'), ext: 'mp3', name: '太短', trainingKey: '' };
});

afterAll(async () => {
  await peer?.close();
  remove();
});

beforeEach(() => {
  Object.assign(peer, { rateLimitNext: 0, rateLimitCode: 1002, httpErrorNext: 0, cloneErrorCode: 0, delayMs: 0 });
  peer.t2a.length = 0;
  peer.groupIds.length = 0;
});

describe('MiniMax voice ids', () => {
  it('derives a stable voice_id MiniMax accepts from any training key', () => {
    for (const key of ['3f2a9c1e-7b4d-4e8a-9f00-123456789abc', 'ab', '', '声音训练-42', '_x_', 'A'.repeat(400)]) {
      const id = minimaxVoiceId(key);
      expect(id).toMatch(/^[A-Za-z][A-Za-z0-9]{7,255}$/);
      expect(minimaxVoiceId(key)).toBe(id);
    }
    expect(minimaxVoiceId('run-1')).not.toBe(minimaxVoiceId('run1'));
  });
});

describe('MiniMax clone', () => {
  it('uploads the sample, clones it under our voice_id and is ready at once', async () => {
    const key = nextKey();
    const e = engine();
    const state = await e.clone({ ...sample, trainingKey: key });
    expect(state).toEqual({ state: 'ready', voice: { remoteId: minimaxVoiceId(key) } });

    const uploaded = [...peer.files.values()].at(-1)!;
    expect(uploaded).toMatchObject({ purpose: 'voice_clone', filename: 'sample.mp3', size: fs.statSync(sample.file).size });
    // The int64 file id went back digit for digit (it is above 2^53 on the peer).
    const clone = peer.clones.at(-1)!;
    expect(clone.raw).toContain(`"file_id":${uploaded.id}`);
    expect(clone.body.voice_id).toBe(minimaxVoiceId(key));
    expect(peer.voices.has(minimaxVoiceId(key))).toBe(true);
    expect(peer.groupIds).toEqual([GROUP, GROUP]);

    expect(await e.trainingState(minimaxVoiceId(key))).toEqual({ state: 'ready', voice: { remoteId: minimaxVoiceId(key) } });
  });

  it('a retried clone of the same training run finds the voice it already made', async () => {
    const key = nextKey();
    const first = await engine().clone({ ...sample, trainingKey: key });
    const again = await engine().clone({ ...sample, trainingKey: key });
    expect(again).toEqual(first);
  });

  it('discards a cloned voice: MiniMax no longer has it, so it is no longer speakable', async () => {
    const key = nextKey();
    const state = await engine().clone({ ...sample, trainingKey: key });
    if (state.state !== 'ready') throw new Error(`expected a ready voice, got ${state.state}`);
    await engine().discard!(state.voice);
    expect(peer.voices.has(minimaxVoiceId(key))).toBe(false);
    expect(peer.requests.at(-1)).toEqual({ method: 'POST', path: '/v1/delete_voice' });
    expect((await failure(engine().synthesize('你好', state.voice, PARAMS, out('gone.mp3')))).message).toMatch(/重新克隆/);
  });

  it('a sample MiniMax refuses (too short) fails the clone with a reason', async () => {
    const state = await engine().clone({ ...shortSample, trainingKey: nextKey() });
    expect(state.state).toBe('failed');
    expect(state.state === 'failed' && state.reason).toMatch(/10 秒/);
  });

  it('an account without cloning rights is the channel’s error, not the sample’s', async () => {
    peer.cloneErrorCode = 2038;
    const err = await failure(engine().clone({ ...sample, trainingKey: nextKey() }));
    expect(err.message).toMatch(/实名认证/);
    expect(err.transient).toBe(false);
  });

  it('omits GroupId when the channel has none', async () => {
    await engine({ group_id: undefined }).clone({ ...sample, trainingKey: nextKey() });
    expect(peer.groupIds).toEqual(['', '']);
  });
});

describe('MiniMax synthesis', () => {
  it('passes the script with its pause markers, maps the params and writes a playable mp3', async () => {
    const voice = await clonedVoice();
    const file = out('plain.mp3');
    await engine().synthesize('大家好<#0.5#>欢迎光临<#1#><#1#>再见', voice, { rate: 1.25, volume: 2.5, pitch: 2, language: 'zh', emotion: 'happy' }, file);

    const probed = await probe(file, 'mp3');
    expect(probed.audio?.codec).toBe('mp3');
    expect(probed.duration).toBeGreaterThan(0);

    expect(peer.t2a).toHaveLength(1);
    expect(peer.t2a[0]).toEqual({
      model: MINIMAX_DEFAULT_MODEL,
      // Two markers in a row are one pause to MiniMax.
      text: '大家好<#0.5#>欢迎光临<#2#>再见',
      stream: false,
      voice_setting: { voice_id: voice.remoteId, speed: 1.25, vol: 2.5, pitch: 12, emotion: 'happy' },
      audio_setting: { format: 'mp3', sample_rate: 32000, bitrate: 128000, channel: 1 },
      language_boost: 'Chinese',
      output_format: 'hex',
    });
  });

  it('maps pitch onto semitones, neutral onto calm, default emotion and empty language onto MiniMax defaults', async () => {
    const voice = await clonedVoice();
    const cases: [Partial<SpeechParams>, Record<string, unknown>][] = [
      [{ pitch: 0.5, emotion: 'default' }, { pitch: -12 }],
      [{ pitch: 0.1, emotion: '' }, { pitch: -12 }],
      [{ pitch: 1.2, emotion: 'neutral' }, { pitch: 3, emotion: 'calm' }],
      [{ pitch: 1, volume: 0.1, rate: 0.5 }, { pitch: 0, vol: 0.1, speed: 0.5 }],
    ];
    for (const [params] of cases) await engine().synthesize('你好', voice, { ...PARAMS, ...params }, out('case.mp3'));
    cases.forEach(([, expected], i) => {
      const vs = peer.t2a[i]!.voice_setting as Record<string, unknown>;
      expect(vs).toMatchObject(expected);
      if (!('emotion' in expected)) expect(vs).not.toHaveProperty('emotion');
      expect(peer.t2a[i]!.language_boost).toBe('auto');
    });
  });

  it('uses the configured model and the default system voice when no voice is given', async () => {
    await engine({ model: 'speech-02-turbo' }).synthesize('你好', undefined, PARAMS, out('default.mp3'));
    expect(peer.t2a[0]).toMatchObject({ model: 'speech-02-turbo', voice_setting: { voice_id: MINIMAX_DEFAULT_VOICE } });
  });

  it('markers at either end become real silence (MiniMax only takes them between words)', async () => {
    const voice = await clonedVoice();
    const single = out('single.mp3');
    const padded = out('padded.mp3');
    await engine().synthesize('你好', voice, PARAMS, single);
    const stretches = await engine().synthesize('<#1#>你好<#0.5#>', voice, PARAMS, padded);
    expect(peer.t2a[1]!.text).toBe('你好');
    expect(stretches).toEqual([{ text: '你好', start: 1, end: expect.closeTo(1 + (await probe(single, 'mp3')).duration, 1) }]);
    const one = (await probe(single, 'mp3')).duration;
    const total = (await probe(padded, 'mp3')).duration;
    expect(total).toBeGreaterThan(one + 1.5 - 0.2);
    expect(total).toBeLessThan(one + 1.5 + 0.2);
  });

  it('speaks a script over the per-call limit in parts, cut at a marker', async () => {
    const voice = await clonedVoice();
    const script = `${'字'.repeat(6000)}<#0.5#>${'字'.repeat(6000)}`;
    expect(planMiniMaxScript(script)).toEqual([{ text: '字'.repeat(6000) }, { silence: 0.5 }, { text: '字'.repeat(6000) }]);
    const file = out('long.mp3');
    await engine().synthesize(script, voice, PARAMS, file);
    expect(peer.t2a.map((b) => (b.text as string).length)).toEqual([6000, 6000]);
    expect((await probe(file, 'mp3')).duration).toBeGreaterThan(2.3);
  });
});

describe('MiniMax errors', () => {
  it('a wrong key (1004 on HTTP 200) is a SpeechEngineError in Chinese, not worth retrying', async () => {
    const wrong = engine({ api_key: 'not-the-key' });
    await expectKeyRefused(() => wrong.synthesize('你好', undefined, PARAMS, out('x.mp3')), () => wrong.clone({ ...sample, trainingKey: nextKey() }));
  });

  it('rate limits (1002, 1039) and gateway errors are transient', async () => {
    peer.rateLimitNext = 1;
    const rpm = await failure(engine().synthesize('你好', undefined, PARAMS, out('x.mp3')));
    expect(rpm.message).toMatch(/频繁/);
    expect(rpm.transient).toBe(true);

    Object.assign(peer, { rateLimitNext: 1, rateLimitCode: 1039 });
    expect((await failure(engine().synthesize('你好', undefined, PARAMS, out('x.mp3')))).transient).toBe(true);

    peer.httpErrorNext = 1;
    expect((await failure(engine().clone({ ...sample, trainingKey: nextKey() }))).transient).toBe(true);
  });

  it('a voice MiniMax does not know is reported, not retried', async () => {
    const err = await failure(engine().synthesize('你好', { remoteId: 'aisaNoSuchVoice1' }, PARAMS, out('x.mp3')));
    expect(err.message).toMatch(/音色/);
    expect(err.transient).toBe(false);
  });

  it('a slow answer past the channel timeout is transient', async () => {
    peer.delayMs = 400;
    await expectTimeoutTransient(() => engine({ timeout_ms: 100 }).synthesize('你好', undefined, PARAMS, out('x.mp3')));
  });
});
