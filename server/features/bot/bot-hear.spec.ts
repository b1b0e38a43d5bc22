/**
 * Hold to talk on /employee/talking through real HTTP on both databases: a browser-made webm (opus) recording of real
 * speech goes to the loopback transcription peer (which hears the spans of speech) and its text comes back; without a
 * recognition engine the call and the screen's status say so; bad audio, silence, too long, too large, no file and a
 * stale session are refused with clear Chinese messages, never a 500; nothing of one user's recording is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, ResultCode, TOKEN_HEADER } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { ffmpegCached, makeSilence, makeSpeech, makeTone, mediaDir } from '../../../tests/support/media';
import { startTranscriptionPeer, type TranscriptionPeer } from '../../../tests/support/peers/transcription-peer';

const dir = mediaDir();
const GARBAGE = path.join(dir, 'hear-garbage.webm');
fs.writeFileSync(GARBAGE, Buffer.from('这不是录音'.repeat(50)));
let speech = '';
let peer: TranscriptionPeer;

beforeAll(async () => {
  peer = await startTranscriptionPeer();
  peer.texts = ['帮我介绍一下新品'];
  const mp3 = await makeSpeech(path.join(dir, 'hear-speech.mp3'), '帮我介绍一下新品');
  // As Chromium's MediaRecorder makes it: webm with opus.
  speech = ffmpegCached(path.join(dir, 'hear-speech.webm'), ['-i', mp3, '-c:a', 'libopus', '-b:a', '32k']);
}, 120_000);
afterAll(() => peer?.close());

describe.each(DB_KINDS)('super employee voice input (%s)', (kind) => {
  const t = useApp(kind);
  const n = kind === 'pglite' ? 1 : 2;
  const [a, b] = useUsers(t, [`1591000${n}001`, `1591000${n}002`], 100);

  /** Posts a recording as the talking screen does: multipart `file`, the token in its header. */
  async function hear(c: ApiTestClient | null, file: string | Buffer | null, name = 'voice.webm', type = 'audio/webm;codecs=opus') {
    const form = new FormData();
    if (file !== null) form.set('file', new Blob([new Uint8Array(typeof file === 'string' ? fs.readFileSync(file) : file)], { type }), name);
    else form.set('other', 'x');
    const res = await fetch(`${t.url}${API.bot.hear.path}`, { method: 'POST', body: form, headers: c ? { [TOKEN_HEADER]: c.token! } : {} });
    expect(res.status).toBeLessThan(500);
    return (await res.json()) as { code: number; msg: string; data: { text: string } | null };
  }
  const engine = (url: string) => t.operator(API.admin.siteSet, { settings: { asr_base_url: url, asr_api_key: peer.apiKey } });

  it('without a recognition engine: the status says so and a recording is refused with the reason', async () => {
    const before = peer.requests.length;
    expect((await a.call(API.bot.hearing, {})).data).toEqual({ ready: 0 });
    expect(await hear(a, speech)).toMatchObject({ code: ResultCode.Error, msg: MSG.botHearNoEngine });
    expect(peer.requests.length).toBe(before);
  });

  it('hears a webm recording through the recognition engine and answers its text; each user their own', async () => {
    await engine(peer.url);
    expect((await a.call(API.bot.hearing, {})).data).toEqual({ ready: 1 });
    const before = peer.requests.length;
    expect(await hear(a, speech)).toMatchObject({ code: 0, data: { text: '帮我介绍一下新品' } });
    const asked = peer.requests[before]!;
    expect(asked.authorization).toBe(`Bearer ${peer.apiKey}`);
    expect(asked.seconds).toBeGreaterThan(1);
    // Named by its type only (MediaRecorder's blob has no name), and from another user: the same, nothing shared.
    expect(await hear(b, speech, 'blob', 'audio/webm')).toMatchObject({ code: 0, data: { text: '帮我介绍一下新品' } });
    expect((await b.call(API.bot.record, { page: 1, limit: 10 })).data.list).toEqual([]);
  });

  it('refuses bad audio, silence, too long, too large, no file and a stale session clearly, never a 500', async () => {
    await engine(peer.url);
    const long = makeTone(path.join(dir, 'hear-long.mp3'), { seconds: LIMITS.bot.hearMaxSeconds + 3 });
    const cases: [ApiTestClient | null, string | Buffer | null, string, string, string | RegExp][] = [
      [a, GARBAGE, 'voice.webm', 'audio/webm', MSG.botHearUnreadable],
      [a, speech, 'voice.txt', 'text/plain', MSG.botHearUnreadable],
      [a, Buffer.alloc(0), 'voice.webm', 'audio/webm', MSG.botHearUnreadable],
      [a, makeSilence(path.join(dir, 'hear-silence.mp3'), 2), 'voice.mp3', 'audio/mpeg', MSG.botHearNothing],
      [a, long, 'voice.mp3', 'audio/mpeg', MSG.botHearTooLong(LIMITS.bot.hearMaxSeconds)],
      [a, Buffer.alloc(LIMITS.bot.hearMaxBytes + 1024, 1), 'voice.webm', 'audio/webm', MSG.botHearTooLarge],
      [a, null, '', '', MSG.botHearAudioRequired],
    ];
    for (const [c, file, name, type, msg] of cases) expect(await hear(c, file, name, type), `${name} ${type}`).toMatchObject({ code: ResultCode.Error, msg });
    expect(await hear(null, speech)).toMatchObject({ code: ResultCode.SessionExpired });
    const res = await fetch(`${t.url}${API.bot.hear.path}`, { method: 'POST', body: 'x=1', headers: { [TOKEN_HEADER]: a.token!, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(await res.json()).toMatchObject({ code: ResultCode.Error, msg: MSG.botHearAudioRequired });
  });

  it('says recognition failed when the engine does', async () => {
    await engine(peer.url);
    peer.behave('error');
    try {
      expect(await hear(a, speech)).toMatchObject({ code: ResultCode.Error, msg: MSG.botHearFailed });
    } finally {
      peer.behave('segments');
    }
    await engine('');
    expect((await a.call(API.bot.hearing, {})).data).toEqual({ ready: 0 });
  });

  it(`hears at most ${LIMITS.bot.hearPerMinute} recordings a minute per user; others are not held up`, async () => {
    const c = await t.user(`1591000${n}003`);
    // Without an engine each attempt is refused at once, and still counts: the limit guards the provider's bill.
    for (let i = 0; i < LIMITS.bot.hearPerMinute; i++) expect(await hear(c, speech)).toMatchObject({ code: ResultCode.Error, msg: MSG.botHearNoEngine });
    expect(await hear(c, speech)).toMatchObject({ code: ResultCode.Error, msg: MSG.tooManyRequests });
    expect(await hear(b, speech)).toMatchObject({ code: ResultCode.Error, msg: MSG.botHearNoEngine });
  });
});
