import path from 'node:path';
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, CLONING_SERVER_MSG, CLONING_SERVER_UPLOAD_TIPS } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type TestApp } from '../../../tests/support/app';
import { makeSilence, makeSpeech, makeVideo, mediaDir, silencesIn, soundOf } from '../../../tests/support/media';
import { startLoopback } from '../../../tests/support/peers/loopback';
import { FISH_SPEECH_PEER_TEXT, startFishSpeechPeer } from '../../../tests/support/peers/fish-speech-peer';
import { startGptSovitsPeer } from '../../../tests/support/peers/gpt-sovits-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { until } from '../../../tests/support/wait';
import { auditionVoice, cloneVoice, creditsOf, downloadTo, expectCloneRefunded, trained, voicesOf } from '../../../tests/support/voices';
import { FISH_SPEECH_TEXT_LIMIT } from '../../engines/speech';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const SAMPLE_TEXT = '大家好，我是今天的主持人。欢迎来到我们的节目，今天我们来聊一聊人工智能和数字人的故事。';
/** Two pauses between three spoken stretches. */
const PAUSED = '你好，欢迎使用超级分身。<#1.5#>今天我们聊聊声音克隆。<#0.8#>再见。';
const SENTENCE = '今天我们来聊一聊数字人和声音克隆的故事。';
let sample: string;

beforeAll(async () => {
  sample = await makeSpeech(path.join(dir, 'sample.mp3'), SAMPLE_TEXT);
}, 60_000);

/** An address where nothing listens: a loopback server started and closed again. */
async function deadUrl(): Promise<string> {
  const loop = await startLoopback(async () => {});
  await loop.close();
  return loop.url;
}

/** Expects the result to hold silences of these lengths (±0.15 s), in order, and no other silence of 0.3 s or more. */
function expectPauses(file: string, seconds: number[]): void {
  const found = silencesIn(file, { minSeconds: 0.3 }).map((s) => s.duration);
  expect(found).toHaveLength(seconds.length);
  seconds.forEach((s, i) => expect(Math.abs(found[i]! - s)).toBeLessThan(0.15));
}

const reasonOf = async (t: TestApp, jobId: string) =>
  (await t.app.ctx.db.query<{ reason: string }>('SELECT reason FROM speech_jobs WHERE id = $1', [jobId])).rows[0]!.reason;

