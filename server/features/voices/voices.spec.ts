import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, TOKEN_HEADER, VOICE_TYPE_NAME_LOCKED } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type TestApp } from '../../../tests/support/app';
import { makeAudio, makeSilence, makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { readyAvatar } from '../../../tests/support/ready-avatar';
import { uploadFile } from '../../../tests/support/upload';
import { until } from '../../../tests/support/wait';
import { auditionVoice as audition, cloneVoice as clone, creditsOf as credits, downloadTo, expectCloneRefunded, trained as ready, voicesOf as voices } from '../../../tests/support/voices';
import { startFishAudioPeer } from '../../../tests/support/peers/fish-audio-peer';
import { startMiniMaxPeer } from '../../../tests/support/peers/minimax-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { configFromEnv, ConfigError } from '../../infra/config';
import { fetchHead } from '../../../tests/support/fetch';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const SAMPLE_TEXT = '大家好，我是今天的主持人。欢迎来到我们的节目，今天我们来聊一聊人工智能和数字人的故事。';
let sample: string;
let lowSample: string;

beforeAll(async () => {
  sample = await makeSpeech(path.join(dir, 'sample.mp3'), SAMPLE_TEXT);
  lowSample = await makeSpeech(path.join(dir, 'low.mp3'), SAMPLE_TEXT, { pitch: 0.3, rate: 0.7 });
}, 60_000);

async function durationOf(t: TestApp, url: string): Promise<number> {
  return (await probe(await downloadTo(t, url, dir), 'mp3')).duration;
}

describe.each(DB_KINDS)('voices on the offline engine (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15900000001', '15900000002'], 1000);
  let voiceId: number;

  it('lists the enabled voice channels with their prices and this user\'s free times', async () => {
    const { data } = await a.call(API.voices.channels, {});
    expect(data.list.map((c: any) => c.api)).toEqual(['local']);
    expect(data.list[0]).toMatchObject({ api: 'local', credits: 0, train_times: 3 });
    expect(data.list[0].desc).toContain('不复制音色');
    expect((await a.call(API.voices.language, { api: 'local' })).data.language.map((l: any) => l.value)).toEqual(['zh', 'en']);
    expect((await a.call(API.voices.language, { api: 'fish' })).data.language).toEqual([]);
  });

  it('clones a voice: training, then usable with the sample\'s measured pitch and pace', async () => {
    const reply = await clone(a, sample);
    expect(reply.code).toBe(0);
    voiceId = reply.data.id;
    const listed = await voices(a);
    expect(listed.list[0]).toMatchObject({ id: voiceId, name: '我的声音', api: 'local', source: 1, voice_channel_name: '离线声音', version_name: '1.0' });
    const voice = await ready(a, voiceId);
    expect(voice).toMatchObject({ generate_status: 2, remained_times: 3, confirmed: 0 });
    expect((await voices(a)).generate).toBe(0);
    expect((await fetchHead(`${t.url}${voice.url}`)).status).toBe(200);
    expect(await credits(a)).toBe(1000);
  });

  it('refuses bad clone requests with the spec\'s messages and charges nothing', async () => {
    const upload = await uploadFile(a, 'voice', sample);
    expect(await a.call(API.voices.create, { name: '', file_id: upload.data.file_id, api: 'local' })).toMatchObject({ code: 1, msg: MSG.voiceNameRequired });
    expect(await a.call(API.voices.create, { name: '声音', api: 'local' })).toMatchObject({ code: 1, msg: MSG.voiceAudioRequired });
    expect(await a.call(API.voices.create, { name: '声音', file_id: upload.data.file_id, api: 'fish' })).toMatchObject({ code: 1, msg: MSG.channelUnavailable });
    const video = await uploadFile(a, 'video', makeVideo(path.join(dir, 'v.mp4'), { seconds: 6 }));
    expect(await a.call(API.voices.create, { name: '声音', file_id: video.data.file_id, api: 'local' })).toMatchObject({ code: 1, msg: MSG.voiceAudioRequired });
    // Not audio, too short, too large: refused at upload, nothing kept.
    expect((await uploadFile(a, 'voice', Buffer.from('<html>not audio</html>'))).msg).toBe(MSG.fileUnrecognized('voice'));
    expect((await uploadFile(a, 'voice', makeAudio(path.join(dir, 'short.mp3'), { seconds: 2 }))).msg).toBe(MSG.audioDurationInvalid);
    const truncated = fs.readFileSync(sample).subarray(0, 200);
    expect((await uploadFile(a, 'voice', truncated)).code).toBe(1);
    expect(await credits(a)).toBe(1000);
  });

  it('fails a sample with no voice in it, with a reason, and refunds a paid clone', async () => {
    await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', credits: 20, free_times: 1 });
    try {
      const free = await clone(a, makeSilence(path.join(dir, 'silence.mp3'), 8), '静音');
      const failed = await ready(a, free.data.id);
      expect(failed).toMatchObject({ generate_status: 3 });
      expect(failed.reason).toContain('人声');
      // Its owner finds it in the bell too, as they find the voice that trained.
      const bell = (await a.call(API.notice.list, {})).data.list as { title: string; desc: string }[];
      expect(bell.find((n) => n.title === MSG.voiceCloneFailed('静音'))?.desc).toBe(`原因：${failed.reason}`);
      expect(bell.map((n) => n.title)).toContain(MSG.voiceCloneReady('我的声音'));
      // A failed free clone gives its free time back.
      expect((await a.call(API.voices.channels, {})).data.list[0]).toMatchObject({ credits: 20, free_times: 1 });

      const freeOk = await clone(a, sample, '免费');
      await ready(a, freeOk.data.id);
      expect(await credits(a)).toBe(1000);
      expect((await a.call(API.voices.channels, {})).data.list[0].free_times).toBe(0);

      const paid = await clone(a, makeSilence(path.join(dir, 'silence2.mp3'), 8), '付费静音');
      expect(await ready(a, paid.data.id)).toMatchObject({ generate_status: 3 });
      await expectCloneRefunded(a, 20);
      expect(await credits(a)).toBe(1000);
      const log = (await a.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string; credits: number }[];
      expect(log.filter((l) => l.action_name.includes('声音克隆')).map((l) => l.credits).sort()).toEqual([-20, 20].sort());

      const poor = await t.user('15900000003', 5);
      await clone(poor, sample, '一');
      const noCredits = await clone(poor, sample, '二');
      expect(noCredits).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
      expect((await voices(poor)).list).toHaveLength(1);
    } finally {
      await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', credits: 0, free_times: 0 });
    }
  });

  it('modifies a voice while modifications remain, never a training one, never on channel xf', async () => {
    const upload = await uploadFile(a, 'voice', lowSample);
    // The training waits until both requests are answered (a short sample trains faster than two calls on a quiet machine).
    await t.withJobsPaused(async () => {
      expect((await a.call(API.voices.create, { id: voiceId, name: '改过的声音', file_id: upload.data.file_id, api: 'local' })).code).toBe(0);
      expect((await voices(a)).list.find((v) => v.id === voiceId)).toMatchObject({ generate_status: 1, remained_times: 2, name: '改过的声音' });
      expect((await a.call(API.voices.create, { id: voiceId, name: 'x', file_id: upload.data.file_id, api: 'local' })).msg).toBe(MSG.voiceTraining);
    });
    expect(await ready(a, voiceId)).toMatchObject({ generate_status: 2, remained_times: 2 });

    await t.operator(API.admin.channelSet, { api: 'xf', kind: 'voice', name: '手持录音', engine: 'local', enabled: 'true' });
    const xf = await clone(a, sample, '手机录的', 'xf');
    await ready(a, xf.data.id);
    expect((await a.call(API.voices.create, { id: xf.data.id, name: 'x', file_id: upload.data.file_id, api: 'xf' })).msg).toBe(MSG.voiceXfEditRefused);
    await t.operator(API.admin.channelSet, { api: 'xf', kind: 'voice', enabled: 'false' });
  });

  it('renames (名称修改成功！), keeps type 11 names, deletes only when no modification is left, confirms once', async () => {
    expect(await a.call(API.voices.rename, { id: voiceId, name: '' })).toMatchObject({ code: 1, msg: MSG.renameNameRequired });
    expect(await a.call(API.voices.rename, { id: voiceId, name: '新名字' })).toMatchObject({ code: 0, msg: MSG.renameSucceeded });
    expect((await voices(a)).list.find((v) => v.id === voiceId).name).toBe('新名字');

    expect(await a.call(API.voices.remove, { id: voiceId })).toMatchObject({ code: 1, msg: MSG.voiceDeleteNeedsNoModifications });
    expect(await a.call(API.voices.confirm, { voice_id: voiceId })).toMatchObject({ code: 0, msg: MSG.confirmSucceeded });
    expect((await voices(a)).list.find((v) => v.id === voiceId)).toMatchObject({ confirmed: 1, remained_times: 0 });
    expect((await a.call(API.voices.confirm, { voice_id: voiceId })).msg).toBe(MSG.voiceAlreadyConfirmed);
    const upload = await uploadFile(a, 'voice', sample);
    expect((await a.call(API.voices.create, { id: voiceId, name: 'x', file_id: upload.data.file_id, api: 'local' })).msg).toBe(MSG.voiceNoModificationsLeft);

    const locked = await clone(a, sample, '锁定的名字');
    await ready(a, locked.data.id);
    await t.app.ctx.db.query('UPDATE voices SET type = $2 WHERE id = $1', [locked.data.id, VOICE_TYPE_NAME_LOCKED]);
    expect((await a.call(API.voices.rename, { id: locked.data.id, name: '改' })).msg).toBe(MSG.voiceNameLocked);
  });

  it('saves a voice\'s speed, volume and pitch within their ranges', async () => {
    expect(await a.call(API.voices.settings, { voice_id: voiceId, rate: 1.5, volume: 2, pitch: 0.8 })).toMatchObject({ code: 0, msg: MSG.voiceSettingsSaved });
    expect((await voices(a)).list.find((v) => v.id === voiceId)).toMatchObject({ rate: 1.5, volume: 2, pitch: 0.8 });
    expect((await a.call(API.voices.settings, { voice_id: voiceId, rate: 3, volume: 1, pitch: 1 })).code).toBe(1);
  });

  it('auditions a script with pauses: a real mp3, pauses as silence, usable by the render pipeline', { timeout: 400_000 }, async () => {
    await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', credits: 0 });
    const plain = await audition(a, voiceId, '你好，欢迎使用超级分身。', { rate: 1, volume: 1, pitch: 1 });
    expect(plain.status).toBe(3);
    const paused = await audition(a, voiceId, '你好<#2#>欢迎使用<#1#>超级分身。', { rate: 1, volume: 1, pitch: 1 });
    expect(paused.status).toBe(3);
    const gap = (await durationOf(t, paused.url)) - (await durationOf(t, plain.url));
    expect(gap).toBeGreaterThan(2.5);
    expect(gap).toBeLessThan(3.5);

    // An avatar as a clone leaves it (cloning is tested in avatars.spec.ts).
    const avatarId = await readyAvatar(t, a, makeVideo(path.join(dir, 'a.mp4'), { width: 640, height: 360, seconds: 5 }));
    const work = await a.call(API.works.create, { name: '试听成片', api: 'local', video_id: avatarId, user_voice_id: voiceId, voice_id: paused.file_id, text: '你好<#2#>欢迎使用<#1#>超级分身。', drive: 'text' });
    expect(work).toMatchObject({ code: 0 });
    const done = await until(() => a.call(API.works.list, { page: 1, limit: 10 }), (r) => r.data.list[0]?.status === 3, 150_000);
    expect(Math.abs(done.data.list[0].duration - (await durationOf(t, paused.url)))).toBeLessThan(0.2);
  });

  it('reads emotion marks only on MiniMax, and removes day-old auditions with their files unless a work still needs them', async () => {
    const marked = await audition(a, voiceId, '真好(laughs)。');
    const plain = await audition(a, voiceId, '真好。');
    expect(Math.abs((await durationOf(t, marked.url)) - (await durationOf(t, plain.url)))).toBeLessThan(0.05);

    const { rows } = await t.app.ctx.db.query<{ id: string }>('SELECT id FROM speech_jobs WHERE file_id = $1', [plain.file_id]);
    await t.app.ctx.db.query(`UPDATE speech_jobs SET created_at = now() - interval '25 hours'`);
    await t.app.ctx.queue.send('voices-sweep', {});
    const gone = await until(() => a.call(API.voices.auditionPoll, { job_id: rows[0]!.id }), (r) => r.code === 1);
    expect(gone.msg).toBe(MSG.notFound);
    expect(await until(() => fetchHead(`${t.url}${plain.url}`).then((r) => r.status), (s) => s === 404)).toBe(404);
  });

  it('refuses auditions without text or voice, with training or failed voices', async () => {
    expect((await a.call(API.voices.audition, { voice_id: voiceId, text: '' })).msg).toBe(MSG.auditionNeedsTextAndVoice);
    expect((await a.call(API.voices.audition, { text: '你好' })).msg).toBe(MSG.auditionNeedsTextAndVoice);
    const failed = (await voices(a)).list.find((v) => v.generate_status === 3);
    expect((await a.call(API.voices.audition, { voice_id: failed.id, text: '你好' })).msg).toBe(MSG.voiceFailed);
    const training = await clone(a, sample, '训练中');
    expect((await a.call(API.voices.audition, { voice_id: training.data.id, text: '你好' })).msg).toBe(MSG.voiceTraining);
    await ready(a, training.data.id);
    expect((await a.call(API.voices.auditionPoll, { job_id: 'not-a-job' })).msg).toBe(MSG.notFound);
  });

  it('keeps voices apart: B never lists, auditions, renames, confirms, sets or deletes A\'s voice', async () => {
    expect((await voices(b)).list).toEqual([]);
    expect((await b.call(API.voices.audition, { voice_id: voiceId, text: '你好' })).msg).toBe(MSG.notFound);
    expect((await b.call(API.voices.rename, { id: voiceId, name: '抢' })).msg).toBe(MSG.notFound);
    expect((await b.call(API.voices.confirm, { voice_id: voiceId })).msg).toBe(MSG.notFound);
    expect((await b.call(API.voices.settings, { voice_id: voiceId, rate: 1, volume: 1, pitch: 1 })).msg).toBe(MSG.notFound);
    expect((await b.call(API.voices.remove, { id: voiceId })).msg).toBe(MSG.notFound);
    const aUpload = await uploadFile(a, 'voice', sample);
    expect((await b.call(API.voices.create, { name: '抢', file_id: aUpload.data.file_id, api: 'local' })).msg).toBe(MSG.voiceAudioRequired);
    const aJob = await a.call(API.voices.audition, { voice_id: voiceId, text: '只给我听' });
    expect((await b.call(API.voices.auditionPoll, { job_id: aJob.data.job_id })).msg).toBe(MSG.notFound);
    expect((await voices(a)).list.find((v) => v.id === voiceId).name).toBe('新名字');
    // A's voice, once confirmed, can be deleted by A only.
    expect((await a.call(API.voices.remove, { id: voiceId })).code).toBe(0);
  });

  it('publishes a public voice through training; everyone lists and auditions it; settings go with each request', async () => {
    const published = await t.operator(API.admin.voicePublish, { name: '公共女声', audio: sample, api: 'local' });
    expect(published.code).toBe(0);
    const listed = await until(() => voices(b, 2), (v) => v.list.some((x) => x.id === published.data.id));
    expect(listed.list.find((x) => x.id === published.data.id)).toMatchObject({ source: 2, generate_status: 2, name: '公共女声' });
    expect((await b.call(API.voices.settings, { voice_id: published.data.id, rate: 1, volume: 1, pitch: 1 })).msg).toBe(MSG.publicVoiceSettingsPerWork);
    const fast = await audition(b, published.data.id, '公共声音可以调速。', { rate: 2, volume: 1, pitch: 1 });
    const slow = await audition(b, published.data.id, '公共声音可以调速。', { rate: 0.5, volume: 1, pitch: 1 });
    expect(await durationOf(t, slow.url)).toBeGreaterThan((await durationOf(t, fast.url)) * 2);
  });

  it('takes the voice audio through its own multipart endpoint', async () => {
    const post = (form: FormData, token = a.token) => fetch(`${t.url}${API.upload.voice.path}`, { method: 'POST', headers: token ? { [TOKEN_HEADER]: token } : {}, body: form }).then((r) => r.json() as Promise<any>);
    const form = new FormData();
    form.set('file', new Blob([fs.readFileSync(sample)]), '我的录音.mp3');
    const ok = await post(form);
    expect(ok).toMatchObject({ code: 0, msg: MSG.uploadSucceeded });
    expect((await a.call(API.voices.create, { name: '多段', file_id: ok.data.file_id, api: 'local' })).code).toBe(0);
    const bad = new FormData();
    bad.set('file', new Blob([Buffer.from('GIF89a not audio')]), 'x.mp3');
    expect(await post(bad)).toMatchObject({ code: 1, msg: MSG.fileUnrecognized('voice') });
    expect((await post(form, '')).code).toBe(100);
  });
});

