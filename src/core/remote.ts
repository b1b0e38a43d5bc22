import { useCallback, useEffect, useRef, useState } from 'react';
import { NEVER, of, type Observable } from 'rxjs';
import { useService } from './react';
import { TOKENS, type PollingService } from './tokens';

/**
 * A value from the server as a view sees it: not asked yet, loading (with the last value, if any), loaded, or
 * failed with the server's words (with the last value, if any).
 */
export type Remote<T> = { state: 'idle' } | { state: 'loading'; value?: T } | { state: 'ok'; value: T } | { state: 'error'; message: string; value?: T };

/** The last value a remote holds, whatever it is doing now. */
export function remoteValue<T>(remote: Remote<T>): T | undefined {
  return remote.state === 'idle' ? undefined : remote.value;
}

/** What a failed call says to the user: the server's message (ApiCallError is an Error), else the error's text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Ask again every `intervalMs` while `until` holds for the last answer; stop when `stop$` emits or the view goes. */
export interface PollWhile<T> {
  intervalMs: number;
  keepGoing: (value: T) => boolean;
  stop$?: Observable<unknown>;
}

export interface RemoteOptions<T> {
  poll?: PollWhile<T>;
  /** A new key starts empty (a spinner) instead of showing the last key's value while its own loads. */
  clearOnKeyChange?: boolean;
}

export interface Loaded<T> {
  remote: Remote<T>;
  /** The last value (kept while reloading and after a failed reload). */
  value: T | undefined;
  loaded: boolean;
  /** Loading for this key, true already in the render that changed it. */
  loading: boolean;
  error: string | null;
  /** Polling now (the last answer said to keep going). */
  polling: boolean;
  reload: () => void;
  /** Changes the value in place (an appended page). */
  update: (change: (value: T) => T) => void;
}

interface Held<T> {
  key: string | null;
  remote: Remote<T>;
}

/**
 * `load` while `key` is not null, again when the key changes or on reload (the previous call is aborted). With
 * `poll`, while `keepGoing(value)` holds the value is asked again through the PollingService (the first tick
 * passes on the answer just shown), until it stops holding, `stop$` emits, the key changes or the view unmounts.
 * Everything `load` reads must be in `key`.
 */
export function useRemote<T>(key: string | null, load: (signal?: AbortSignal) => Promise<T>, options: RemoteOptions<T> = {}): Loaded<T> {
  const polling = useService<PollingService>(TOKENS.PollingService);
  const [held, setHeld] = useState<Held<T>>({ key: null, remote: { state: 'idle' } });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const clear = options.clearOnKeyChange ?? false;

  useEffect(() => {
    if (key === null) {
      setHeld((h) => (h.key === null ? h : { ...h, key: null }));
      return;
    }
    const controller = new AbortController();
    setHeld((h) => ({ key, remote: { state: 'loading', value: clear && h.key !== key ? undefined : remoteValue(h.remote) } }));
    loadRef.current(controller.signal).then(
      (value) => !controller.signal.aborted && setHeld({ key, remote: { state: 'ok', value } }),
      (err: unknown) => !controller.signal.aborted && setHeld((h) => ({ key, remote: { state: 'error', message: errorMessage(err), value: remoteValue(h.remote) } })),
    );
    return () => controller.abort();
  }, [key, round, clear]);

  const value = remoteValue(held.remote);
  const poll = options.poll;
  const pollRef = useRef(poll);
  pollRef.current = poll;
  const shown = useRef(value);
  shown.current = value;
  const active = key !== null && poll !== undefined && value !== undefined && poll.keepGoing(value);
  const stop$ = poll?.stop$;
  const intervalMs = poll?.intervalMs ?? 0;
  useEffect(() => {
    if (!active || key === null) return;
    let first = true;
    const sub = polling
      .poll(
        () => {
          // The first tick comes at once and would repeat the answer just shown: it passes that answer on instead.
          if (!first) return loadRef.current();
          first = false;
          return of(shown.current as T);
        },
        { intervalMs, keepGoing: (v: T) => pollRef.current?.keepGoing(v) ?? false, stop$: stop$ ?? NEVER },
      )
      .subscribe((v) => {
        if (v !== shown.current) setHeld({ key, remote: { state: 'ok', value: v } });
      });
    return () => sub.unsubscribe();
  }, [polling, active, key, intervalMs, stop$]);

  const reload = useCallback(() => setRound((r) => r + 1), []);
  const update = useCallback((change: (value: T) => T) => {
    setHeld((h) => (h.remote.state === 'idle' || h.remote.value === undefined ? h : { ...h, remote: { ...h.remote, value: change(h.remote.value) } }));
  }, []);

  const loading = key !== null && (held.key !== key || held.remote.state === 'loading');
  const stale = held.key !== key && clear;
  return {
    remote: held.remote,
    value: stale ? undefined : value,
    loaded: !stale && value !== undefined,
    loading,
    error: held.remote.state === 'error' && !stale ? held.remote.message : null,
    polling: active,
    reload,
    update,
  };
}

