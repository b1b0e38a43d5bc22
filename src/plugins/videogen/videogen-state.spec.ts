import { describe, expect, it, vi } from 'vitest';
import { Subject } from 'rxjs';
import { API, LIMITS, MSG, VideoTaskStatus, type VideoRecord } from '../../contract';
import { TIMINGS } from '../../core';
import { fakeApi, fakeAuth, fakeClock, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { VideoGenState } from './videogen-state';
import { orgData } from './videogen-view';

const { notes, notifier } = recordingNotifier();
const record = (id: number, status: number, extra: Partial<VideoRecord> = {}): VideoRecord => ({
  id, status, url: `/v${id}.mp4`, cover: '', duration: 5, aspect_ratio: '16:9', mode: 'std', negative_prompt: '', cfg_scale: 0.5, image: '', image_tail: '', org_data: '', prompt: `p${id}`, ...extra,
});
const ENGINES = { text: { engine: 'kling', pro: 0 }, image: { engine: 'local', pro: 1 } };

function setup(replies: Record<string, unknown> = {}) {
  const api = fakeApi({
    [API.videogen.engine.id]: ENGINES,
    [API.videogen.list.id]: { list: [record(2, VideoTaskStatus.Processing), record(1, VideoTaskStatus.Success)], total: 2 },
    [API.videogen.recommend.id]: { list: [1, 2, 3, 4, 5].map((id) => ({ id, content: `推荐${id}`, image: '' })) },
    ...replies,
  });
  const auth = fakeAuth();
  const closed$ = new Subject<void>();
  const state = new VideoGenState(screenServices({ api, notifier, auth }));
  return { api, auth, closed$, state };
}

const settle = fakeClock();

describe('video generation screen state', () => {
  it('loads engines, history and recommendations; asks for the history again while open, and stops when the panel closes', async () => {
    const t = setup();
    const screen = t.state.open('text', t.closed$);
    await settle();
    expect(screen.proOpen).toBe(false);
    expect(screen.history.value?.map((r) => r.id)).toEqual([2, 1]);
    expect(screen.shown$.value).toHaveLength(LIMITS.recommendCount);
    await settle(TIMINGS.generationPollMs * 2);
    expect(t.api.count(API.videogen.list)).toBe(3);
    t.closed$.next();
    await settle(TIMINGS.generationPollMs * 3);
    expect(t.api.count(API.videogen.list)).toBe(3);
    expect(screen.history.polling$.value).toBe(false);
  });

  it('says the first problem instead of confirming, drops a second click within the throttle, refuses 高品质 while closed', async () => {
    const t = setup();
    const screen = t.state.open('image');
    await settle();
    screen.ask();
    expect(notes).toEqual([{ kind: 'warn', message: MSG.firstFrameRequired }]);
    screen.patch({ image: '/a.png', content: '动起来' });
    screen.ask();
    expect(notes).toHaveLength(1); // within the throttle window: dropped
    await settle(TIMINGS.submitThrottleMs);
    screen.ask();
    expect(screen.confirming$.value).toBe(true);

    const text = t.state.open('text');
    await settle();
    text.chooseMode('pro');
    expect(text.form.mode).toBe('std');
    expect(notes.at(-1)).toEqual({ kind: 'warn', message: MSG.highQualityMaintenance });
    screen.dispose();
    text.dispose();
  });

  it('sends the confirmed form after the debounce, shows the new record and refreshes the credits', async () => {
    const t = setup({ [API.videogen.create.id]: { id: 9 } });
    const screen = t.state.open('text');
    await settle();
    screen.patch({ content: '海边', chosen: ['电影感'] });
    screen.ask();
    screen.submit();
    expect(screen.confirming$.value).toBe(false);
    await settle(LIMITS.createDebounceMs - 1);
    expect(t.api.count(API.videogen.create)).toBe(0);
    await settle(1);
    expect(t.api.calls.find((c) => c.id === API.videogen.create.id)?.params).toMatchObject({ type: 'text', prompt: '海边，电影感', org_data: orgData(screen.form) });
    expect([screen.selectedId$.value, screen.submitting$.value, t.auth.refreshed]).toEqual([9, false, 1]);
    expect(t.api.count(API.videogen.list)).toBe(2);
    expect(notes.at(-1)?.kind).toBe('success');
    screen.dispose();
  });

  it('keeps the form when the server refuses the submit', async () => {
    const t = setup({ [API.videogen.create.id]: new Error(MSG.insufficientCredits) });
    const screen = t.state.open('text');
    await settle();
    screen.patch({ content: '海边' });
    const form = screen.form;
    screen.ask();
    screen.submit();
    await settle(LIMITS.createDebounceMs);
    expect([screen.form, screen.submitting$.value, screen.selectedId$.value, t.auth.refreshed]).toEqual([form, false, null, 0]);
    screen.dispose();
  });

  it('choosing a record refills the form; deleting the shown record lets the preview fall back', async () => {
    const t = setup({ [API.videogen.remove.id]: {} });
    const screen = t.state.open('text');
    await settle();
    const done = record(1, VideoTaskStatus.Success, { org_data: orgData({ content: '日落', chosen: ['环绕'] }), mode: 'pro', duration: 10 });
    screen.choose(done);
    expect(screen.form).toMatchObject({ content: '日落', chosen: ['环绕'], mode: 'pro', duration: 10 });
    expect(screen.selectedId$.value).toBe(1);
    screen.deletion.ask(done);
    await screen.deletion.confirm();
    expect(screen.selectedId$.value).toBeNull();
    expect(t.api.count(API.videogen.list)).toBe(2);
    screen.dispose();
  });

  it('word bank loads when opened; presets search after the keyword settles, open with the prompt, save and refuse empty content', async () => {
    const presets = vi.fn((p: { keyword?: string }) => ({ list: p.keyword ? [] : [{ id: 1, title: '日落', content: '海边日落' }] }));
    const t = setup({ [API.videogen.prompts.id]: { list: [] }, [API.videogen.presets.id]: presets, [API.videogen.presetSave.id]: {} });
    const screen = t.state.open('text');
    await settle();
    expect(t.api.count(API.videogen.prompts)).toBe(0);
    screen.toggleWords();
    expect(screen.panel$.value).toBe('words');
    await settle();
    expect(t.api.count(API.videogen.prompts)).toBe(1);

    screen.patch({ content: '当前描述' });
    screen.openPresets();
    await settle();
    expect([screen.presets.content$.value, screen.presets.list.value?.length]).toEqual(['当前描述', 1]);
    screen.presets.keyword$.next(' 日');
    screen.presets.keyword$.next(' 日落 ');
    await settle(LIMITS.presetSearchDebounceMs);
    expect(presets.mock.calls.map(([p]) => p.keyword)).toEqual(['', '日落']);
    expect(screen.presets.search$.value).toBe('日落');

    screen.presets.content$.next('  ');
    expect(await screen.presets.save()).toBe(false);
    expect(notes.at(-1)).toEqual({ kind: 'warn', message: MSG.presetContentRequired });
    screen.presets.content$.next('新的预设');
    expect(await screen.presets.save()).toBe(true);
    expect(t.api.calls.find((c) => c.id === API.videogen.presetSave.id)?.params).toEqual({ content: '新的预设' });

    screen.usePreset('海边日落');
    expect([screen.form.content, screen.panel$.value, screen.presets.open$.value]).toEqual(['海边日落', null, false]);
    screen.dispose();
  });

  it('the material picker fills the picture it was opened for', async () => {
    const t = setup({ [API.material.list.id]: { list: [{ id: 1, url: '/m.png' }], total: 1 } });
    const screen = t.state.open('image');
    screen.openPicker('imageTail');
    await settle();
    expect(screen.materials.value).toHaveLength(1);
    screen.pickMaterial('/m.png');
    expect([screen.form.imageTail, screen.form.image, screen.picking$.value]).toEqual(['/m.png', '', null]);
    screen.dispose();
  });
});