describe('VOICE_TRAINING_POLL_SECONDS: how often a provider\'s training is asked about', () => {
  it('unset, the job\'s own 5 s; a positive number of seconds otherwise', () => {
    expect(configFromEnv({}).voiceTraining?.pollSeconds).toBeUndefined();
    expect(configFromEnv({ VOICE_TRAINING_POLL_SECONDS: '0.5' }).voiceTraining).toEqual({ pollSeconds: 0.5 });
    for (const bad of ['0', '-2', 'often']) expect(() => configFromEnv({ VOICE_TRAINING_POLL_SECONDS: bad })).toThrow(ConfigError);
  });
});

describe('voices on provider channels, against their protocol peers', () => {
  const fish = usePeer(startFishAudioPeer);
  const minimax = usePeer(startMiniMaxPeer);
  // The provider's training is asked about every 0.5 s instead of 5: what is tested is that it is polled until trained.
  const t = useApp('pglite', { voiceTraining: { pollSeconds: 0.5 } });
  const [a] = useUsers(t, ['15900000011'], 1000);

  it('cannot enable a provider channel without its key', async () => {
    expect((await t.operator(API.admin.channelSet, { api: 'fish', enabled: 'true' })).code).toBe(1);
  });

  it('Fish Audio: clone (first one free), training polled until trained, audition through its TTS', { timeout: 120_000 }, async () => {
    fish.trainingPolls = 1;
    expect(await t.operator(API.admin.channelSet, { api: 'fish', enabled: 'true', base_url: fish.url, api_key: fish.apiKey })).toMatchObject({ code: 0, data: { engine: 'fish', enabled: true } });
    const channel = (await a.call(API.voices.channels, {})).data.list.find((c: any) => c.api === 'fish');
    expect(channel).toMatchObject({ credits: 100, free_times: 1 });
    const free = await clone(a, sample, 'Fish 声音', 'fish');
    const voice = await until(() => voices(a), (v) => v.list.find((x) => x.id === free.data.id)?.generate_status === 2, 60_000);
    expect(voice.list.find((x) => x.id === free.data.id).generate_status).toBe(2);
    expect(fish.models.size).toBe(1);
    expect(await credits(a)).toBe(1000);
    const heard = await audition(a, free.data.id, '你好<#0.5#>世界');
    expect(heard.status).toBe(3);
    expect(fish.tts.at(-1)!.body.reference_id).toBe([...fish.models.keys()][0]);

    fish.failTraining = true;
    const paid = await clone(a, sample, '失败的', 'fish');
    expect(await ready(a, paid.data.id)).toMatchObject({ generate_status: 3 });
    await expectCloneRefunded(a, 100);
    expect(await credits(a)).toBe(1000);
    fish.failTraining = false;
  });

  it('MiniMax: clone is ready at once; audition passes pauses and settings through; a bad key fails clearly', { timeout: 120_000 }, async () => {
    await t.operator(API.admin.channelSet, { api: 'mm', enabled: 'true', base_url: minimax.url, api_key: minimax.apiKey });
    const made = await clone(a, sample, 'MiniMax 声音', 'mm');
    expect(await ready(a, made.data.id)).toMatchObject({ generate_status: 2 });
    const heard = await audition(a, made.data.id, '你好<#0.5#>世界', { emotion: 'happy' });
    expect(heard.status).toBe(3);
    expect(minimax.t2a.at(-1)).toMatchObject({ text: '你好<#0.5#>世界' });

    await t.operator(API.admin.channelSet, { api: 'mm', api_key: 'wrong-key' });
    const refused = await audition(a, made.data.id, '你好');
    expect(refused.status).toBe(4);
  });
});
