import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../contract';
import { initialPaging, isNearBottom, isPristine, pagingReducer, pagingView, throttle, type PagingConfig, type PagingEvent, type PagingState } from './paging';

type Item = { id: number };
const items = (from: number, count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: from + i }));

const run = (events: PagingEvent<Item>[], state: PagingState<Item> = initialPaging<Item>(), config?: PagingConfig<Item>) =>
  events.reduce((s, e) => pagingReducer(s, e, config), state);

/** Answers the pending request with `answer`, as the panel does. */
const answer = (state: PagingState<Item>, answer: Item[] | Error): PagingState<Item> => {
  expect(state.request).not.toBeNull();
  const seq = state.request!.seq;
  return pagingReducer(state, answer instanceof Error ? { type: 'failure', seq, error: answer.message } : { type: 'success', seq, items: answer });
};

describe('home paging', () => {
  it('starts pristine and asks for page 1 with the home page size', () => {
    const s0 = initialPaging<Item>();
    expect(isPristine(s0)).toBe(true);
    expect(pagingView(s0)).toBe('loading-first');
    const s = run([{ type: 'start' }]);
    expect(isPristine(s)).toBe(false);
    expect(s.request).toEqual({ seq: 1, page: 1, limit: LIMITS.homePageSize });
    expect(s.loading).toBe(true);
  });

  it('loads 20, then the next page on "more", and stops when a page has fewer than 20', () => {
    let s = run([{ type: 'start' }]);
    s = answer(s, items(1, 20));
    expect(s.items).toHaveLength(20);
    expect(s.noMore).toBe(false);
    expect(s.request).toBeNull();
    expect(pagingView(s)).toBe('idle');

    s = pagingReducer(s, { type: 'more' });
    expect(s.request).toMatchObject({ page: 2, limit: 20 });
    expect(pagingView(s)).toBe('loading-more');
    s = answer(s, items(21, 5));
    expect(s.items.map((i) => i.id)).toEqual(items(1, 25).map((i) => i.id));
    expect(s.noMore).toBe(true);
    expect(pagingView(s)).toBe('end');

    // No further requests once there is no more.
    expect(pagingReducer(s, { type: 'more' })).toBe(s);
  });

  it('treats an empty later page as the end', () => {
    let s = answer(run([{ type: 'start' }]), items(1, 20));
    s = answer(pagingReducer(s, { type: 'more' }), []);
    expect(s.noMore).toBe(true);
    expect(s.items).toHaveLength(20);
    expect(s.page).toBe(2);
  });

  it('refetches an empty first page once with the fallback limit', () => {
    let s = run([{ type: 'start' }]);
    s = answer(s, []);
    expect(s.fallback).toBe(true);
    expect(s.request).toMatchObject({ page: 1, limit: LIMITS.homeFallbackLimit });
    expect(pagingView(s)).toBe('loading-first');
    s = answer(s, items(1, 30));
    expect(s.items).toHaveLength(30);
    expect(s.noMore).toBe(true);
    expect(pagingView(s)).toBe('end');
  });

  it('refetches a failed first page once with the fallback limit', () => {
    let s = run([{ type: 'start' }]);
    s = answer(s, new Error('网络异常'));
    expect(s.request).toMatchObject({ page: 1, limit: LIMITS.homeFallbackLimit });
    expect(s.error).toBeNull();
    s = answer(s, items(1, 3));
    expect(s.items).toHaveLength(3);
    expect(s.noMore).toBe(true);
  });

  it('shows the empty state when the fallback is empty too (never a third try)', () => {
    let s = answer(answer(run([{ type: 'start' }]), []), []);
    expect(s.loaded).toBe(true);
    expect(s.request).toBeNull();
    expect(s.noMore).toBe(true);
    expect(pagingView(s)).toBe('empty');
    s = pagingReducer(s, { type: 'more' });
    expect(s.request).toBeNull();
  });

  it('shows the failure when the fallback fails too; start tries again from the beginning', () => {
    let s = answer(answer(run([{ type: 'start' }]), new Error('a')), new Error('该功能即将上线，敬请期待'));
    expect(s.loaded).toBe(false);
    expect(s.loading).toBe(false);
    expect(s.error).toBe('该功能即将上线，敬请期待');
    expect(s.request).toBeNull();
    expect(pagingView(s)).toBe('failed');
    expect(pagingReducer(s, { type: 'more' })).toBe(s);

    s = pagingReducer(s, { type: 'start' });
    expect(s.request).toMatchObject({ page: 1, limit: LIMITS.homePageSize });
    expect(s.fallback).toBe(false);
    expect(s.error).toBeNull();
  });

  it('does not fall back for a later page: a failed page rolls the page number back', () => {
    let s = answer(run([{ type: 'start' }]), items(1, 20));
    s = pagingReducer(s, { type: 'more' });
    expect(s.page).toBe(2);
    s = answer(s, new Error('网络异常'));
    expect(s.page).toBe(1);
    expect(s.items).toHaveLength(20);
    expect(s.noMore).toBe(false);
    expect(s.limit).toBe(LIMITS.homePageSize);
    expect(pagingView(s)).toBe('more-failed');

    s = pagingReducer(s, { type: 'more' });
    expect(s.request).toMatchObject({ page: 2, limit: 20 });
    s = answer(s, items(21, 20));
    expect(s.items).toHaveLength(40);
    expect(s.page).toBe(2);
    expect(pagingView(s)).toBe('idle');
  });

  it('keeps the fallback limit for later pages so they do not overlap the first', () => {
    let s = answer(answer(run([{ type: 'start' }]), []), items(1, LIMITS.homeFallbackLimit));
    expect(s.noMore).toBe(false);
    s = pagingReducer(s, { type: 'more' });
    expect(s.request).toMatchObject({ page: 2, limit: LIMITS.homeFallbackLimit });
  });

  it('ignores "more" while a page is loading and before the first page answered', () => {
    const loading = run([{ type: 'start' }]);
    expect(pagingReducer(loading, { type: 'more' })).toBe(loading);
    let s = answer(loading, items(1, 20));
    s = pagingReducer(s, { type: 'more' });
    expect(pagingReducer(s, { type: 'more' })).toBe(s);
    expect(pagingReducer(initialPaging<Item>(), { type: 'more' }).request).toBeNull();
  });

  it('ignores answers to stale requests (after a restart)', () => {
    const first = run([{ type: 'start' }]);
    const staleSeq = first.request!.seq;
    const restarted = pagingReducer(first, { type: 'start' });
    expect(restarted.request!.seq).toBeGreaterThan(staleSeq);
    expect(pagingReducer(restarted, { type: 'success', seq: staleSeq, items: items(1, 20) })).toBe(restarted);
    expect(pagingReducer(restarted, { type: 'failure', seq: staleSeq, error: 'x' })).toBe(restarted);
    const done = answer(restarted, items(100, 2));
    expect(done.items.map((i) => i.id)).toEqual([100, 101]);
    // An answer that arrives twice counts once.
    expect(pagingReducer(done, { type: 'success', seq: done.seq, items: items(1, 20) })).toBe(done);
  });

  it('restarting drops the listed items and asks for page 1 again', () => {
    let s = answer(run([{ type: 'start' }]), items(1, 20));
    s = pagingReducer(s, { type: 'start' });
    expect(s.items).toEqual([]);
    expect(s.loaded).toBe(false);
    expect(s.request).toMatchObject({ page: 1, limit: 20 });
  });

  it('drops duplicates on append when told how to identify items', () => {
    const config: PagingConfig<Item> = { pageSize: 20, fallbackLimit: 9999, idOf: (i) => i.id };
    let s = run([{ type: 'start' }], initialPaging<Item>(), config);
    s = pagingReducer(s, { type: 'success', seq: s.seq, items: items(1, 20) }, config);
    s = pagingReducer(s, { type: 'more' }, config);
    s = pagingReducer(s, { type: 'success', seq: s.seq, items: items(20, 20) }, config);
    expect(s.items).toHaveLength(39);
    expect(s.noMore).toBe(false);
  });

  it('honours another page size', () => {
    const config: PagingConfig<Item> = { pageSize: 5, fallbackLimit: 50 };
    let s = run([{ type: 'start' }], initialPaging<Item>(config), config);
    expect(s.request).toMatchObject({ limit: 5 });
    s = pagingReducer(s, { type: 'success', seq: s.seq, items: items(1, 5) }, config);
    expect(s.noMore).toBe(false);
    s = pagingReducer(pagingReducer(s, { type: 'more' }, config), { type: 'success', seq: s.seq + 1, items: items(6, 4) }, config);
    expect(s.noMore).toBe(true);
  });
});

