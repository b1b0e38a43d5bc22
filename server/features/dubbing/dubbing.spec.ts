/**
 * The dubbing studio through real HTTP on both databases: bad input answered in Chinese with code 1 and nothing
 * charged; a two-role dialogue spoken offline for free into one mp3 whose SRT cues sit where each line's speech
 * starts; background music ducked under the speech with the timing unchanged; rename, save to material, delete;
 * two users kept apart; on a paid channel (a MiniMax protocol peer on loopback) the price per 100 characters
 * reserved at submit and settled, and a line the provider refuses failing the dub with its reason and a refund.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API, DubbingStatus, LIMITS, MSG, captionText, parseSrt, type DubbingRecord } from '../../../src/contract';
import { DB_KINDS, useApp, useUsers, type ApiTestClient } from '../../../tests/support/app';
import { fetchHead } from '../../../tests/support/fetch';
import { levelDb, makeAudio, makeSpeech, makeTone, mediaDir, silencesIn } from '../../../tests/support/media';
import { startMiniMaxPeer } from '../../../tests/support/peers/minimax-peer';
import { usePeer } from '../../../tests/support/peers/use-peer';
import { uploadFile } from '../../../tests/support/upload';
import { cloneVoice, creditsOf, downloadTo, latestCredits, trained, voicesOf } from '../../../tests/support/voices';
import { until } from '../../../tests/support/wait';
import { probe } from '../../infra/media-probe';

const dir = mediaDir();
const DIALOGUE = [
  { role: '甲', text: '大家好，欢迎收看今天的节目。' },
  { role: '乙', text: '谢谢主持人，<#0.5#>很高兴来到这里。', pause_after: 0.5, pitch: 1.4 },
  { role: '甲', text: '那我们开始吧。' },
];

const minimax = usePeer(startMiniMaxPeer);

describe.each(DB_KINDS)('dubbing studio (%s)', (kind) => {
  const t = useApp(kind);
  /** Two public offline voices. */
  const voice = { host: 0, guest: 0 };
  let plain: DubbingRecord;
  const phone = (n: number) => `1580000${kind === 'pglite' ? 1 : 2}${String(n).padStart(3, '0')}`;
  const [a, b] = useUsers(t, [phone(1), phone(2)], 1000);

  const lines = (list: Record<string, unknown>[]) => JSON.stringify(list);
  const dialogue = () => DIALOGUE.map((l) => ({ ...l, voice_id: l.role === '甲' ? voice.host : voice.guest }));
  const create = (c: ApiTestClient, params: Record<string, unknown>) => c.call(API.dubbing.create, { name: '配音', gap: 0.3, ...params });
  const history = (c: ApiTestClient) => c.call(API.dubbing.list, { page: 1, limit: 50 }).then((r) => r.data as { list: DubbingRecord[]; total: number; generate: number });
  const finished = async (c: ApiTestClient, id: number) => {
    const list = await until(() => history(c), (h) => [DubbingStatus.Done, DubbingStatus.Failed].includes(h.list.find((r) => r.id === id)?.status as 3 | 4), 60_000, 100);
    return list.list.find((r) => r.id === id)!;
  };

  beforeAll(async () => {
    const sample = await makeSpeech(path.join(dir, 'public.mp3'), '这是一段公共声音的样本。');
    voice.host = (await t.operator(API.admin.publicVoiceAdd, { name: `主持·${kind}`, audio: sample })).data.id;
    voice.guest = (await t.operator(API.admin.publicVoiceAdd, { name: `嘉宾·${kind}`, audio: sample })).data.id;
  });

  it('refuses bad input with a clear Chinese message naming the line, and charges nothing', async () => {
    const one = (extra: Record<string, unknown>) => lines([{ voice_id: voice.host, text: '你好', ...extra }]);
    const refused: [Record<string, unknown>, string][] = [
      [{ lines: 'not json' }, MSG.dubLinesInvalid],
      [{ lines: '{}' }, MSG.dubLinesInvalid],
      [{ lines: '[]' }, MSG.dubLinesEmpty],
      [{ lines: one({ text: '  ' }) }, MSG.dubLineEmpty(1)],
      [{ lines: lines([{ voice_id: voice.host, text: '好' }, { voice_id: voice.host, text: '<#1#>(laughs)' }]) }, MSG.dubLineEmpty(2)],
      [{ lines: lines([{ voice_id: voice.host, text: '好' }, { text: '没有声音' }]) }, MSG.dubLineNoVoice(2)],
      [{ lines: lines(Array.from({ length: LIMITS.dubbing.maxLines + 1 }, () => ({ voice_id: voice.host, text: '好' }))) }, MSG.dubTooManyLines(LIMITS.dubbing.maxLines)],
      [{ lines: lines([{ voice_id: voice.host, text: '字'.repeat(6000) }, { voice_id: voice.host, text: `${'字'.repeat(4001)}<#1#>` }]) }, MSG.scriptTooLong(10_000)],
      [{ lines: lines(['甲', '乙', '丙', '丁', '戊', '己'].map((role) => ({ voice_id: voice.host, text: '好', role }))) }, MSG.dubTooManyRoles(5)],
      [{ lines: one({ rate: 3 }) }, '语速不能大于2'],
      [{ lines: one({ pause_after: 11 }) }, '句后停顿不能大于10'],
      [{ lines: one({ emotion: 'bored' }) }, '情绪取值有误'],
      [{ lines: one({}), gap: 9 }, '句间隔不能大于5'],
      [{ lines: one({ voice_id: 999_999 }) }, MSG.dubLine(1, MSG.notFound)],
      [{ lines: one({}), bgm_id: 999_999 }, MSG.dubBgmMissing],
    ];
    for (const [params, msg] of refused) {
      const reply = await create(a, params);
      expect(reply, msg).toMatchObject({ status: 200, code: 1, msg });
    }
    // 10,000 characters exactly, pause markers not counted, is allowed by the limit (checked without generating).
    expect(API.dubbing.create.request.safeParse({ lines: lines([{ voice_id: 1, text: `${'字'.repeat(10_000)}<#1#>` }]) }).success).toBe(true);

    // A voice still training, or failed, is refused with the spec's words and the line.
    await t.app.ctx.db.query('UPDATE voices SET generate_status = 1 WHERE id = $1', [voice.guest]);
    expect((await create(a, { lines: lines([{ voice_id: voice.host, text: '好' }, { voice_id: voice.guest, text: '好' }]) })).msg).toBe(MSG.dubLine(2, MSG.voiceTraining));
    await t.app.ctx.db.query('UPDATE voices SET generate_status = 3 WHERE id = $1', [voice.guest]);
    expect((await create(a, { lines: one({ voice_id: voice.guest }) })).msg).toBe(MSG.dubLine(1, MSG.voiceFailed));
    await t.app.ctx.db.query('UPDATE voices SET generate_status = 2 WHERE id = $1', [voice.guest]);

    expect(await history(a)).toMatchObject({ list: [], total: 0 });
    expect(await creditsOf(a)).toBe(1000);
  });

  it('speaks a two-role dialogue offline, free: one mp3 and one SRT cue per line, each where its line starts', async () => {
    const sent = await create(a, { name: '对话配音', lines: lines(dialogue()) });
    expect(sent).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
    plain = await finished(a, sent.data.id);
    expect(plain).toMatchObject({
      status: DubbingStatus.Done, name: '对话配音', credits: 0, lines: 3, bgm: 0, roles: [`甲·主持·${kind}`, `乙·嘉宾·${kind}`],
      chars: DIALOGUE.reduce((n, l) => n + [...captionText(l.text)].length, 0),
    });
    expect(plain.reason).toBeUndefined();
    expect(await creditsOf(a)).toBe(1000);

    // The cues: in order, one per line, never overlapping; the silence between two lines is the gap (plus the pause after).
    expect(plain.cues.map((c) => [c.role, c.text])).toEqual(DIALOGUE.map((l) => [l.role, captionText(l.text)]));
    expect(plain.cues[0]!.start).toBe(0);
    for (const [i, c] of plain.cues.entries()) {
      expect(c.end).toBeGreaterThan(c.start + 0.5);
      const next = plain.cues[i + 1];
      if (next) expect(next.start - c.end).toBeCloseTo(0.3 + (DIALOGUE[i]!.pause_after ?? 0), 2);
    }

    const mp3 = await downloadTo(t, plain.url, dir, 'mp3');
    const info = await probe(mp3, 'mp3');
    expect(info.audio?.codec).toBe('mp3');
    expect(Math.abs(info.duration - plain.duration)).toBeLessThan(0.1);
    expect(Math.abs(plain.duration - plain.cues.at(-1)!.end)).toBeLessThan(0.1);

    // The SRT: each line's sentences, the words only and line-end punctuation dropped; the second line's pause marker
    // splits it where the engine said it paused. Each cue inside its line's, a line's first and last at its edges.
    const srt = parseSrt(await (await fetch(`${t.url}${plain.srt}`)).text());
    expect(srt.map((c) => c.lines.join(''))).toEqual(['大家好，欢迎收看今天的节目', '谢谢主持人', '很高兴来到这里', '那我们开始吧']);
    const lineOf = [0, 1, 1, 2];
    srt.forEach((c, i) => {
      const line = plain.cues[lineOf[i]!]!;
      expect(c.start, c.lines[0]).toBeGreaterThanOrEqual(line.start);
      expect(c.end, c.lines[0]).toBeLessThanOrEqual(line.end);
      if (lineOf[i - 1] !== lineOf[i]) expect(c.start).toBe(line.start);
      if (lineOf[i + 1] !== lineOf[i]) expect(c.end).toBe(line.end);
    });
    // Inside the second line, its 0.5 s pause lies between its two cues (as much of it as the offline engine keeps).
    expect(srt[2]!.start - srt[1]!.end).toBeGreaterThan(0.3);
    // Where the speech is heard: each cue after the first starts within 0.3 s of where a silence in the mp3 ends.
    const onsets = silencesIn(mp3, { noiseDb: -45, minSeconds: 0.2 }).map((s) => s.end);
    for (const cue of srt.slice(1)) expect(Math.min(...onsets.map((o) => Math.abs(o - cue.start))), `cue at ${cue.start}`).toBeLessThan(0.3);
    // …and the first one at once.
    expect(silencesIn(mp3, { noiseDb: -45, minSeconds: 0.2 }).some((s) => s.start < 0.05)).toBe(false);
  });

  it('lays background music from the material library under the speech, ducked while it speaks, the timing unchanged', async () => {
    await uploadFile(a, 'voice', makeTone(path.join(dir, 'music.mp3'), { hz: 3000, seconds: 6 }));
    const music = (await a.call(API.material.list, { type: 'audio', page: 1, limit: 50 })).data.list[0];
    // A long pause after the second line: the music is heard alone there, at its level.
    const withPause = dialogue().map((l, i) => (i === 1 ? { ...l, pause_after: 2 } : l));
    const sent = await create(a, { name: '有配乐', lines: lines(withPause), bgm_id: music.id, bgm_volume: 0.5 });
    const record = await finished(a, sent.data.id);
    expect(record).toMatchObject({ status: DubbingStatus.Done, bgm: 1 });
    // The same lines and voices: the same places as without music, save the longer pause.
    // (Within 10 ms: the offline engine's samples of a line may differ a little from one synthesis to the next.)
    for (const [i, cue] of record.cues.slice(0, 2).entries()) {
      expect(Math.abs(cue.start - plain.cues[i]!.start)).toBeLessThan(0.01);
      expect(Math.abs(cue.end - plain.cues[i]!.end)).toBeLessThan(0.01);
    }
    expect(Math.abs(record.cues[2]!.start - plain.cues[2]!.start - 1.5)).toBeLessThan(0.01);
    const mp3 = await downloadTo(t, record.url, dir, 'mp3');
    expect(Math.abs((await probe(mp3, 'mp3')).duration - record.cues.at(-1)!.end)).toBeLessThan(0.1);
    // Music fills every silence (looped past its 6 s) …
    expect(silencesIn(mp3, { noiseDb: -45, minSeconds: 0.2 })).toEqual([]);
    // … and is pressed down while a line is spoken: its tone is clearly quieter inside the first line (once faded in)
    // than in the pause after the second.
    const [first, second] = record.cues;
    const underSpeech = levelDb(mp3, { from: LIMITS.dubbing.bgmFadeInSeconds + 0.1, to: first!.end - 0.2, bandHz: 3000 });
    const alone = levelDb(mp3, { from: second!.end + 1, to: second!.end + 1.8, bandHz: 3000 });
    expect(alone - underSpeech).toBeGreaterThan(6);
    // B cannot lay A's material under a dub of B's.
    expect((await create(b, { lines: lines([{ voice_id: voice.host, text: '你好' }]), bgm_id: music.id })).msg).toBe(MSG.dubBgmMissing);
  });

  it('lays a music-library track under a dub too; a track that is not there is refused', async () => {
    const track = await t.operator(API.music.publish, { name: '配音曲库', audio: makeTone(path.join(dir, 'library-tone.mp3'), { hz: 3000, seconds: 6 }) });
    expect(track.code, track.msg).toBe(0);
    const withPause = dialogue().map((l, i) => (i === 1 ? { ...l, pause_after: 2 } : l));
    const sent = await create(a, { name: '曲库配乐', lines: lines(withPause), bgm: `lib-${track.data.id}`, bgm_volume: 0.5 });
    const record = await finished(a, sent.data.id);
    expect(record).toMatchObject({ status: DubbingStatus.Done, bgm: 1 });
    const mp3 = await downloadTo(t, record.url, dir, 'mp3');
    const [first, second] = record.cues;
    const underSpeech = levelDb(mp3, { from: LIMITS.dubbing.bgmFadeInSeconds + 0.1, to: first!.end - 0.2, bandHz: 3000 });
    const alone = levelDb(mp3, { from: second!.end + 1, to: second!.end + 1.8, bandHz: 3000 });
    expect(alone).toBeGreaterThan(-40);
    expect(alone - underSpeech).toBeGreaterThan(6);
    for (const bgm of ['lib-99999', 'my-1', 'x']) expect((await create(a, { lines: lines([{ voice_id: voice.host, text: '你好' }]), bgm })).msg, bgm).toBe(bgm === 'x' ? MSG.musicTrackMissing : MSG.dubBgmMissing);
  });

  it('renames, saves to the material library (the audio as its own copy, and the script), deletes', async () => {
    expect(await a.call(API.dubbing.rename, { id: plain.id, name: '新名字' })).toMatchObject({ code: 0, msg: MSG.renameSucceeded });
    expect(await a.call(API.dubbing.rename, { id: plain.id, name: ' ' })).toMatchObject({ code: 1, msg: MSG.renameNameRequired });
    const saved = await a.call(API.dubbing.save, { id: plain.id });
    expect(saved).toMatchObject({ code: 0, msg: MSG.saveSucceeded, data: { audio_id: expect.any(Number), text_id: expect.any(Number) } });
    const materials = (await a.call(API.material.list, { page: 1, limit: 50 })).data.list as { id: number; type: string; url: string; text?: string; origin?: string; duration?: number; name: string }[];
    const audio = materials.find((m) => m.id === saved.data.audio_id)!;
    expect(audio).toMatchObject({ type: 'audio', name: '新名字', origin: 'dubbing', source: 2 });
    expect(Math.abs(audio.duration! - plain.duration)).toBeLessThan(0.01);
    expect(materials.find((m) => m.id === saved.data.text_id)).toMatchObject({ type: 'text', text: DIALOGUE.map((l) => `${l.role}：${l.text}`).join('\n') });

    // Not while it is being made; deleting removes the dub's files and leaves the library's copy.
    const queued = await t.withJobsPaused(async () => {
      const id = (await create(a, { lines: lines([{ voice_id: voice.host, text: '排队中' }]) })).data.id as number;
      expect(await a.call(API.dubbing.save, { id })).toMatchObject({ code: 1, msg: MSG.dubNotReady });
      expect(await a.call(API.dubbing.remove, { id })).toMatchObject({ code: 1, msg: MSG.dubBusy });
      expect((await history(a)).generate).toBe(1);
      return id;
    });
    await finished(a, queued);
    expect(await a.call(API.dubbing.remove, { id: plain.id })).toMatchObject({ code: 0 });
    expect((await fetchHead(`${t.url}${plain.url}`)).status).toBe(404);
    expect((await fetchHead(`${t.url}${plain.srt}`)).status).toBe(404);
    expect((await fetchHead(`${t.url}${audio.url}`)).status).toBe(200);
    expect(await a.call(API.dubbing.remove, { id: plain.id })).toMatchObject({ code: 1, msg: MSG.dubRecordMissing });
  });

  it('keeps two users apart: B lists, renames, saves and deletes none of A\'s dubs, nor speaks with A\'s voice', async () => {
    const own = await cloneVoice(a, makeAudio(path.join(dir, 'sample.mp3'), { seconds: 6 }), 'A的声音');
    await trained(a, own.data.id);
    const id = (await create(a, { name: 'A的配音', lines: lines([{ voice_id: own.data.id, text: '只属于A' }]) })).data.id as number;
    const before = await finished(a, id);
    expect(await history(b)).toMatchObject({ list: [], total: 0, generate: 0 });
    for (const [call, params] of [[API.dubbing.rename, { id, name: 'B改的' }], [API.dubbing.save, { id }], [API.dubbing.remove, { id }]] as const) {
      expect(await b.call(call, params), call.id).toMatchObject({ code: 1, msg: MSG.dubRecordMissing });
    }
    expect((await create(b, { lines: lines([{ voice_id: own.data.id, text: '借用' }]) })).msg).toBe(MSG.dubLine(1, MSG.notFound));
    // Unchanged, the stored files too (their signed links are made afresh at each listing, so compare the paths).
    const unsigned = (r: DubbingRecord | undefined) => r && { ...r, url: r.url.split('?')[0], srt: r.srt.split('?')[0] };
    expect(unsigned((await history(a)).list.find((r) => r.id === id))).toEqual(unsigned(before));
    expect(await creditsOf(b)).toBe(1000);
  });

  it('on a paid channel: shows the price, reserves it at submit, settles it; a line the provider refuses fails the dub and refunds it', { timeout: 120_000 }, async () => {
    expect((await a.call(API.dubbing.prices, {})).data.list.find((c: { api: string }) => c.api === 'local')).toEqual({ api: 'local', name: expect.any(String), credits: 0 });
    expect(await t.operator(API.admin.channelSet, { api: 'local', kind: 'voice', dub_credits: 2 })).toMatchObject({ code: 1, msg: '离线引擎的配音免费，不能设置配音价格' });
    expect(await t.operator(API.admin.channelSet, { api: 'fy', kind: 'video', dub_credits: 2 })).toMatchObject({ code: 1, msg: '配音价格（--dub-credits）只适用于声音渠道' });
    expect(await t.operator(API.admin.channelSet, { api: 'mm', enabled: 'true', base_url: minimax.url, api_key: minimax.apiKey, dub_credits: 5 })).toMatchObject({ code: 0 });
    expect((await a.call(API.dubbing.prices, {})).data.list.find((c: { api: string }) => c.api === 'mm')).toMatchObject({ credits: 5 });

    const clone = await cloneVoice(a, makeAudio(path.join(dir, 'mm-sample.mp3'), { seconds: 12 }), 'MiniMax声音', 'mm');
    expect(await trained(a, clone.data.id)).toMatchObject({ generate_status: 2 });
    const start = await creditsOf(a);
    // 120 characters on MiniMax at 5 per 100 (6) and 30 offline (free): 6 credits, at once.
    const paid = [{ voice_id: clone.data.id, text: '好'.repeat(120), emotion: 'happy', role: '甲' }, { voice_id: voice.host, text: '免'.repeat(30), role: '乙' }];
    const sent = await t.withJobsPaused(async () => {
      const reply = await create(a, { lines: lines(paid) });
      expect(reply.code).toBe(0);
      expect(await creditsOf(a)).toBe(start - 6);
      expect((await history(a)).list[0]).toMatchObject({ id: reply.data.id, status: DubbingStatus.Queued, credits: 6 });
      return reply.data.id as number;
    });
    expect(await finished(a, sent)).toMatchObject({ status: DubbingStatus.Done, credits: 6 });
    expect(minimax.t2a.at(-1)).toMatchObject({ text: '好'.repeat(120), voice_setting: { emotion: 'happy' } });
    expect(await creditsOf(a)).toBe(start - 6);

    // The provider refuses the second line: the dub fails saying which line and why, and its credits come back.
    minimax.refuseText = '敏感';
    const failing = await create(a, { lines: lines([{ voice_id: clone.data.id, text: '第一句正常' }, { voice_id: clone.data.id, text: '这一句有敏感词' }]) });
    const failed = await finished(a, failing.data.id);
    minimax.refuseText = '';
    expect(failed).toMatchObject({ status: DubbingStatus.Failed, credits: 0, url: '', srt: '', reason: MSG.dubFailed(MSG.dubLineFailed(2, '文案含有敏感内容，请修改后重试'), true) });
    // The reservation at submit and its return, read from the credit log: the job may fail and refund before a balance read.
    expect(await latestCredits(a, 2)).toEqual([['配音失败退回', 1], ['配音', -1]]);
    expect(await creditsOf(a)).toBe(start - 6);

    // Without the credits nothing is recorded.
    const poor = await t.user(phone(3), 1);
    const published = (await t.operator(API.admin.voicePublish, { name: `MM公共·${kind}`, audio: makeAudio(path.join(dir, 'mm-public.mp3'), { seconds: 12 }), api: 'mm' })).data.id;
    await until(() => voicesOf(poor, 2), (v) => v.list.some((x: { id: number }) => x.id === published));
    expect(await create(poor, { lines: lines([{ voice_id: published, text: '字'.repeat(100) }]) })).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
    expect(await history(poor)).toMatchObject({ total: 0 });
    expect(await creditsOf(poor)).toBe(1);
  });
});
