import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { API, ImagegenStatus, LIMITS, MSG, type ImageRecord } from '../../contract';
import { TIMINGS } from '../../core';
import { fakeApi, fakeAuth, fakeClock, screenServices } from '../../../tests/support/fake-api';
import { recordingNotifier } from '../../../tests/support/notes';
import { ImageGenState, type SaveFile } from './imagegen-state';

const { notes, notifier } = recordingNotifier();
const record = (id: number, status: number, pictures = 1): ImageRecord => ({
  id, status, text: `湖泊${id}`, ratio: '1:1', num: pictures, image: '', url: Array.from({ length: status === ImagegenStatus.Success ? pictures : 0 }, (_, i) => `/i${id}-${i}.png`),
});
const RECORDS = [record(3, ImagegenStatus.Pending), record(2, ImagegenStatus.Success, 3), record(1, ImagegenStatus.Success)];

function setup(replies: Record<string, unknown> = {}, saveFile: SaveFile = async () => undefined) {
  const api = fakeApi({
    [API.imagegen.engine.id]: { configured: 1 },
    [API.imagegen.prompts.id]: { list: Array.from({ length: 6 }, (_, i) => ({ id: i + 1, content: `提示${i + 1}` })) },
    [API.imagegen.list.id]: { list: RECORDS, total: 3 },
    ...replies,
  });
  const auth = fakeAuth();
  const closed$ = new Subject<void>();
  const screen = new ImageGenState(screenServices({ api, notifier, auth })).open(closed$, saveFile);
  return { api, auth, closed$, screen };
}

const settle = fakeClock();

describe('text-to-image screen state', () => {
  it('draws three suggestions, again on 换一换; asks for the history while open and stops when the panel closes', async () => {
    const t = setup();
    await settle();
    expect(t.screen.configured).toBe(true);
    expect(new Set(t.screen.suggestions$.value.map((p) => p.id)).size).toBe(LIMITS.recommendCount);
    const before = t.screen.suggestions$.value;
    t.screen.shuffle();
    expect(t.screen.suggestions$.value).not.toBe(before);
    await settle(TIMINGS.generationPollMs);
    expect(t.api.count(API.imagegen.list)).toBe(2);
    t.closed$.next();
    await settle(TIMINGS.generationPollMs * 3);
    expect(t.api.count(API.imagegen.list)).toBe(2);
  });

  it('asks for a description first; a generate closes the confirmation, shows the newest record and refreshes the credits', async () => {
    const t = setup({ [API.imagegen.create.id]: { id: 4 } });
    await settle();
    t.screen.ask();
    expect(notes).toEqual([{ kind: 'warn', message: MSG.promptRequired }]);
    t.screen.choose(RECORDS[2]!);
    t.screen.patch({ text: ' 湖边小屋 ', num: 2, ratio: '16:9' });
    await settle(TIMINGS.submitThrottleMs);
    t.screen.ask();
    expect(t.screen.confirming$.value).toBe(true);
    expect(await t.screen.generate()).toBe(true);
    expect(t.api.calls.find((c) => c.id === API.imagegen.create.id)?.params).toEqual({ type: 'text', text: '湖边小屋', ratio: '16:9', num: 2, image: undefined });
    expect([t.screen.confirming$.value, t.screen.submitting$.value, t.screen.chosenId$.value, t.auth.refreshed]).toEqual([false, false, null, 1]);
    expect(t.api.count(API.imagegen.list)).toBe(2);
    t.screen.dispose();
  });

  it('keeps the form when the server refuses', async () => {
    const t = setup({ [API.imagegen.create.id]: new Error(MSG.insufficientCredits) });
    await settle();
    t.screen.patch({ text: '湖边小屋', num: 4 });
    const form = t.screen.form;
    t.screen.ask();
    expect(await t.screen.generate()).toBe(false);
    expect([t.screen.form, t.screen.confirming$.value, t.auth.refreshed]).toEqual([form, false, 0]);
    t.screen.dispose();
  });

  it('previews the chosen record (else the newest finished); the carousel turns, holds while paused, starts over for another record', async () => {
    const t = setup();
    await settle();
    expect(t.screen.previewed$.value?.id).toBe(2);
    await settle(LIMITS.carouselMs);
    expect(t.screen.slide$.value).toBe(1);
    t.screen.paused$.next(true);
    await settle(LIMITS.carouselMs * 3);
    expect(t.screen.slide$.value).toBe(1);
    t.screen.paused$.next(false);
    await settle(LIMITS.carouselMs * 2);
    expect(t.screen.slide$.value).toBe(0); // 1 → 2 → 0 of three pictures

    t.screen.showSlide(2);
    t.screen.choose(RECORDS[2]!);
    expect([t.screen.previewed$.value?.id, t.screen.slide$.value, t.screen.form.text]).toEqual([1, 0, '湖泊1']);
    await settle(LIMITS.carouselMs * 2);
    expect(t.screen.slide$.value).toBe(0); // one picture: nothing to turn
    t.screen.dispose();
  });

  it('downloads each picture under its name and says so; a failed download says it failed', async () => {
    const saved: string[] = [];
    let fail = false;
    const t = setup({}, async (url, name) => {
      if (fail) throw new Error('404');
      saved.push(`${url} ${name}`);
    });
    await settle();
    await t.screen.download(RECORDS[1]!, [0, 2]);
    expect(saved).toEqual(['/i2-0.png 湖泊2-1.png', '/i2-2.png 湖泊2-3.png']);
    fail = true;
    await t.screen.download(RECORDS[1]!, [1]);
    expect(notes).toEqual([{ kind: 'success', message: MSG.downloadSucceededTool }, { kind: 'error', message: MSG.downloadFailedTool }]);
    t.screen.dispose();
  });
});
