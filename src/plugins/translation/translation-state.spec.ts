import { describe, expect, it, vi } from 'vitest';
import { Subject } from 'rxjs';
import { API, MSG, TranslationMode, WorkStatus } from '../../contract';
import { TIMINGS, type Navigation, type UploadedFile } from '../../core';
import { fakeApi, fakeAuth, fakeClock, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { TranslationState, WORKS } from './translation-state';

const { notes, notifier } = recordingNotifier();
const VIDEO = { file_id: 7, url: '/v.mp4', duration: 12 } as unknown as UploadedFile;
const recentOf = (...statuses: number[]) => ({
  list: statuses.map((status, i) => ({ id: i + 1, name: `视频${i + 1}`, status })),
  total: statuses.length,
  generate: statuses.filter((s) => s !== WorkStatus.Success && s !== WorkStatus.Failed).length,
});

function setup(replies: Record<string, unknown> = {}) {
  const api = fakeApi({
    [API.translation.languages.id]: { list: [{ id: 'zh', name: '中文', icon: '' }, { id: 'en', name: '英语', icon: '' }], ready: true },
    [API.translation.list.id]: recentOf(WorkStatus.Success),
    ...replies,
  });
  const auth = fakeAuth();
  const navigation = { navigate: vi.fn() } as unknown as Navigation;
  const closed$ = new Subject<void>();
  const screen = new TranslationState(screenServices({ api, notifier, auth, navigation })).open(closed$);
  return { api, auth, navigation, closed$, screen };
}

const settle = fakeClock();

describe('translation screen state', () => {
  it('asks for the recent translations again while one is in progress, and stops once none is', async () => {
    const answers = [recentOf(WorkStatus.Rendering), recentOf(WorkStatus.Rendering), recentOf(WorkStatus.Success)];
    const t = setup({ [API.translation.list.id]: () => answers.shift() ?? recentOf(WorkStatus.Success) });
    await settle();
    expect(t.screen.recent.polling$.value).toBe(true);
    await settle(TIMINGS.worksPollMs * 2);
    expect(t.api.count(API.translation.list)).toBe(3);
    expect(t.screen.recent.polling$.value).toBe(false);
    await settle(TIMINGS.worksPollMs * 3);
    expect(t.api.count(API.translation.list)).toBe(3);
    t.screen.dispose();
  });

  it('says the first thing missing and sends nothing', async () => {
    const t = setup();
    await settle();
    expect(await t.screen.start()).toBe(false);
    t.screen.video$.next(VIDEO);
    t.screen.source$.next('zh');
    t.screen.target$.next('zh');
    expect(await t.screen.start()).toBe(false);
    expect(notes).toEqual([{ kind: 'error', message: MSG.translationVideoRequired }, { kind: 'error', message: MSG.translationSameLanguage }]);
    expect(t.api.count(API.translation.submit)).toBe(0);
    t.screen.dispose();
  });

  it('submits, then clears the video for a new upload box, reloads the list and the credits', async () => {
    const t = setup({ [API.translation.submit.id]: { id: 3 } });
    await settle();
    t.screen.video$.next(VIDEO);
    t.screen.source$.next('zh');
    t.screen.target$.next('en');
    t.screen.mode$.next(TranslationMode.VoiceOnly);
    expect(await t.screen.start()).toBe(true);
    expect(t.api.calls.find((c) => c.id === API.translation.submit.id)?.params).toEqual({ file_id: 7, source_lang: 'zh', target_lang: 'en', mode: TranslationMode.VoiceOnly });
    expect([t.screen.video$.value, t.screen.uploadRound$.value, t.screen.submitting$.value, t.auth.refreshed]).toEqual([null, 1, false, 1]);
    expect(t.api.count(API.translation.list)).toBe(2);
    expect(notes).toEqual([{ kind: 'success', message: MSG.submitSucceeded }]);
    t.screen.openWorks();
    expect(t.navigation.navigate).toHaveBeenCalledWith(WORKS.route, WORKS.query);
    t.screen.dispose();
  });

  it('keeps the form when the server refuses (the loader only ends)', async () => {
    const t = setup({ [API.translation.submit.id]: new Error(MSG.insufficientCredits) });
    await settle();
    t.screen.video$.next(VIDEO);
    t.screen.source$.next('zh');
    t.screen.target$.next('en');
    expect(await t.screen.start()).toBe(false);
    expect([t.screen.video$.value, t.screen.source$.value, t.screen.target$.value, t.screen.uploadRound$.value, t.screen.submitting$.value]).toEqual([VIDEO, 'zh', 'en', 0, false]);
    expect(notes).toEqual([]);
    t.screen.dispose();
  });
});
