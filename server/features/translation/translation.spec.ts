/**
 * Video translation through real HTTP on both databases: a clip whose three sentences the offline engine spoke,
 * recognized by a loopback transcription peer that finds the spoken spans in the audio it gets, translated by the
 * chat peer (down for the first run: the retry resumes from the stored transcript), dubbed, fitted and muxed; the SRT beside it; the price reserved on submit and settled on the result's
 * length; every failure (no segments, a mismatched translation, nothing spoken) refunded with its reason; bad input
 * and missing engines refused at submit for nothing; two users who never see or delete each other's records. On
 * PGlite only (media, not SQL): the dub in a temporary clone of the speaker on a GPT-SoVITS channel (its loopback
 * peer), discarded after, and the offline voice when cloning fails; mode 1 on a real face, whose mouth then follows the dub;
 * with no recognition engine, a captioned clip translated from its captions read offline (and one without, refused).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, CLONING_SERVER_MSG, MSG, TRANSLATE_CREDITS_PER_SECOND, pauseMarker, translateCredits } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { CAPTIONED_CLIP, makeSpokenCaptionedClip, scoreCaptionReading } from '../../../tests/support/caption-media';
import { makeFaceVideo } from '../../../tests/support/face-media';
import { measureLips } from '../../../tests/support/lip-measure';
import { FFMPEG, makeSpeech, makeVideo, mediaDir } from '../../../tests/support/media';
import { startGptSovitsPeer } from '../../../tests/support/peers/gpt-sovits-peer';
import { startOpenAiPeer, type OpenAiPeer } from '../../../tests/support/peers/openai-peer';
import { startTranscriptionPeer, type TranscriptionPeer } from '../../../tests/support/peers/transcription-peer';
import { uploadFile } from '../../../tests/support/upload';
import { ended, until } from '../../../tests/support/wait';
import { decodePcm } from '../../../tests/support/media';
import { fetchHead } from '../../../tests/support/fetch';
import { creditsOf } from '../../../tests/support/voices';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const SPOKEN = ['大家好', '今天我们一起去公园散步', '谢谢观看'];
const ENGLISH = ['Hello everyone', 'Today we take a walk in the park together', 'Thanks for watching'];
/** The chat peer as a translator: each recognized sentence to its English line. */
const english = (user: string) => JSON.stringify((JSON.parse(user) as string[]).map((t) => ENGLISH[SPOKEN.indexOf(t)] ?? `(${t})`));
const ff = (args: string[]) => execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
/** A 7 s portrait clip under the given sound (padded with silence). */
const clipWith = (sound: string[], file: string) => {
  ff(['-f', 'lavfi', '-i', 'testsrc=size=360x640:rate=25', ...sound, '-af', 'apad', '-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
  return file;
};
/**
 * How much of a video's sound is a 220 Hz tone (what the GPT-SoVITS peer speaks): that frequency's power over all
 * power, in 50 ms frames (11 whole cycles each). Near 1 for the peer's speech, near 0 for the offline engine's voice.
 */
async function toneShare(video: string): Promise<number> {
  const pcm = await decodePcm(video, 'mp4');
  const n = 800;
  const w = (2 * Math.PI * 220) / 16_000;
  let tone = 0;
  let all = 0;
  for (let at = 0; at + n <= pcm.length; at += n) {
    let re = 0;
    let im = 0;
    for (let i = 0; i < n; i++) {
      re += pcm[at + i]! * Math.cos(w * i);
      im -= pcm[at + i]! * Math.sin(w * i);
      all += pcm[at + i]! ** 2;
    }
    tone += (2 * (re * re + im * im)) / n;
  }
  return tone / (all || 1);
}
/** How long a job may take here: a busy CI machine gave one 30 s that a quiet one finishes in 12 (stop 44's run). */
const JOB_WAIT_MS = 90_000;
/** A test that waits on jobs: room for two of them and the checks after. */
const JOB_TEST_MS = 3 * JOB_WAIT_MS;
let SPEECH_CLIP = '';
const SILENT_CLIP = clipWith(['-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono'], path.join(dir, 'silent.mp4'));
const MUTE_CLIP = path.join(dir, 'mute.mp4');
ff(['-i', makeVideo(path.join(dir, 'plain.mp4'), { seconds: 6 }), '-an', '-c:v', 'copy', MUTE_CLIP]);

describe.each(DB_KINDS)('video translation (%s)', (kind) => {
  let asr: TranscriptionPeer;
  let chat: OpenAiPeer;
  beforeAll(async () => {
    if (!SPEECH_CLIP) {
      const speech = await makeSpeech(path.join(dir, 'speech.mp3'), SPOKEN.join(pauseMarker(0.8)));
      SPEECH_CLIP = clipWith(['-i', speech], path.join(dir, 'speech.mp4'));
    }
    [asr, chat] = await Promise.all([startTranscriptionPeer(), startOpenAiPeer()]);
    asr.texts = SPOKEN;
    chat.behave({ kind: 'reply', text: english });
  });
  afterAll(() => Promise.all([asr?.close(), chat?.close()]));

  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15800000001', '15800000002'], 200);
  let clipId = 0;

  const credits = creditsOf;
  const records = (c: ApiTestClient) => c.call(API.translation.list, { page: 1, limit: 50 });
  const settings = (s: Record<string, string>) => t.operator(API.admin.siteSet, { settings: s });
  const submit = (c: ApiTestClient, body: Record<string, unknown>) => c.call(API.translation.submit, { source_lang: 'zh', target_lang: 'en', mode: 2, ...body });
  async function translated(c: ApiTestClient, body: Record<string, unknown>, waitMs = JOB_WAIT_MS) {
    const reply = await submit(c, body);
    expect(reply.code, reply.msg).toBe(0);
    return ended(() => records(c).then((r) => r.data.list as any[]), reply.data.id, waitMs);
  }
  async function download(url: string, name: string) {
    const res = await fetch(`${t.url}${url}`);
    expect(res.status, url).toBe(200);
    const file = path.join(dir, `${kind}-${name}`);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return file;
  }
  const upload = async (c: ApiTestClient, file: string) => {
    const reply = await uploadFile(c, 'video', file);
    expect(reply.code, reply.msg).toBe(0);
    return reply.data.file_id as number;
  };

  it('refuses bad input and missing engines at submit, charging nothing', async () => {
    clipId = await upload(a, SPEECH_CLIP);
    expect((await a.call(API.translation.languages, {})).data).toMatchObject({
      list: [{ id: 'zh', name: '中文' }, { id: 'en', name: '英语' }, { id: 'yue', name: '粤语' }],
      // No recognition engine: the captions on screen, read offline.
      ready: true, reader: 'ocr', prices: { 1: TRANSLATE_CREDITS_PER_SECOND[1], 2: TRANSLATE_CREDITS_PER_SECOND[2] },
    });
    expect(await submit(a, { file_id: clipId })).toMatchObject({ code: 1, msg: MSG.translationChatMissing });
    await settings({ asr_base_url: asr.url, asr_api_key: asr.apiKey, asr_model: 'whisper-large-v3' });
    expect((await a.call(API.translation.languages, {})).data).toMatchObject({ ready: true, reader: 'asr' });
    expect(await submit(a, { file_id: clipId })).toMatchObject({ code: 1, msg: MSG.translationChatMissing });
    await settings({ chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'm' });

    expect(await submit(a, {})).toMatchObject({ code: 1, msg: MSG.translationVideoRequired });
    expect(await submit(a, { file_id: clipId, source_lang: '' })).toMatchObject({ code: 1, msg: MSG.translationSourceRequired });
    expect(await submit(a, { file_id: clipId, target_lang: '' })).toMatchObject({ code: 1, msg: MSG.translationTargetRequired });
    expect(await submit(a, { file_id: clipId, target_lang: 'zh' })).toMatchObject({ code: 1, msg: MSG.translationSameLanguage });
    expect(await submit(a, { file_id: clipId, target_lang: 'xx' })).toMatchObject({ code: 1, msg: MSG.translationLangUnknown });
    expect(await submit(a, { file_id: clipId, mode: 3 })).toMatchObject({ code: 1 });
    // Another user's upload is not theirs to translate; nor is a picture a video.
    expect(await submit(b, { file_id: clipId })).toMatchObject({ code: 1, msg: MSG.translationVideoMissing });
    const poor = await t.user('15800000003', 5);
    expect(await submit(poor, { file_id: await upload(poor, SILENT_CLIP) })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await credits(a)).toBe(200);
    expect((await records(a)).data).toMatchObject({ list: [], total: 0 });
    expect(asr.requests).toEqual([]);
  });

  it('translates a spoken clip: fitted English speech, its SRT, the price settled on the result', async () => {
    // An upload whose index claims more than it holds: reserved by that claim, settled on what the result is.
    await t.app.ctx.db.query('UPDATE files SET duration = 20 WHERE id = $1', [clipId]);
    // The chat engine is down for the first run: the retried job resumes from the stored transcript, not asking again.
    const asked = asr.requests.length;
    const chats = chat.requests.length;
    chat.behave({ kind: 'status', status: 503 });
    const pending = translated(a, { file_id: clipId });
    await until(async () => chat.requests.length, (n) => n > chats, 20_000, 50);
    chat.behave({ kind: 'reply', text: english });
    const record = await pending;
    expect(asr.requests.length - asked).toBe(1);
    expect(chat.requests.length - chats).toBeGreaterThanOrEqual(2);
    // No cloning channel is configured: the offline voice, and the record says so.
    expect(record, record.reason).toMatchObject({ status: 3, mode: 2, source_lang: 'zh', target_lang: 'en', voice: MSG.translationVoiceOffline });
    expect(record.reason).toBeUndefined();
    expect(record.name).toMatch(/（英语）$/);

    // The recognizer got the clip's sound, in the chosen language, and asked for timed segments.
    expect(asr.requests.at(-1)).toMatchObject({ authorization: `Bearer ${asr.apiKey}`, model: 'whisper-large-v3', language: 'zh', responseFormat: 'verbose_json' });
    expect(Math.abs(asr.requests.at(-1)!.seconds - 7)).toBeLessThan(0.2);
    expect(JSON.parse(chat.requests.at(-1)!.user)).toEqual(SPOKEN);

    const video = await probe(await download(record.url, 'translated.mp4'), 'mp4');
    expect(video.video?.codec).toBe('h264');
    expect(video.audio).toBeDefined();
    expect(Math.abs(video.duration - 7) / 7).toBeLessThan(0.05);
    expect(record.duration).toBeCloseTo(video.duration, 1);
    expect(record.credits).toBe(translateCredits(video.duration, 2));
    expect(await credits(a)).toBe(200 - translateCredits(video.duration, 2));
    const log = (await a.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string }[];
    expect(log.map((x) => x.action_name)).toEqual(expect.arrayContaining(['视频翻译', '视频翻译按时长结算退回']));

    // Three cues, in order, at the times the sentences were spoken.
    const srt = fs.readFileSync(await download(record.srt, 'translated.srt'), 'utf8');
    const cues = srt.trim().split(/\r\n\r\n/);
    expect(cues).toHaveLength(3);
    expect(cues.map((c) => c.split('\r\n')[2])).toEqual(ENGLISH);
    const starts = cues.map((c) => c.split('\r\n')[1]!.slice(0, 12));
    expect(starts[0]).toMatch(/^00:00:00,[0-2]/);
    expect(new Set(starts).size).toBe(3);

    // The dubbed sound is not the original: the new track holds speech where the first sentence was.
    expect(video.audio?.codec).toBe('aac');
  }, JOB_TEST_MS);

  it('fails without segments, with a mismatched translation and without speech, refunding each with its reason', async () => {
    const before = await credits(a);
    asr.behave('no-segments');
    expect(await translated(a, { file_id: clipId })).toMatchObject({ status: 4, url: '', srt: '', reason: MSG.translationFailed(MSG.translationNoSegments) });
    asr.behave('segments');
    chat.behave({ kind: 'reply', text: '["only one line"]' });
    const calls = chat.requests.length;
    expect(await translated(a, { file_id: clipId })).toMatchObject({ status: 4, reason: MSG.translationFailed(MSG.translationLinesMismatch) });
    // Asked twice: once, then once more after the wrong count.
    expect(chat.requests.length - calls).toBe(2);
    chat.behave({ kind: 'reply', text: english });
    expect(await translated(a, { file_id: await upload(a, SILENT_CLIP) })).toMatchObject({ status: 4, reason: MSG.translationFailed(MSG.translationNoSpeech) });
    expect(await translated(a, { file_id: await upload(a, MUTE_CLIP) })).toMatchObject({ status: 4, reason: MSG.translationFailed(MSG.translationNoSound) });
    expect(await credits(a)).toBe(before);
    const log = (await a.call(API.credits.log, { page: 1, limit: 50 })).data.list as { action_name: string }[];
    expect(log.filter((x) => x.action_name === '视频翻译失败退回')).toHaveLength(4);
  }, JOB_TEST_MS);

  it('keeps two users apart and deletes a record with its files', async () => {
    const mine = (await records(a)).data;
    expect(mine.total).toBe(5);
    expect(mine.generate).toBe(0);
    expect((await records(b)).data).toMatchObject({ list: [], total: 0 });
    const done = mine.list.find((r: any) => r.status === 3);
    expect(await b.call(API.translation.remove, { id: done.id })).toMatchObject({ code: 1, msg: MSG.translationRecordMissing });
    expect((await a.call(API.translation.remove, { id: done.id })).code).toBe(0);
    expect((await fetchHead(`${t.url}${done.url}`)).status).toBe(404);
    expect((await fetchHead(`${t.url}${done.srt}`)).status).toBe(404);
    expect((await records(a)).data.total).toBe(4);
  });

  // Media, not SQL: once, on PGlite.
  if (kind !== 'pglite') return;

  it('dubs in a temporary clone of the speaker on a cloning channel, discarded after; the offline voice when cloning fails', async () => {
    const sovits = await startGptSovitsPeer();
    try {
      const channel = { api: 'kyy', kind: 'voice', base_url: sovits.url, share_dir: sovits.shareDir, server_dir: sovits.serverDir };
      expect(await t.operator(API.admin.channelSet, { ...channel, enabled: 'true' })).toMatchObject({ code: 0, data: { engine: 'gptsovits', enabled: true } });
      const c = await t.user('15800000004', 200);
      const video = await upload(c, SPEECH_CLIP);
      // The server fails the first line: the retried job speaks with the clone it stored, never cloning again.
      sovits.failTtsNext = 1;
      const cloned = await translated(c, { file_id: video });
      expect(cloned, cloned.reason).toMatchObject({ status: 3, voice: MSG.translationVoiceCloned('本地克隆 GPT-SoVITS') });
      expect(sovits.failTtsNext).toBe(0);
      // Cloned once, from the clip's own speech (the peer loads only 3–10 s of audio), and every line spoken with it.
      expect(sovits.references).toHaveLength(1);
      expect(sovits.references[0]).toMatch(new RegExp(`^${sovits.serverDir}/aisa-voices/aisa-tr${cloned.id}-`));
      expect(sovits.tts.map((x) => [x.text, x.text_lang, x.ref_audio_path])).toEqual(ENGLISH.map((line) => [line, 'en', sovits.references[0]]));
      // Temporary: gone from the channel's folder, absent from the user's voices, nothing charged beyond the translation.
      expect(fs.readdirSync(path.join(sovits.shareDir, 'aisa-voices'))).toEqual([]);
      expect((await c.call(API.voices.list, { page: 1, limit: 50 })).data.list).toEqual([]);
      expect(await credits(c)).toBe(200 - cloned.credits);

      sovits.failReference = true;
      const offline = await translated(c, { file_id: video });
      expect(offline).toMatchObject({ status: 3, voice: MSG.translationVoiceCloneFailed(CLONING_SERVER_MSG.trainingFailed) });
      expect(sovits.tts).toHaveLength(ENGLISH.length);
      // The peer's voice is a 220 Hz tone: the cloned dub is mostly that, the offline one hardly.
      const [clonedTone, offlineTone] = [await toneShare(await download(cloned.url, 'cloned.mp4')), await toneShare(await download(offline.url, 'offline.mp4'))];
      console.log(`220 Hz share of the dub: cloned ${clonedTone.toFixed(2)}, offline ${offlineTone.toFixed(2)}`);
      expect(clonedTone).toBeGreaterThan(0.5);
      expect(offlineTone).toBeLessThan(0.2);
      expect(fs.readdirSync(path.join(sovits.shareDir, 'aisa-voices'))).toEqual([]);
      await t.operator(API.admin.channelSet, { ...channel, enabled: 'false' });
    } finally {
      await sovits.close();
    }
  }, JOB_TEST_MS);

  /** The shortest video an upload takes is 5 s. */
  const FACE_SECONDS = 5.2;
  it('mode 1 on a real face: the mouth moves with the dub, the length kept', async () => {
    const face = makeFaceVideo(path.join(dir, 'face.mp4'), { width: 360, height: 480, seconds: FACE_SECONDS });
    const speech = await makeSpeech(path.join(dir, 'face-speech.mp3'), SPOKEN.slice(0, 2).join(pauseMarker(0.4)));
    const clip = path.join(dir, 'face-speech.mp4');
    ff(['-i', face, '-i', speech, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-af', 'apad', '-t', String(FACE_SECONDS), clip]);
    const c = await t.user('15800000005', 200);
    const started = Date.now();
    const record = await translated(c, { file_id: await upload(c, clip), mode: 1 }, 120_000);
    expect(record, record.reason).toMatchObject({ status: 3, mode: 1 });
    expect(record.reason).toBeUndefined();
    const result = await download(record.url, 'lip-synced.mp4');
    const seconds = (await probe(result, 'mp4')).duration;
    expect(Math.abs(seconds - FACE_SECONDS) / FACE_SECONDS).toBeLessThan(0.05);
    const lips = await measureLips(result);
    console.log(`mode 1 on a face: ${((Date.now() - started) / 1000).toFixed(1)} s to translate, mouth opening ~ dub loudness ${lips.follows.toFixed(2)}`);
    expect(lips.follows).toBeGreaterThan(0.4);
  }, 180_000);

  it('without a recognition engine, translates a captioned clip from its captions read offline', async () => {
    await settings({ asr_base_url: '', chat_base_url: chat.url, chat_api_key: chat.apiKey, chat_model: 'm' });
    chat.behave({ kind: 'reply', text: english });
    const c = await t.user('15800000006', 200);
    expect((await c.call(API.translation.languages, {})).data).toMatchObject({ ready: true, reader: 'ocr' });
    const [asked, chats] = [asr.requests.length, chat.requests.length];
    const record = await translated(c, { file_id: await upload(c, await makeSpokenCaptionedClip(path.join(dir, 'captioned.mp4'))) }, 120_000);
    expect(record, record.reason).toMatchObject({ status: 3, source_lang: 'zh', target_lang: 'en' });
    expect(asr.requests).toHaveLength(asked);
    // The chat engine got the three captions (≥ 90 % of their characters, in order), and the SRT has one cue each.
    const read = JSON.parse(chat.requests.at(-1)!.user) as string[];
    expect(chat.requests.length).toBeGreaterThan(chats);
    expect(read).toHaveLength(CAPTIONED_CLIP.captions.length);
    expect(scoreCaptionReading({ sentences: read.map((text) => ({ start: 0, end: 0, text })), text: read.join('\n') }).inOrder).toBeGreaterThanOrEqual(0.9);
    const srt = fs.readFileSync(await download(record.srt, 'captioned.srt'), 'utf8');
    expect(srt.trim().split(/\r\n\r\n/)).toHaveLength(CAPTIONED_CLIP.captions.length);

    // A picture without captions has nothing to translate: failed with its reason, refunded.
    const before = await credits(c);
    const bars = path.join(dir, 'bars.mp4');
    ff(['-f', 'lavfi', '-i', 'smptebars=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=16000', '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', bars]);
    const bare = await upload(c, bars);
    expect(await translated(c, { file_id: bare }, 60_000)).toMatchObject({ status: 4, reason: MSG.translationFailed(MSG.translationNoCaptions) });
    expect(await credits(c)).toBe(before);
    await settings({ asr_base_url: asr.url });
  }, 240_000);
});
