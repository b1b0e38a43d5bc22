import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BehaviorSubject, Subject } from 'rxjs';
import { MSG } from '../contract';
import { RxPollingService } from './polling-service';
import { DeletionFlow, hasMorePages, PagedStore, RemoteStore, runBusy, runBusyItem } from './screen-state';
import type { Notifier } from './tokens';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);

describe('RemoteStore', () => {
  it('loads on reload, keeps the last value while reloading and after a failure, clears when asked', async () => {
    let answer: string | Error = 'a';
    const store = new RemoteStore(async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    });
    expect(store.remote$.value).toEqual({ state: 'idle' });
    store.reload();
    expect(store.remote$.value).toEqual({ state: 'loading', value: undefined });
    await settle();
    expect(store.remote$.value).toEqual({ state: 'ok', value: 'a' });
    answer = new Error('服务器繁忙');
    store.reload();
    expect(store.remote$.value).toEqual({ state: 'loading', value: 'a' });
    await settle();
    expect(store.remote$.value).toEqual({ state: 'error', message: '服务器繁忙', value: 'a' });
    answer = 'b';
    store.reload({ clear: true });
    expect(store.value).toBeUndefined();
    await settle();
    expect(store.value).toBe('b');
  });

  it('drops the answer of a call a newer reload replaced, and everything after dispose', async () => {
    const resolvers: ((v: string) => void)[] = [];
    const signals: AbortSignal[] = [];
    const store = new RemoteStore((signal) => {
      signals.push(signal!);
      return new Promise<string>((resolve) => resolvers.push(resolve));
    });
    store.reload();
    store.reload();
    expect(signals[0]!.aborted).toBe(true);
    resolvers[1]!('new');
    resolvers[0]!('old');
    await settle();
    expect(store.value).toBe('new');
    store.reload();
    store.dispose();
    expect(signals[2]!.aborted).toBe(true);
    store.reload();
    expect(signals).toHaveLength(3);
  });

  it('polls while the answer says to keep going, stops when it does not, and on stop$', async () => {
    const answers = [2, 1, 0, 5];
    let calls = 0;
    const stop$ = new Subject<void>();
    const store = new RemoteStore(async () => answers[calls++]!, { poll: { polling: new RxPollingService(), intervalMs: 100, keepGoing: (n) => n > 0, stop$ } });
    store.reload();
    await settle();
    expect([store.value, store.polling$.value, calls]).toEqual([2, true, 1]);
    await settle(100);
    expect([store.value, calls]).toEqual([1, 2]);
    await settle(100);
    expect([store.value, store.polling$.value, calls]).toEqual([0, false, 3]);
    await settle(1000);
    expect(calls).toBe(3);

    // A reload that keeps going starts again; the panel's close ends it.
    answers.push(5, 5, 5);
    store.reload();
    await settle();
    expect(store.polling$.value).toBe(true);
    await settle(100);
    const before = calls;
    stop$.next();
    await settle(1000);
    expect([calls, store.polling$.value]).toEqual([before, false]);
  });

  it('stops polling on dispose', async () => {
    let calls = 0;
    const store = new RemoteStore(async () => ++calls, { poll: { polling: new RxPollingService(), intervalMs: 100, keepGoing: () => true } });
    store.reload();
    await settle(250);
    expect(calls).toBe(3);
    store.dispose();
    await settle(1000);
    expect([calls, store.polling$.value]).toEqual([3, false]);
  });
});

describe('PagedStore', () => {
  it('appends the next page, reloads every page loaded so far, and knows when there is no more', async () => {
    const asked: number[] = [];
    const store = new PagedStore(async (page: number) => {
      asked.push(page);
      return { items: [{ id: page * 10 }, { id: page * 10 + 1 }], total: 5 };
    });
    store.reload();
    await settle();
    expect(hasMorePages(store.list.value)).toBe(true);
    store.loadMore();
    expect(store.loadingMore$.value).toBe(true);
    await settle();
    expect(store.list.value?.items.map((i) => i.id)).toEqual([10, 11, 20, 21]);
    store.reload();
    await settle();
    expect(asked).toEqual([1, 2, 1, 2]);
    expect([hasMorePages({ items: [1], total: 1 }), hasMorePages({ items: [1], more: true }), hasMorePages({ items: [] }), hasMorePages(undefined)]).toEqual([false, true, false, false]);
  });
});

describe('DeletionFlow and runBusy', () => {
  const notifier = (): Notifier & { said: string[] } => {
    const said: string[] = [];
    return { said, success: (m) => said.push(`success:${m}`), info: (m) => said.push(`info:${m}`), warn: (m) => said.push(`warn:${m}`), error: (m) => said.push(`error:${m}`) };
  };

  it('deletes the item asked about, says so and runs after; a cancel says it was cancelled', async () => {
    const n = notifier();
    const after = vi.fn();
    const flow = new DeletionFlow<{ id: number }>(n, async () => undefined, after);
    flow.ask({ id: 3 });
    expect(await flow.confirm()).toBe(true);
    expect(after).toHaveBeenCalledWith({ id: 3 });
    expect(flow.target$.value).toBeNull();
    flow.ask({ id: 4 });
    flow.cancel();
    expect(n.said).toEqual([`success:${MSG.deleteSucceeded}`, `info:${MSG.deleteCancelled}`]);
    expect(await flow.confirm()).toBe(false);
  });

  it('keeps the confirmation open when the server refuses', async () => {
    const n = notifier();
    const flow = new DeletionFlow<number>(n, async () => Promise.reject(new Error('不存在')), vi.fn());
    flow.ask(1);
    expect(await flow.confirm()).toBe(false);
    expect([flow.target$.value, flow.busy$.value, n.said]).toEqual([1, false, []]);
  });

  it('runBusy is busy while the work runs and answers whether it succeeded', async () => {
    const busy$ = new BehaviorSubject(false);
    const running = runBusy(busy$, () => settle(10));
    expect(busy$.value).toBe(true);
    expect(await running).toBe(true);
    expect(busy$.value).toBe(false);
    expect(await runBusy(busy$, async () => Promise.reject(new Error('x')))).toBe(false);
  });

  it('runBusyItem marks only its own item busy, each until its own work ends', async () => {
    const busy$ = new BehaviorSubject<ReadonlySet<number>>(new Set());
    const first = runBusyItem(busy$, 1, () => settle(10));
    const second = runBusyItem(busy$, 2, async () => Promise.reject(new Error('x')));
    expect([...busy$.value]).toEqual([1, 2]);
    expect(await second).toBe(false);
    expect([...busy$.value]).toEqual([1]);
    expect(await first).toBe(true);
    expect(busy$.value.size).toBe(0);
  });
});