describe('near the bottom', () => {
  it('is true within the threshold of the bottom and when the content does not fill the box', () => {
    expect(isNearBottom({ scrollTop: 0, clientHeight: 800, scrollHeight: 2000 })).toBe(false);
    expect(isNearBottom({ scrollTop: 1099, clientHeight: 800, scrollHeight: 2000 })).toBe(false);
    expect(isNearBottom({ scrollTop: 1100, clientHeight: 800, scrollHeight: 2000 })).toBe(true);
    expect(isNearBottom({ scrollTop: 1200, clientHeight: 800, scrollHeight: 2000 })).toBe(true);
    expect(isNearBottom({ scrollTop: 0, clientHeight: 800, scrollHeight: 500 })).toBe(true);
    expect(isNearBottom({ scrollTop: 0, clientHeight: 100, scrollHeight: 160 }, 50)).toBe(false);
  });
});

describe('throttle', () => {
  it('runs at once, then at most once per window with the latest arguments', () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn();
      const t = throttle(fn, LIMITS.scrollThrottleMs);
      t(1);
      expect(fn).toHaveBeenCalledTimes(1);
      expect(fn).toHaveBeenLastCalledWith(1);
      t(2);
      t(3);
      expect(fn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(99);
      expect(fn).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(2);
      expect(fn).toHaveBeenLastCalledWith(3);
      vi.advanceTimersByTime(500);
      expect(fn).toHaveBeenCalledTimes(2);
      t(4);
      expect(fn).toHaveBeenCalledTimes(3);
      t(5);
      t.cancel();
      vi.advanceTimersByTime(500);
      expect(fn).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