const NONE: never[] = [];

/** useRemote of a list, with `list` ready to map (the same empty array until one comes). */
export function useRemoteList<T>(key: string | null, load: (signal?: AbortSignal) => Promise<T[]>, options: RemoteOptions<T[]> = {}): Loaded<T[]> & { list: T[] } {
  const remote = useRemote(key, load, options);
  return { ...remote, list: remote.value ?? NONE };
}

/** A value that settles `ms` after its last change (a search box). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** One page of a paged list: its items and, when the server counts, the total (else whether a next page may follow). */
export interface Page<I> {
  items: I[];
  total?: number;
  more?: boolean;
}

export interface PagedList<I, P extends Page<I>> extends Loaded<P> {
  items: I[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * A paged list on useRemote: reloads (and polls) ask again for every page loaded so far, merged; `loadMore` appends
 * the next. A new key starts from page 1 with a spinner. Without a total, the last page's `more` says whether
 * there is more.
 */
export function usePagedList<I extends { id: number }, P extends Page<I>>(
  key: string | null,
  fetchPage: (page: number, signal?: AbortSignal) => Promise<P>,
  options: { poll?: PollWhile<P> } = {},
): PagedList<I, P> {
  const pages = useRef(1);
  const pagedKey = useRef<string | null>(null);
  if (key !== null && pagedKey.current !== key) {
    pagedKey.current = key;
    pages.current = 1;
  }
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const list = useRemote<P>(
    key,
    async (signal) => mergePages(await Promise.all(Array.from({ length: pages.current }, (_, i) => fetchRef.current(i + 1, signal)))),
    { poll: options.poll, clearOnKeyChange: true },
  );
  const [loadingMore, setLoadingMore] = useState(false);
  const { update } = list;
  const loadMore = useCallback(() => {
    if (loadingMore) return;
    const at = pagedKey.current;
    const next = pages.current + 1;
    setLoadingMore(true);
    fetchRef.current(next).then(
      (page) => {
        setLoadingMore(false);
        if (pagedKey.current !== at) return;
        pages.current = next;
        update((shown) => mergePages([shown, page]));
      },
      () => setLoadingMore(false),
    );
  }, [loadingMore, update]);

  const value = list.value;
  const items = value?.items ?? [];
  const hasMore = value === undefined ? false : value.total !== undefined ? items.length < value.total : (value.more ?? false);
  return { ...list, items, hasMore, loadingMore, loadMore };
}

/** Pages in order as one: items without repeats, the first page's total, the rest of the last page's fields. */
export function mergePages<I extends { id: number }, P extends Page<I>>(pages: P[]): P {
  const seen = new Set<number>();
  const items: I[] = [];
  for (const p of pages) for (const i of p.items) if (!seen.has(i.id) && seen.add(i.id)) items.push(i);
  const last = pages[pages.length - 1]!;
  return { ...last, items, total: pages[0]!.total };
}
