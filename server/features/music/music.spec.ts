/**
 * AI music and the music library through real HTTP on both databases, against the loopback MiniMax music peer:
 * generation off until the operator turns it on (the library works regardless), every field's bad input, the price
 * (default and the operator's), instrumentals and songs (lyrics as given, or written from the description), the
 * result copied into our storage and checked by content (link and hex answers), failures refunded with their reason
 * (a refusal, a bad result, a provider that stays down), a transient failure retried, two users kept apart, rename,
 * background music, save to material, delete; the operator's publish (checked, loudness-normalised) and the library.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, MusicStatus, type MusicTask } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { FFMPEG, makeAudio, makeImage, mediaDir } from '../../../tests/support/media';
import { startMusicPeer } from '../../../tests/support/peers/music-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { creditsOf, downloadTo, latestCredits } from '../../../tests/support/voices';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';
import { MiniMaxMusic, MusicEngineError } from '../../engines/music';

const dir = mediaDir();
const peer = usePeer(startMusicPeer);

/** EBU R128 integrated loudness of a file, LUFS. */
function integratedLufs(file: string): number {
  const run = spawnSync(FFMPEG, ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128', '-f', 'null', '-'], { encoding: 'utf8' });
  const found = /Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(run.stderr);
  if (!found) throw new Error(`no loudness in ffmpeg's answer:\n${run.stderr.slice(-400)}`);
  return Number(found[1]);
}

describe('the MiniMax music client against the peer', () => {
  it('asks in the documented shape and takes the audio as a link or as hex', async () => {
    for (const outputFormat of ['url', 'hex'] as const) {
      const client = new MiniMaxMusic({ baseUrl: peer.url, apiKey: peer.apiKey, model: 'music-2.6', outputFormat });
      const work = fs.mkdtempSync(path.join(dir, `client-${outputFormat}-`));
      const file = await client.generate({ prompt: '轻快的钢琴', lyrics: '', instrumental: true }, work);
      const info = await probe(file, 'mp3');
      expect(info.audio).toBeTruthy();
      expect(info.duration).toBeCloseTo(peer.seconds, 0);
      expect(peer.music.at(-1)).toEqual({
        model: 'music-2.6', prompt: '轻快的钢琴', is_instrumental: true, output_format: outputFormat,
        audio_setting: { sample_rate: 44100, bitrate: 256000, format: 'mp3' },
      });
    }
    expect(peer.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/files/'))).toHaveLength(1);
    const wrongKey = new MiniMaxMusic({ baseUrl: peer.url, apiKey: 'wrong', model: 'music-2.6' });
    await expect(wrongKey.writeLyrics('海边', '夏天')).rejects.toMatchObject({ message: MSG.musicKeyInvalid, transient: false });
    const nowhere = new MiniMaxMusic({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', model: 'music-2.6' });
    const err = await nowhere.generate({ prompt: 'x', lyrics: '', instrumental: true }, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MusicEngineError);
    expect(err).toMatchObject({ message: MSG.musicUnreachable, transient: true });
    expect(peer.shapeErrors).toEqual([]);
  });
});

describe.each(DB_KINDS)('AI music (%s)', (kind) => {
  const t = useApp(kind);
  const [a, b] = useUsers(t, ['15700000001', '15700000002'], 1000);

  const tasks = (c: ApiTestClient) => c.call(API.music.myTask, { page: 1, limit: 50 }).then((r) => r.data.list as MusicTask[]);
  async function finished(c: ApiTestClient, id: number): Promise<MusicTask> {
    const list = await until(() => tasks(c), (l) => [MusicStatus.Done, MusicStatus.Failed].includes(l.find((x) => x.id === id)?.status as 3 | 4), 60_000, 200);
    return list.find((x) => x.id === id)!;
  }
  const instrumental = { title: '清晨', prompt: '轻快的钢琴与弦乐，明亮温暖，中速', instrumental: 1 };

  it('without an engine: generation says so and costs nothing; the library still answers', async () => {
    expect((await a.call(API.music.engine, {})).data).toEqual({ engine: null, credits: LIMITS.music.defaultCredits });
    expect(await a.call(API.music.create, instrumental)).toMatchObject({ code: 1, msg: MSG.musicEngineMissing });
    expect(await a.call(API.music.library, {})).toMatchObject({ code: 0, data: { list: [] } });
    // MiniMax without a key of its own or the voice channel's is refused, and generation stays off.
    expect(await t.operator(API.music.engineSet, { engine: 'minimax' })).toMatchObject({ code: 1, msg: expect.stringContaining('--api-key') });
    expect((await a.call(API.music.engine, {})).data.engine).toBeNull();
    expect(await creditsOf(a)).toBe(1000);
  });

  it('turned on with its own key: bad input is refused in Chinese and costs nothing', async () => {
    expect(await t.operator(API.music.engineSet, { engine: 'minimax', api_key: peer.apiKey, base_url: peer.url })).toMatchObject({ code: 0, data: { engine: 'minimax', key: 'own' } });
    expect(await t.operator(API.music.engineSet, { engine: 'minimax', base_url: 'ftp://x' })).toMatchObject({ code: 1 });
    expect((await a.call(API.music.engine, {})).data).toEqual({ engine: 'minimax', credits: 50 });
    const bad: [Record<string, unknown>, string | RegExp][] = [
      [{ ...instrumental, title: '' }, MSG.musicTitleRequired],
      [{ ...instrumental, title: '   ' }, MSG.musicTitleRequired],
      [{ ...instrumental, title: '名'.repeat(LIMITS.music.titleMaxChars + 1) }, /不能超过/],
      [{ ...instrumental, prompt: '' }, MSG.musicPromptRequired],
      [{ ...instrumental, prompt: 'x'.repeat(LIMITS.music.promptMaxChars + 1) }, /不能超过/],
      [{ ...instrumental, instrumental: 2 }, /纯音乐/],
      [{ ...instrumental, instrumental: 'yes' }, /纯音乐/],
      [{ ...instrumental, instrumental: 0, lyrics: '[Verse]\n太短' }, MSG.musicLyricsTooShort(LIMITS.music.lyricsMinChars)],
      [{ ...instrumental, instrumental: 0, lyrics: '歌'.repeat(LIMITS.music.lyricsMaxChars + 1) }, /不能超过/],
    ];
    for (const [params, msg] of bad) {
      const reply = await a.call(API.music.create, params);
      expect(reply.code, JSON.stringify(params).slice(0, 80)).toBe(1);
      if (typeof msg === 'string') expect(reply.msg).toBe(msg);
      else expect(reply.msg).toMatch(msg);
    }
    const poor = await t.user('15700000003', 49);
    expect(await poor.call(API.music.create, instrumental)).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await creditsOf(poor)).toBe(49);
    expect(await creditsOf(a)).toBe(1000);
    expect(await tasks(a)).toEqual([]);
  });

  let first: MusicTask;
  it('an instrumental: 50 credits reserved at submit, the provider asked in its shape, the music copied into our storage', async () => {
    const made = await a.call(API.music.create, instrumental);
    expect(made).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(await creditsOf(a)).toBe(950);
    first = await finished(a, made.data.id);
    expect(first).toMatchObject({ status: MusicStatus.Done, title: '清晨', instrumental: 1, lyrics: '', background: 0, credits: 50, prompt: instrumental.prompt });
    expect(first.url).toMatch(/^\/storage\//);
    expect(first.duration).toBeCloseTo(peer.seconds, 0);
    expect(peer.music.at(-1)).toMatchObject({ model: 'music-2.6', is_instrumental: true, output_format: 'url' });
    expect(peer.music.at(-1)).not.toHaveProperty('lyrics');
    const file = await downloadTo(t, first.url, dir);
    expect((await probe(file, 'mp3')).duration).toBeCloseTo(peer.seconds, 0);
    expect(await creditsOf(a)).toBe(950);
    expect(peer.shapeErrors).toEqual([]);
  });

  it('songs: lyrics as given, or written from the description and kept on the task; the operator\'s price', async () => {
    const lyrics = '[Verse]\n风吹过麦田的时候\n我想起你的笑容\n[Chorus]\n一起唱吧 一起走';
    const given = await a.call(API.music.create, { title: '麦田', prompt: '民谣，木吉他，温柔男声', lyrics, instrumental: 0 });
    expect(given.code).toBe(0);
    expect(await finished(a, given.data.id)).toMatchObject({ status: MusicStatus.Done, instrumental: 0, lyrics });
    expect(peer.music.at(-1)).toMatchObject({ is_instrumental: false, lyrics, prompt: '民谣，木吉他，温柔男声' });

    await t.operator(API.admin.siteSet, { settings: { music_credits: '80' } });
    expect((await a.call(API.music.engine, {})).data.credits).toBe(80);
    const before = await creditsOf(a);
    const lyricsAsked = peer.lyrics.length;
    const written = await a.call(API.music.create, { title: '晨光', prompt: '励志流行，钢琴和鼓，女声', instrumental: 0 });
    expect(await creditsOf(a)).toBe(before - 80);
    const done = await finished(a, written.data.id);
    expect(done.status).toBe(MusicStatus.Done);
    expect(done.lyrics).toContain('[Chorus]');
    expect(peer.lyrics.slice(lyricsAsked)).toEqual([{ mode: 'write_full_song', prompt: '励志流行，钢琴和鼓，女声', title: '晨光' }]);
    expect(peer.music.at(-1)).toMatchObject({ is_instrumental: false, lyrics: done.lyrics });
    await t.operator(API.admin.siteSet, { settings: { music_credits: '' } });
    expect(peer.shapeErrors).toEqual([]);
  });

  it('failures end the task with the reason and return its credits; a transient one is retried', async () => {
    const before = await creditsOf(b);
    peer.failNextCode = 1026;
    const refused = await b.call(API.music.create, instrumental);
    expect(await finished(b, refused.data.id)).toMatchObject({ status: MusicStatus.Failed, reason: MSG.musicFailed(MSG.musicSensitive), url: '', credits: 0 });
    expect(await creditsOf(b)).toBe(before);
    // The queue may fail the task before any balance read, so the charge and its return are read from the log.
    expect(await latestCredits(b, 2)).toEqual([['AI音乐失败退回', 50], ['AI音乐', -50]]);

    peer.garbageNext = true;
    const garbage = await b.call(API.music.create, instrumental);
    expect(await finished(b, garbage.data.id)).toMatchObject({ status: MusicStatus.Failed, reason: MSG.musicFailed(MSG.musicResultInvalid) });
    expect(await creditsOf(b)).toBe(before);

    // A provider that stays down: retried until the last attempt, then failed and refunded.
    peer.httpErrorNext = 100;
    const down = await b.call(API.music.create, instrumental);
    expect(await finished(b, down.data.id)).toMatchObject({ status: MusicStatus.Failed, reason: MSG.musicFailed(MSG.musicProviderDown) });
    peer.httpErrorNext = 0;
    expect(await creditsOf(b)).toBe(before);
    expect(JSON.stringify((await b.call(API.credits.log, { page: 1, limit: 50 })).data.list)).toContain('AI音乐失败退回');

    // Down once: the queue tries again and the song is made and paid for once.
    peer.httpErrorNext = 1;
    const once = await b.call(API.music.create, instrumental);
    expect(await finished(b, once.data.id)).toMatchObject({ status: MusicStatus.Done });
    expect(peer.httpErrorNext).toBe(0);
    expect(await creditsOf(b)).toBe(before - 50);
  });

  it('two users apart: B neither lists nor changes A\'s tracks; A renames, marks as background music, saves, deletes', async () => {
    const bList = await tasks(b);
    expect(bList.some((x) => x.id === first.id)).toBe(false);
    for (const [call, params] of [
      [API.music.rename, { id: first.id, name: 'B改的' }],
      [API.music.remove, { id: first.id }],
      [API.music.save, { id: first.id }],
      [API.music.background, { id: first.id, background: 1 }],
    ] as const) {
      expect(await b.call(call, params), call.id).toMatchObject({ code: 1, msg: MSG.musicTaskMissing });
    }
    expect((await tasks(a)).find((x) => x.id === first.id)).toMatchObject({ title: '清晨', background: 0 });

    expect(await a.call(API.music.rename, { id: first.id, name: '清晨序曲' })).toMatchObject({ code: 0, msg: MSG.renameSucceeded });
    expect(await a.call(API.music.rename, { id: first.id, name: '' })).toMatchObject({ code: 1 });
    expect(await a.call(API.music.background, { id: first.id, background: 1 })).toMatchObject({ code: 0, msg: MSG.musicBackgroundOn, data: { background: 1 } });
    const mine = (await a.call(API.music.library, {})).data.list;
    expect(mine).toEqual([expect.objectContaining({ id: `my-${first.id}`, name: '清晨序曲', source: 'mine', url: expect.stringContaining(first.url.split('?')[0]!) })]);
    expect((await b.call(API.music.library, {})).data.list).toEqual([]);

    const saved = await a.call(API.music.save, { id: first.id });
    expect(saved).toMatchObject({ code: 0, msg: MSG.saveSucceeded });
    const material = (await a.call(API.material.list, { type: 'audio', page: 1, limit: 50 })).data.list.find((m: { id: number }) => m.id === saved.data.id);
    expect(material).toMatchObject({ name: '清晨序曲' });

    expect(await a.call(API.music.remove, { id: first.id })).toMatchObject({ code: 0 });
    expect((await tasks(a)).some((x) => x.id === first.id)).toBe(false);
    expect((await fetch(`${t.url}${first.url}`)).status).toBe(404);
    expect((await a.call(API.music.library, {})).data.list).toEqual([]);
    // The material's own copy stays.
    const kept = (await a.call(API.material.list, { type: 'audio', page: 1, limit: 50 })).data.list.find((m: { id: number }) => m.id === saved.data.id);
    expect((await fetch(`${t.url}${kept.url}`)).status).toBe(200);
    expect(await a.call(API.music.remove, { id: first.id })).toMatchObject({ code: 1, msg: MSG.musicTaskMissing });
  });

  it('on the voice channel\'s MiniMax key when the music settings name none', async () => {
    expect(await t.operator(API.admin.channelSet, { api: 'mm', base_url: peer.url, api_key: peer.apiKey })).toMatchObject({ code: 0 });
    expect(await t.operator(API.music.engineSet, { engine: 'minimax', api_key: '', base_url: '' })).toMatchObject({ code: 0, data: { key: 'voice-channel' } });
    const made = await b.call(API.music.create, instrumental);
    expect(await finished(b, made.data.id)).toMatchObject({ status: MusicStatus.Done });
  });

  it('the operator publishes library tracks (checked, loudness-normalised); every user sees them, with generation off too', async () => {
    const quiet = path.join(dir, `quiet-${kind}.mp3`);
    spawnSync(FFMPEG, ['-y', '-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=44100:duration=8', '-af', 'volume=0.05', '-c:a', 'libmp3lame', quiet]);
    expect(integratedLufs(quiet)).toBeLessThan(-30);
    expect(await t.operator(API.music.publish, { name: '无', audio: path.join(dir, 'nothing.mp3') })).toMatchObject({ code: 1, msg: expect.stringContaining('文件不存在') });
    const picture = makeImage(path.join(dir, 'not-audio.png'), { width: 320, height: 320 });
    expect(await t.operator(API.music.publish, { name: '图', audio: picture })).toMatchObject({ code: 1, msg: expect.stringContaining(MSG.audioInvalid) });
    const short = makeAudio(path.join(dir, 'short.mp3'), { seconds: 2 });
    expect(await t.operator(API.music.publish, { name: '短', audio: short })).toMatchObject({ code: 1, msg: expect.stringContaining(MSG.audioDurationInvalid) });

    const published = await t.operator(API.music.publish, { name: '宁静午后', audio: quiet, mood: '舒缓' });
    expect(published).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    expect(published.data.duration).toBeCloseTo(8, 0);
    expect(await t.operator(API.music.publish, { name: '宁静午后', audio: quiet })).toMatchObject({ code: 1 });

    expect(await t.operator(API.music.engineSet, { engine: 'none' })).toMatchObject({ code: 0, data: { engine: 'none' } });
    expect((await a.call(API.music.engine, {})).data.engine).toBeNull();
    for (const c of [a, b]) {
      const [track] = (await c.call(API.music.library, {})).data.list;
      expect(track).toMatchObject({ id: `lib-${published.data.id}`, name: '宁静午后', mood: '舒缓', source: 'library' });
      expect(track.url).toMatch(/^\/storage\/public\//);
    }
    const [track] = (await a.call(API.music.library, {})).data.list;
    const stored = await downloadTo(t, track.url, dir);
    expect(Math.abs(integratedLufs(stored) - LIMITS.music.loudnessLufs)).toBeLessThan(1.5);
  });
});
