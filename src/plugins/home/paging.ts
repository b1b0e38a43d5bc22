/**
 * The home page's list rules (part 1 §4, §9) as a pure state machine:
 * - pages of LIMITS.homePageSize (20);
 * - when the FIRST page comes back empty or fails, it is fetched once more with LIMITS.homeFallbackLimit (9999);
 * - no more pages once a page returns fewer items than were asked for (or none);
 * - scrolling within LIMITS.loadMoreThresholdPx (100) of the bottom asks for the next page (throttled
 *   LIMITS.scrollThrottleMs, 100 ms);
 * - a failed page rolls the page number back, so the next scroll asks for the same page again.
 *
 * The reducer never fetches: it publishes `request` (page, limit and a sequence number) and the panel runs it,
 * answering with `success` or `failure` carrying the same sequence number. Answers to older requests are ignored.
 */
import { LIMITS } from '../../contract';

export interface PageRequest {
  seq: number;
  page: number;
  limit: number;
}

export interface PagingState<T> {
  items: readonly T[];
  /** The page last asked for; rolled back by one when that page fails. 0 before the first request. */
  page: number;
  /** Page size in use: homePageSize, or homeFallbackLimit once the one-time fallback ran. */
  limit: number;
  /** The one-time 9999 refetch of the first page has been used. */
  fallback: boolean;
  loading: boolean;
  /** The first page (or its fallback) answered: the list is shown (possibly empty). */
  loaded: boolean;
  noMore: boolean;
  /** The last failure's message (cleared by the next request). */
  error: string | null;
  /** What the driver should fetch now; null when idle. */
  request: PageRequest | null;
  /** Sequence of the latest request; answers with another sequence are stale. */
  seq: number;
}

export type PagingEvent<T> =
  | { type: 'start' }
  | { type: 'more' }
  | { type: 'success'; seq: number; items: readonly T[] }
  | { type: 'failure'; seq: number; error: string };

export interface PagingConfig<T> {
  pageSize: number;
  fallbackLimit: number;
  /** When given, an appended page drops items already listed (the list may shift between pages). */
  idOf?: (item: T) => string | number;
}

export const HOME_PAGING: PagingConfig<never> = { pageSize: LIMITS.homePageSize, fallbackLimit: LIMITS.homeFallbackLimit };

export function initialPaging<T>(config: Pick<PagingConfig<T>, 'pageSize'> = HOME_PAGING): PagingState<T> {
  return { items: [], page: 0, limit: config.pageSize, fallback: false, loading: false, loaded: false, noMore: false, error: null, request: null, seq: 0 };
}

/** The state has never asked for anything (the list has not been shown yet). */
export const isPristine = (state: PagingState<unknown>) => state.seq === 0;

function ask<T>(state: PagingState<T>, page: number, limit: number): PagingState<T> {
  const seq = state.seq + 1;
  return { ...state, page, limit, seq, loading: true, error: null, request: { seq, page, limit } };
}

export function pagingReducer<T>(state: PagingState<T>, event: PagingEvent<T>, config: PagingConfig<T> = HOME_PAGING as PagingConfig<T>): PagingState<T> {
  switch (event.type) {
    case 'start':
      return ask({ ...initialPaging<T>(config), seq: state.seq }, 1, config.pageSize);

    case 'more':
      if (!state.loaded || state.loading || state.noMore) return state;
      return ask(state, state.page + 1, state.limit);

    case 'success': {
      if (event.seq !== state.seq || !state.loading) return state;
      const firstPage = !state.loaded;
      if (firstPage && event.items.length === 0 && !state.fallback) {
        return ask({ ...state, fallback: true }, 1, config.fallbackLimit);
      }
      let fresh = event.items;
      if (!firstPage && config.idOf) {
        const seen = new Set(state.items.map(config.idOf));
        fresh = fresh.filter((item) => !seen.has(config.idOf!(item)));
      }
      return {
        ...state,
        items: firstPage ? [...event.items] : [...state.items, ...fresh],
        loading: false,
        loaded: true,
        noMore: event.items.length === 0 || event.items.length < state.limit,
        error: null,
        request: null,
      };
    }

    case 'failure': {
      if (event.seq !== state.seq || !state.loading) return state;
      if (!state.loaded && !state.fallback) {
        return ask({ ...state, fallback: true }, 1, config.fallbackLimit);
      }
      return { ...state, page: state.page - 1, loading: false, error: event.error, request: null };
    }
  }
}

/** What the list shows under its items. */
export type PagingView = 'loading-first' | 'failed' | 'empty' | 'loading-more' | 'more-failed' | 'end' | 'idle';

export function pagingView(state: PagingState<unknown>): PagingView {
  if (!state.loaded) {
    if (state.error && !state.loading) return 'failed';
    return 'loading-first';
  }
  if (state.loading) return 'loading-more';
  if (state.items.length === 0) return 'empty';
  if (state.error) return 'more-failed';
  if (state.noMore) return 'end';
  return 'idle';
}

export interface ScrollBox {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

/** Within `threshold` px of the bottom (also true when the content does not fill the box). */
export function isNearBottom(box: ScrollBox, threshold: number = LIMITS.loadMoreThresholdPx): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= threshold;
}

/**
 * Leading and trailing throttle: the first call runs at once, further calls within `ms` collapse into one
 * call at the end of the window (so the last scroll position is always looked at).
 */
export function throttle<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number = LIMITS.scrollThrottleMs,
  clock: { now(): number; setTimeout(f: () => void, ms: number): unknown; clearTimeout(id: unknown): void } = {
    now: () => Date.now(),
    setTimeout: (f, t) => setTimeout(f, t),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  },
): ((...args: A) => void) & { cancel(): void } {
  let last = -Infinity;
  let timer: unknown = null;
  let pending: A | null = null;
  const run = (args: A) => {
    last = clock.now();
    fn(...args);
  };
  const throttled = (...args: A) => {
    const wait = last + ms - clock.now();
    if (wait <= 0 && timer === null) {
      run(args);
      return;
    }
    pending = args;
    if (timer === null) {
      timer = clock.setTimeout(() => {
        timer = null;
        const next = pending;
        pending = null;
        if (next) run(next);
      }, Math.max(wait, 0));
    }
  };
  throttled.cancel = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return throttled;
}
