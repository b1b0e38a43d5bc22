import 'reflect-metadata';
import { describe, expect, it, vi } from 'vitest';
import { Observable, firstValueFrom, from } from 'rxjs';
import { API, LIMITS, MSG, type CallDef, type Voice } from '../../../contract';
import { ApiCallError, type Storage, type ApiClient, type AuthService, type Navigation, type Notifier, type PollingService } from '../../../core';
import { MultiplesCommands } from './multiples-commands';
import { MULTIPLES_ROUTE, MultiplesState } from './multiples-state';
import { screenServices } from '../../../../tests/support/fake-api';
import { MULTI_DRAFT_KEY, auditionKey, cachedAudition, sceneAvatarOf, setSceneAvatar, setSceneText, setSceneVoice } from './scenes';

/** The Storage service's contract over a map (the draft's own store). */
function memoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: <T>(key: string, fallback: T) => (data.has(key) ? (JSON.parse(data.get(key)!) as T) : fallback),
    set: (key, value) => void data.set(key, JSON.stringify(value)),
    remove: (key) => void data.delete(key),
    removeAll: (prefix) => [...data.keys()].filter((k) => k.startsWith(prefix)).forEach((k) => data.delete(k)),
  };
}

/** The stored key of the /multiples draft (DraftStore puts drafts under draft.). */
const DRAFT_KEY = `draft.${MULTI_DRAFT_KEY}`;

const voice: Voice = {
  id: 7, name: '公共女声', url: '/v.mp3', api: 'local', type: 0, remained_times: 0, version_name: '离线', voice_channel_name: '离线',
  generate_status: 2, rate: 1, volume: 1, pitch: 1, source: 2, file_id: 70,
};
const avatar = { id: 3, name: '主播', url: '/a.mp4', cover: '/a.jpg', cover_small: '/a.jpg', source: 2, status: 3, duration: 6, orientation: 2 };

