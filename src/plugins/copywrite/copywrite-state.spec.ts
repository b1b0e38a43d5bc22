import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Subject } from 'rxjs';
import { API, CopywriteStatus, CREATE_TEXT_KEY, MSG, type CopyRecord } from '../../contract';
import { TIMINGS } from '../../core';
import { fakeAnswerStream, fakeApi, fakeAuth, handOffStubs, polling } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { CopywriteState, RECENT } from './copywrite-state';
import { clockOf, preview, rewriteUrl, sourceLabel } from './copywrite-view';

const { notes, notifier } = recordingNotifier();
const record = (id: number, status: number, more: Partial<CopyRecord> = {}): CopyRecord => ({
  id, status, text: status === CopywriteStatus.Done ? `第${id}条文案。` : '', segments: [], source: status === CopywriteStatus.Done ? 'ocr' : '',
  cover: '', duration: 10, link: `https://v.douyin.com/${id}/`, title: '', create_time: '2026-11-27 10:00:00', ...more,
});

function setup(records: CopyRecord[], replies: Record<string, unknown> = {}) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const api = fakeApi({
    [API.copywrite.list.id]: (p: { id?: number }) => {
      const list = p.id === undefined ? [...byId.values()].sort((a, b) => b.id - a.id).slice(0, RECENT) : [byId.get(p.id)].filter(Boolean);
      return { list, total: p.id === undefined ? byId.size : list.length, num: 0 };
    },
    ...replies,
  });
  const { stored, storage, navigation, tokens } = handOffStubs();
  const stream = fakeAnswerStream();
  const copied: string[] = [];
  const closed$ = new Subject<void>();
  const state = new CopywriteState(api, notifier, fakeAuth(), polling(), tokens, storage, navigation);
  const screen = state.open(closed$, { read: stream.read, clipboard: async (text) => void copied.push(text) });
  return { api, byId, stored, navigation, stream, copied, closed$, state, screen };
}

const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('copy extraction screen state', () => {
  it('shows the newest record, and asks for one being read again until it is done', async () => {
    const t = setup([record(1, CopywriteStatus.Done), record(2, CopywriteStatus.Running)]);
    await settle();
    expect(t.screen.selected$.value).toBe(2);
    expect(t.screen.current.value?.status).toBe(CopywriteStatus.Running);
    t.byId.set(2, record(2, CopywriteStatus.Done));
    await settle(TIMINGS.extractionPollMs);
    expect(t.screen.current.value).toMatchObject({ id: 2, status: CopywriteStatus.Done, text: '第2条文案。' });
    const asked = t.api.count(API.copywrite.list);
    await settle(TIMINGS.extractionPollMs * 3);
    expect(t.api.count(API.copywrite.list)).toBe(asked);
    expect(t.state.screen$.value).toBe(t.screen);
    t.closed$.next();
    expect(t.state.screen$.value).toBeNull();
  });

  it('says what is missing before sending, then sends the link and shows the new record', async () => {
    const t = setup([], { [API.copywrite.submit.id]: { id: 7 } });
    await settle();
    expect(await t.screen.start()).toBe(false);
    expect(notes).toEqual([{ kind: 'error', message: MSG.extractionLinkRequired }]);
    t.screen.form.text$.next('看看这个作品');
    expect(await t.screen.start()).toBe(false);
    expect(notes.at(-1)).toEqual({ kind: 'error', message: MSG.extractionLinkMissing });
    expect(t.api.count(API.copywrite.submit)).toBe(0);

    t.byId.set(7, record(7, CopywriteStatus.Queued));
    t.screen.form.text$.next('复制打开抖音 https://v.douyin.com/7/ 看看');
    expect(await t.screen.start()).toBe(true);
    await settle();
    expect(t.api.calls.find((c) => c.id === API.copywrite.submit.id)?.params).toEqual({ type: 1, link: '复制打开抖音 https://v.douyin.com/7/ 看看' });
    expect([t.screen.form.text$.value, t.screen.selected$.value, t.screen.current.value?.id]).toEqual(['', 7, 7]);
    t.screen.dispose();
  });

  it('copies, edits in place (not blank), saves to the material library and takes the copy to /create', async () => {
    const t = setup([record(3, CopywriteStatus.Done)], { [API.copywrite.edit.id]: {}, [API.copywrite.save.id]: { id: 40 } });
    await settle();
    await t.screen.copy('第3条文案。');
    expect(t.copied).toEqual(['第3条文案。']);
    t.screen.edit();
    expect(t.screen.draft$.value).toBe('第3条文案。');
    t.screen.draft$.next('   ');
    expect(await t.screen.saveEdit()).toBe(false);
    expect(notes.at(-1)).toEqual({ kind: 'error', message: MSG.copyTextRequired });
    t.screen.draft$.next('改过的文案。');
    expect(await t.screen.saveEdit()).toBe(true);
    expect([t.screen.draft$.value, t.screen.current.value?.text]).toEqual([null, '改过的文案。']);
    await t.screen.saveToMaterial('改写后的文案');
    expect(t.api.calls.filter((c) => c.id === API.copywrite.save.id).map((c) => c.params)).toEqual([{ id: 3, text: '改写后的文案' }]);
    t.screen.goCreate('改过的文案。');
    expect(t.stored[CREATE_TEXT_KEY]).toBe('改过的文案。');
    expect(t.navigation.navigate).toHaveBeenCalledWith('/create', { type: 'fk' });
    t.screen.dispose();
  });

  it('streams a rewrite in the chosen style, asks for an instruction in the custom one, and stops keeping what arrived', async () => {
    const t = setup([record(4, CopywriteStatus.Done)]);
    await settle();
    t.screen.style$.next('custom');
    await t.screen.rewrite();
    expect(notes.at(-1)).toEqual({ kind: 'error', message: MSG.copyRewriteInstructionRequired });
    expect(t.stream.opened).toHaveLength(0);

    t.screen.style$.next('zhongcao');
    const done = t.screen.rewrite();
    expect(t.stream.opened[0]!.url).toBe(rewriteUrl('tok', { id: 4, style: 'zhongcao' }));
    t.stream.opened[0]!.emit({ message: '姐妹们' });
    t.stream.opened[0]!.emit({ message: '冲！' });
    expect(t.screen.rewrite$.value).toEqual({ text: '姐妹们冲！', streaming: true });
    t.stream.opened[0]!.emit({ message: '', done: 1 });
    t.stream.opened[0]!.end();
    await done;
    expect(t.screen.rewrite$.value).toEqual({ text: '姐妹们冲！', streaming: false });

    const again = t.screen.rewrite();
    t.stream.opened[1]!.emit({ message: '一半' });
    t.screen.stopRewrite();
    await again;
    expect(t.screen.rewrite$.value).toEqual({ text: '一半', streaming: false });
    t.screen.dispose();
  });
});

describe('copy extraction view', () => {
  it('words the source, the times, the preview and the rewrite address', () => {
    expect([sourceLabel({ source: 'asr' }), sourceLabel({ source: 'ocr' }), sourceLabel({ source: '' })]).toEqual(['来源：语音识别', '来源：画面字幕', '']);
    expect([clockOf(0.4), clockOf(65.25)]).toEqual(['0:00.4', '1:05.3']);
    expect(preview('一二三四五六', 4)).toBe('一二三四…');
    expect(rewriteUrl('t', { id: 1, style: 'custom', instruction: '更短' })).toBe('/api/text/analyse/rewrite?token=t&id=1&style=custom&instruction=%E6%9B%B4%E7%9F%AD');
  });
});
