import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { API, ExtractionStatus, AudioExtractType, MSG, type ExtractionRecord } from '../../contract';
import { TIMINGS, type UploadedFile } from '../../core';
import { fakeApi, fakeAuth, fakeClock, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { ExtractionState, PAGE } from './extraction-state';
import { AUDIO_EXTRACTION, VIDEO_EXTRACTION, type ExtractionKind } from './extraction-view';

const { notes, notifier } = recordingNotifier();
const LINK = '复制打开抖音 https://v.douyin.com/x/ 看看';
const row = (id: number, status: number) => ({ id, status, status_name: '', desc: `第${id}条视频的描述文字很长很长很长很长`, link: '', cover: '', url: '', size: 0 }) as ExtractionRecord;
const listOf = (...statuses: number[]) => ({ list: statuses.map((s, i) => row(i + 1, s)), total: statuses.length, num: 1 });

function setup(kind: ExtractionKind, replies: Record<string, unknown> = {}) {
  const api = fakeApi({ [VIDEO_EXTRACTION.list.id]: listOf(ExtractionStatus.Success), [AUDIO_EXTRACTION.list.id]: listOf(ExtractionStatus.Success), ...replies });
  const auth = fakeAuth();
  const closed$ = new Subject<void>();
  const screen = new ExtractionState(screenServices({ api, notifier, auth })).open(kind, closed$);
  return { api, auth, closed$, screen };
}

const settle = fakeClock();

describe('extraction screen state', () => {
  it('asks for the tab again while a record is processing, stops once none is, and on close', async () => {
    const answers = [listOf(ExtractionStatus.Processing), listOf(ExtractionStatus.Success)];
    const t = setup(VIDEO_EXTRACTION, { [VIDEO_EXTRACTION.list.id]: () => answers.shift() ?? listOf(ExtractionStatus.Processing) });
    await settle();
    expect(t.screen.records.polling$.value).toBe(true);
    await settle(TIMINGS.extractionPollMs);
    expect([t.api.count(VIDEO_EXTRACTION.list), t.screen.records.polling$.value]).toEqual([2, false]);
    await settle(TIMINGS.extractionPollMs * 3);
    expect(t.api.count(VIDEO_EXTRACTION.list)).toBe(2);

    t.screen.records.reload(); // processing again from here on
    await settle(TIMINGS.extractionPollMs);
    expect(t.api.count(VIDEO_EXTRACTION.list)).toBe(4);
    t.closed$.next();
    await settle(TIMINGS.extractionPollMs * 3);
    expect(t.api.count(VIDEO_EXTRACTION.list)).toBe(4);
  });

  it('a tab asks with its status and starts empty', async () => {
    const t = setup(VIDEO_EXTRACTION);
    await settle();
    t.screen.selectTab('failed');
    expect(t.screen.records.value).toBeUndefined();
    await settle();
    expect(t.api.calls.map((c) => c.params)).toEqual([{ page: 1, limit: PAGE }, { page: 1, limit: PAGE, status: ExtractionStatus.Failed }]);
    t.screen.dispose();
  });

  it('says what is missing, sends a link, then empties the form and goes back to 全部 from 失败', async () => {
    const t = setup(VIDEO_EXTRACTION, { [API.extraction.videoParse.id]: {} });
    await settle();
    expect(await t.screen.start()).toBe(false);
    t.screen.form.text$.next('只有文字');
    expect(await t.screen.start()).toBe(false);
    expect(notes).toEqual([{ kind: 'error', message: MSG.extractionLinkRequired }, { kind: 'error', message: MSG.extractionLinkMissing }]);
    t.screen.selectTab('failed');
    t.screen.form.text$.next(LINK);
    expect(await t.screen.start()).toBe(true);
    expect(t.api.calls.find((c) => c.id === API.extraction.videoParse.id)?.params).toEqual({ link: LINK });
    expect([t.screen.form.text$.value, t.screen.tab$.value, t.screen.form.uploadRound$.value, t.auth.refreshed]).toEqual(['', 'all', 1, 1]);
    expect(notes.at(-1)).toEqual({ kind: 'success', message: MSG.submitSucceeded });
    t.screen.dispose();
  });

  it('audio: a local upload needs its video; a refused extraction keeps the form', async () => {
    const t = setup(AUDIO_EXTRACTION, { [API.extraction.audioExtract.id]: new Error(MSG.insufficientCredits) });
    await settle();
    t.screen.form.way$.next(AudioExtractType.Upload);
    expect(await t.screen.start()).toBe(false);
    expect(notes).toEqual([{ kind: 'error', message: MSG.translationVideoRequired }]);
    const video = { file_id: 9 } as unknown as UploadedFile;
    t.screen.form.video$.next(video);
    expect(await t.screen.start()).toBe(false);
    expect(t.api.calls.at(-1)).toEqual({ id: API.extraction.audioExtract.id, params: { type: AudioExtractType.Upload, file_id: 9 } });
    expect([t.screen.form.video$.value, t.screen.form.uploadRound$.value, t.screen.form.submitting$.value, t.auth.refreshed]).toEqual([video, 0, false, 0]);
    t.screen.dispose();
  });

  it('saves a finished record under the first 15 characters of its description, busy only for that row', async () => {
    const t = setup(AUDIO_EXTRACTION, { [API.extraction.saveToMaterial.id]: {} });
    await settle();
    const saving = t.screen.saveToMaterial(row(3, ExtractionStatus.Success));
    expect([...t.screen.saving$.value]).toEqual([3]);
    await saving;
    expect(t.api.calls.at(-1)?.params).toEqual({ type: 'audio', source: 'analyse', name: '第3条视频的描述文字很长很长很', rid: 3 });
    expect([...t.screen.saving$.value]).toEqual([]);
    expect(notes).toEqual([{ kind: 'success', message: MSG.savedToMaterial }]);
    t.screen.dispose();
  });
});