function setup(answer: (call: CallDef, params: unknown) => unknown, storage = memoryStorage()) {
  const calls: { id: string; params: unknown }[] = [];
  const api: ApiClient = {
    call: vi.fn(async (call: CallDef, params?: unknown) => {
      calls.push({ id: call.id, params });
      const out = answer(call, params);
      if (out instanceof Error) throw out;
      return out as never;
    }) as never,
  };
  const notifier = { success: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Notifier;
  const navigation = { current: { path: '/home', query: {} }, navigate: vi.fn() } as unknown as Navigation;
  const auth = { refreshProfile: vi.fn(async () => undefined) } as unknown as AuthService;
  // Polls back to back (the core's PollingService, with its timing, has its own tests); records the interval asked for.
  const intervals: number[] = [];
  const polling: PollingService = {
    poll: (fetch, options) => {
      intervals.push(options.intervalMs);
      return new Observable((sub) => {
        let stopped = false;
        void (async () => {
          while (!stopped) {
            const value = await firstValueFrom(from(fetch()));
            sub.next(value);
            if (!options.keepGoing(value)) return sub.complete();
          }
        })();
        return () => void (stopped = true);
      });
    },
  };
  const state = new MultiplesState(screenServices({ api, notifier, navigation, auth, polling, storage }));
  return { state, calls, notifier, navigation, auth, intervals, storage };
}

/** One complete text scene. */
function fill(state: MultiplesState) {
  const id = state.draft.scenes[0]!.id;
  state.update((d) => setSceneAvatar(setSceneVoice(setSceneText(d, id, '大家好，欢迎'), id, voice), id, sceneAvatarOf(avatar)));
  return id;
}

describe('multi-scene submission', () => {
  it('shows the first problem and outlines its scene, without calling the server', async () => {
    const { state, calls, notifier } = setup(() => ({}));
    const revealed: string[] = [];
    state.reveal$.subscribe((id) => revealed.push(id));
    const first = state.draft.scenes[0]!.id;
    expect(await state.submit()).toBe(false);
    expect(notifier.warn).toHaveBeenCalledWith(MSG.sceneTextRequired);
    expect(state.flagged$.value).toBe(first);
    expect(revealed).toEqual([first]);

    fill(state);
    expect(state.flagged$.value).toBeNull();
    const audio = state.addScene('audio')!;
    expect(await state.submit()).toBe(false);
    expect(notifier.warn).toHaveBeenLastCalledWith(MSG.sceneAudioRequired);
    expect(state.flagged$.value).toBe(audio);
    expect(calls).toEqual([]);
  });

  it('submits, refreshes the points, says 提交成功 and opens the multi-scene list of the works page', async () => {
    const { state, calls, notifier, navigation, auth, storage } = setup(() => ({ id: 1 }));
    fill(state);
    state.update((d) => ({ ...d, name: '我的多场景', outputMode: 'audio' }));
    expect(await state.submit()).toBe(true);
    expect(calls.map((c) => c.id)).toEqual([API.works.multi.id]);
    expect(calls[0]!.params).toMatchObject({ name: '我的多场景', api: 'fy', drive_mode: 'serial', output_mode: 'audio' });
    expect(JSON.parse((calls[0]!.params as { content: string }).content)).toEqual([
      { type: 'text', text: '大家好，欢迎', voice_id: 7, rate: 1, volume: 1, pitch: 1, video_id: 3, video_duration: 6 },
    ]);
    expect(auth.refreshProfile).toHaveBeenCalled();
    expect(notifier.success).toHaveBeenCalledWith(MSG.submitSucceeded);
    expect(navigation.navigate).toHaveBeenCalledWith('/works', { type1: 1, type2: 2 });
    // The stored draft is dropped; what was sent stays on screen for another variant, not unsaved until edited.
    expect(state.draft.name).toBe('我的多场景');
    expect(storage.data.has(DRAFT_KEY)).toBe(false);
    expect(await firstValueFrom(state.unsaved$)).toBe(false);
    expect(setup(() => ({}), storage).state.draft.name).toBe(LIMITS.defaultWorkName);
    state.update((d) => ({ ...d, name: '下一个' }));
    expect(await firstValueFrom(state.unsaved$)).toBe(true);
    expect(storage.data.has(DRAFT_KEY)).toBe(true);
  });

  it('with no lip-sync channel enabled says so and sends nothing, even from the palette', async () => {
    const { state, calls, notifier } = setup(() => ({ id: 1 }));
    fill(state);
    state.channel$.next(null);
    expect(await state.submit()).toBe(false);
    expect(notifier.warn).toHaveBeenCalledWith(MSG.multiSceneNoChannel);
    expect(calls).toEqual([]);
  });

  it('keeps the draft in storage: a new page (after closing the tab or a reload) starts from it, without auditions', async () => {
    const storage = memoryStorage();
    const first = setup(() => ({}), storage).state;
    expect(storage.data.has(DRAFT_KEY)).toBe(false);
    const id = fill(first);
    first.update((d) => ({ ...d, name: '草稿', driveMode: 'random' }));
    first.addScene('audio');
    first.update((d) => ({ ...d, scenes: d.scenes.map((s) => (s.id === id ? { ...s, audition: { key: auditionKey(s), url: '/a.mp3', file_id: 9 } } : s)) }));

    const again = setup(() => ({}), storage).state.draft;
    expect(again.name).toBe('草稿');
    expect(again.driveMode).toBe('random');
    expect(again.scenes.map((s) => [s.type, s.text, s.voice?.id, s.avatar?.id, s.audition])).toEqual([
      ['text', '大家好，欢迎', 7, 3, null],
      ['audio', '', 7, 3, null],
    ]);
    expect(new Set(again.scenes.map((s) => s.id)).size).toBe(2);
    // Not a draft of ours: the page opens empty.
    storage.data.set(DRAFT_KEY, JSON.stringify({ scenes: 'x' }));
    expect(setup(() => ({}), storage).state.draft.scenes).toHaveLength(1);
  });

  it("stays on the page when the server refuses (its message is the API client's toast), and throttles 1 s", async () => {
    const { state, navigation, auth } = setup(() => new ApiCallError(MSG.insufficientCredits, 1));
    fill(state);
    expect(await state.submit()).toBe(false);
    expect(navigation.navigate).not.toHaveBeenCalled();
    expect(auth.refreshProfile).not.toHaveBeenCalled();
    expect(state.submitting$.value).toBe(false);
    // A second click within the second is dropped.
    expect(await state.submit()).toBe(false);
  });
});

describe('multi-scene auditions', () => {
  it('synthesize, poll every 3 s until 3, keep url and file_id for the scene, play; then reuse it unchanged', async () => {
    let polls = 0;
    const { state, calls, intervals } = setup((call) => {
      if (call.id === API.voices.audition.id) return { job_id: 'j1' };
      polls += 1;
      return polls < 3 ? { job_id: 'j1', status: 1, url: '', file_id: 0 } : { job_id: 'j1', status: 3, url: '/storage/a.mp3', file_id: 91 };
    });
    const id = fill(state);
    const played: string[] = [];
    state.play$.subscribe((p) => played.push(`${p.sceneId}:${p.url}`));
    const done = state.audition(id);
    expect(state.auditioning$.value.has(id)).toBe(true);
    await done;
    expect(intervals).toEqual([LIMITS.auditionPollMs]);
    expect(calls.map((c) => c.id)).toEqual([API.voices.audition.id, API.voices.auditionPoll.id, API.voices.auditionPoll.id, API.voices.auditionPoll.id]);
    expect(calls[0]!.params).toEqual({ voice_id: 7, text: '大家好，欢迎', rate: 1, volume: 1, pitch: 1 });
    const scene = state.draft.scenes[0]!;
    expect(cachedAudition(scene)).toEqual({ key: auditionKey(scene), url: '/storage/a.mp3', file_id: 91 });
    expect(played).toEqual([`${id}:/storage/a.mp3`]);
    expect(state.auditioning$.value.has(id)).toBe(false);

    // Unchanged: played again from the cache, no new call.
    await state.audition(id);
    expect(calls).toHaveLength(4);
    expect(played).toHaveLength(2);
    // Edited: the cache is gone and the submission no longer carries it.
    state.update((d) => setSceneText(d, id, '改过的台词'));
    expect(state.draft.scenes[0]!.audition).toBeNull();
  });

  it('say 声音合成失败，请重新尝试 on status 4, and ask for text and a voice first', async () => {
    const { state, notifier, calls } = setup((call) => (call.id === API.voices.audition.id ? { job_id: 'j2' } : { job_id: 'j2', status: 4, url: '', file_id: 0 }));
    await state.audition(state.draft.scenes[0]!.id);
    expect(notifier.warn).toHaveBeenCalledWith(MSG.auditionNeedsTextAndVoice);
    expect(calls).toEqual([]);
    const id = fill(state);
    await state.audition(id);
    expect(notifier.error).toHaveBeenCalledWith(MSG.auditionFailed);
    expect(state.draft.scenes[0]!.audition).toBeNull();
  });

  it('drop a result for a scene that changed meanwhile', async () => {
    const { state } = setup((call) => {
      if (call.id === API.voices.audition.id) {
        // The user edits the scene while the job runs.
        state.update((d) => setSceneText(d, id, '用户又改了'));
        return { job_id: 'j3' };
      }
      return { job_id: 'j3', status: 3, url: '/storage/old.mp3', file_id: 5 };
    });
    const id = fill(state);
    const played: string[] = [];
    state.play$.subscribe((p) => played.push(p.url));
    await state.audition(id);
    expect(state.draft.scenes[0]!.audition).toBeNull();
    expect(played).toEqual([]);
  });
});

describe('multi-scene palette commands', () => {
  it('open /multiples and add a text or an audio scene, or submit', async () => {
    const { state, navigation, notifier } = setup(() => ({}));
    const commands = new MultiplesCommands(navigation, state).commands();
    const run = (id: string) => commands.find((c) => c.id === id)!.run();
    expect(commands.map((c) => c.title)).toEqual(['多场景：添加文本场景', '多场景：添加音频场景', '多场景：提交合成']);
    await run('creation.multiples.addText');
    await run('creation.multiples.addAudio');
    expect(navigation.navigate).toHaveBeenCalledWith(MULTIPLES_ROUTE);
    expect(state.draft.scenes.map((s) => s.type)).toEqual(['text', 'text', 'audio']);
    await run('creation.multiples.submit');
    expect(notifier.warn).toHaveBeenCalledWith(MSG.sceneTextRequired);
  });
});