describe.each(DB_KINDS)('voices on self-hosted cloning servers, against their protocol peers (%s)', (kind) => {
  const fishSpeech = usePeer(startFishSpeechPeer);
  const sovits = usePeer(startGptSovitsPeer);
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15910000001', '15910000002'], 1000);
  let fishVoice: number;

  const setHs = (settings: Record<string, unknown>) => t.operator(API.admin.channelSet, { api: 'hs', kind: 'voice', ...settings });

  it('enables a cloning-server channel only with an address and a shared folder; users then see it with its own tips', async () => {
    expect((await a.call(API.voices.channels, {})).data.list.map((c: any) => c.api)).toEqual(['local']);
    expect(await setHs({ enabled: 'true' })).toMatchObject({ code: 1 });
    expect(await setHs({ enabled: 'true', base_url: fishSpeech.url })).toMatchObject({ code: 1, msg: expect.stringContaining('--share-dir') });
    // A refused change keeps nothing: the address is given again with the folder.
    expect(await setHs({ enabled: 'true', base_url: fishSpeech.url, share_dir: fishSpeech.dataDir, credits: 30 })).toMatchObject({ code: 0, data: { engine: 'fishspeech', enabled: true } });
    const reply = await t.operator(API.admin.channelSet, {
      api: 'kyy', kind: 'voice', enabled: 'true', base_url: sovits.url, share_dir: sovits.shareDir, server_dir: sovits.serverDir, credits: 20,
    });
    expect(reply).toMatchObject({ code: 0, data: { engine: 'gptsovits', configured: expect.arrayContaining(['base_url', 'share_dir', 'server_dir']) } });
    const list = (await a.call(API.voices.channels, {})).data.list as any[];
    expect(list.map((c) => c.api)).toEqual(['hs', 'kyy', 'local']);
    expect(list[0]).toMatchObject({ credits: 30, free_times: 0, upload_tips: CLONING_SERVER_UPLOAD_TIPS.fishspeech });
    expect(list[1]).toMatchObject({ credits: 20, upload_tips: CLONING_SERVER_UPLOAD_TIPS.gptsovits });
  });

  it('fish-speech: clone → trained with the server\'s prepared reference → audition with pauses as measured silence', { timeout: 120_000 }, async () => {
    const made = await cloneVoice(a, sample, 'fish-speech 声音', 'hs');
    expect(made.code).toBe(0);
    fishVoice = made.data.id;
    expect(await creditsOf(a)).toBe(970);
    expect(await trained(a, fishVoice)).toMatchObject({ generate_status: 2, api: 'hs', voice_channel_name: '本地克隆 fish-speech' });
    // The sample went into the shared volume, named relative to it, as Duix.Avatar's client names it.
    const training = fishSpeech.trainings.at(-1)!;
    expect(training).toMatchObject({ format: 'wav', lang: 'zh', reference_audio: expect.stringMatching(/^origin_audio\/aisa-.+\.wav$/) });
    expect(fs.existsSync(path.join(fishSpeech.dataDir, training.reference_audio as string))).toBe(true);

    const heard = await auditionVoice(a, fishVoice, PAUSED);
    expect(heard.status).toBe(3);
    const calls = fishSpeech.invokes.slice(-3);
    expect(calls.map((c) => c.text)).toEqual(['你好，欢迎使用超级分身。', '今天我们聊聊声音克隆。', '再见。']);
    const [prepared] = [...fishSpeech.prepared.keys()];
    for (const call of calls) expect(call).toMatchObject({ format: 'wav', streaming: false, reference_audio: prepared, reference_text: FISH_SPEECH_PEER_TEXT });
    expectPauses(await downloadTo(t, heard.url, dir), [1.5, 0.8]);
  });

  it('fish-speech: speed by ffmpeg; a long script goes in parts cut at sentence ends; a text work speaks with the voice', { timeout: 400_000 }, async () => {
    const plain = await auditionVoice(a, fishVoice, '声音克隆的速度测试。');
    const fast = await auditionVoice(a, fishVoice, '声音克隆的速度测试。', { rate: 2, volume: 1.5, pitch: 1.2 });
    const seconds = async (url: string) => (await probe(await downloadTo(t, url, dir), 'mp3')).duration;
    expect((await seconds(fast.url)) / (await seconds(plain.url))).toBeGreaterThan(0.4);
    expect((await seconds(fast.url)) / (await seconds(plain.url))).toBeLessThan(0.6);

    const before = fishSpeech.invokes.length;
    const long = SENTENCE.repeat(25);
    const heard = await auditionVoice(a, fishVoice, long);
    expect(heard.status).toBe(3);
    const parts = fishSpeech.invokes.slice(before).map((c) => c.text as string);
    expect(parts.length).toBe(Math.ceil(long.length / FISH_SPEECH_TEXT_LIMIT));
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(FISH_SPEECH_TEXT_LIMIT);
      expect(part.endsWith('。')).toBe(true);
    }
    expect(parts.join('')).toBe(long);
    // Joined without gaps: no silence inside, and the length is the parts' (0.12 s a character at the peer).
    const file = await downloadTo(t, heard.url, dir);
    expect(silencesIn(file, { minSeconds: 0.1 })).toEqual([]);
    expect(Math.abs((await probe(file, 'mp3')).duration - long.length * 0.12)).toBeLessThan(1);

    // An avatar as a clone leaves it (cloning is tested in avatars.spec.ts).
    const avatarId = await readyAvatar(t, a, makeVideo(path.join(dir, 'a.mp4'), { width: 640, height: 360, seconds: 5 }));
    const avatars = await a.call(API.avatars.list, { source: 1, page: 1, limit: 10 });
    expect(avatars.data.list[0]).toMatchObject({ id: avatarId, status: 3 });
    const work = await a.call(API.works.create, { name: '克隆声音成片', api: 'local', video_id: avatarId, user_voice_id: fishVoice, text: PAUSED });
    expect(work).toMatchObject({ code: 0 });
    const done = await until(() => a.call(API.works.list, { page: 1, limit: 10 }), (r) => r.data.list[0]?.status >= 3, 120_000);
    expect(done.data.list[0]).toMatchObject({ status: 3 });
    const mp4 = await downloadTo(t, done.data.list[0].url, dir, 'mp4');
    const audio = soundOf(mp4, path.join(dir, 'work.wav'));
    expectPauses(audio, [1.5, 0.8]);
  });

  it('fish-speech: a refused sample fails the voice with its reason and returns the credits', { timeout: 120_000 }, async () => {
    fishSpeech.failTraining = true;
    const before = await creditsOf(a);
    try {
      const made = await cloneVoice(a, sample, '失败的', 'hs');
      expect(await trained(a, made.data.id)).toMatchObject({ generate_status: 3, reason: CLONING_SERVER_MSG.trainingFailed });
      await expectCloneRefunded(a, 30);
      expect(await creditsOf(a)).toBe(before);
    } finally {
      fishSpeech.failTraining = false;
    }
  });

  it('fish-speech: a slow synthesis times out with its reason; a down server fails clones (refunded) and auditions clearly', { timeout: 180_000 }, async () => {
    await setHs({ timeout_ms: 1000 });
    fishSpeech.delayMs = 2500;
    try {
      const slow = await auditionVoice(a, fishVoice, '你好。', {}, 120_000);
      expect(slow.status).toBe(4);
      expect(await reasonOf(t, slow.job_id)).toBe(CLONING_SERVER_MSG.timeout);
    } finally {
      fishSpeech.delayMs = 0;
      await setHs({ timeout_ms: 120_000 });
    }

    await setHs({ base_url: await deadUrl() });
    const before = await creditsOf(a);
    try {
      const made = await cloneVoice(a, sample, '连不上', 'hs');
      const failed = await until(() => voicesOf(a), (v) => v.list.find((x) => x.id === made.data.id)?.generate_status !== 1, 120_000);
      expect(failed.list.find((x) => x.id === made.data.id)).toMatchObject({ generate_status: 3, reason: CLONING_SERVER_MSG.unreachable });
      await expectCloneRefunded(a, 30);
      expect(await creditsOf(a)).toBe(before);
      const down = await auditionVoice(a, fishVoice, '你好。', {}, 120_000);
      expect(down.status).toBe(4);
      expect(await reasonOf(t, down.job_id)).toBe(CLONING_SERVER_MSG.unreachable);
    } finally {
      await setHs({ base_url: fishSpeech.url });
    }
  });

  it('keeps users apart: B never sees nor speaks with A\'s cloned voice, and B\'s clone has its own reference', { timeout: 120_000 }, async () => {
    expect((await voicesOf(b)).list).toEqual([]);
    expect((await b.call(API.voices.audition, { voice_id: fishVoice, text: '借用一下' })).code).toBe(1);
    expect((await b.call(API.works.create, { name: 'x', api: 'local', video_id: 1, user_voice_id: fishVoice, text: '你好' })).code).toBe(1);
    const own = await cloneVoice(b, sample, 'B 的声音', 'hs');
    expect(await trained(b, own.data.id)).toMatchObject({ generate_status: 2 });
    expect((await voicesOf(b)).list.map((v) => v.id)).toEqual([own.data.id]);
    expect((await voicesOf(a)).list.map((v) => v.id)).not.toContain(own.data.id);
    await auditionVoice(b, own.data.id, '这是我的声音。');
    const references = [...fishSpeech.prepared.keys()];
    expect(fishSpeech.invokes.at(-1)!.reference_audio).toBe(references.at(-1));
    expect(references.at(-1)).not.toBe(references[0]);
  });

  it('GPT-SoVITS: the clip goes to the shared folder and the server loads it; speed is the server\'s, pauses are silence', { timeout: 120_000 }, async () => {
    const made = await cloneVoice(a, sample, 'GPT-SoVITS 声音', 'kyy');
    expect(await trained(a, made.data.id)).toMatchObject({ generate_status: 2, api: 'kyy' });
    const reference = sovits.references.at(-1)!;
    expect(reference).toMatch(new RegExp(`^${sovits.serverDir}/aisa-voices/aisa-.+\\.wav$`));
    const clip = path.join(sovits.shareDir, reference.slice(sovits.serverDir.length + 1));
    const clipSeconds = (await probe(clip, 'wav')).duration;
    expect(clipSeconds).toBeGreaterThanOrEqual(3);
    expect(clipSeconds).toBeLessThanOrEqual(10);

    const heard = await auditionVoice(a, made.data.id, PAUSED, { rate: 1.5, language: 'zh' });
    expect(heard.status).toBe(3);
    const calls = sovits.tts.slice(-3);
    expect(calls.map((c) => c.text)).toEqual(['你好，欢迎使用超级分身。', '今天我们聊聊声音克隆。', '再见。']);
    for (const call of calls) expect(call).toMatchObject({ ref_audio_path: reference, text_lang: 'zh', speed_factor: 1.5, media_type: 'wav', streaming_mode: false });
    // The pauses keep their length: the speed applies to speech only.
    expectPauses(await downloadTo(t, heard.url, dir), [1.5, 0.8]);
  });

  it('GPT-SoVITS: a sample without 3 s of speech, or a clip the server cannot load, fails with its reason and is refunded', { timeout: 120_000 }, async () => {
    const before = await creditsOf(a);
    const silent = await cloneVoice(a, makeSilence(path.join(dir, 'silence.mp3'), 8), '无声', 'kyy');
    expect(await trained(a, silent.data.id)).toMatchObject({ generate_status: 3, reason: CLONING_SERVER_MSG.referenceTooShort });
    sovits.failReference = true;
    try {
      const refused = await cloneVoice(a, sample, '读不了', 'kyy');
      expect(await trained(a, refused.data.id)).toMatchObject({ generate_status: 3, reason: CLONING_SERVER_MSG.trainingFailed });
    } finally {
      sovits.failReference = false;
    }
    expect(await creditsOf(a)).toBe(before);
  });
});
