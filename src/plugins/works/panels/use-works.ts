import { useCallback, useEffect, useRef, useState } from 'react';
import { defer, of, type Observable } from 'rxjs';
import { API, LIMITS } from '../../../contract';
import { ApiCallError, TOKENS, useService, type ApiClient, type PollingService } from '../../../core';
import { WORKS_TABS, fromTranslate, fromWork, inProgress, type TabKey, type WorkItem, type WorksTab } from '../works-view';

export const PAGE_SIZE = 24;

interface Page {
  items: WorkItem[];
  total: number;
  generate: number;
}

async function fetchPage(api: ApiClient, tab: WorksTab, page: number, signal?: AbortSignal): Promise<Page> {
  if (tab.filter === 'translate') {
    const r = await api.call(API.works.translateList, { page, limit: PAGE_SIZE }, { silent: true, signal });
    const items = r.list.map(fromTranslate);
    return { items, total: r.total ?? items.length, generate: r.generate ?? 0 };
  }
  const r = await api.call(API.works.list, { page, limit: PAGE_SIZE, ...tab.filter }, { silent: true, signal });
  return { items: r.list.map(fromWork), total: r.total, generate: r.generate };
}

/** A list's count: page 0 and limit 0 answer only the total (part 1 §7). */
async function fetchCount(api: ApiClient, tab: WorksTab): Promise<number> {
  if (tab.filter === 'translate') {
    const r = await api.call(API.works.translateList, { page: 0, limit: 0 }, { silent: true });
    return r.total ?? r.list.length;
  }
  return (await api.call(API.works.list, { page: 0, limit: 0, ...tab.filter }, { silent: true })).total;
}

export type Counts = Partial<Record<TabKey, number>>;

async function fetchCounts(api: ApiClient): Promise<Counts> {
  const settled = await Promise.allSettled(WORKS_TABS.map((t) => fetchCount(api, t)));
  const counts: Counts = {};
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') counts[WORKS_TABS[i]!.key] = r.value;
  });
  return counts;
}

function merge(pages: Page[]): Page {
  const seen = new Set<number>();
  const items: WorkItem[] = [];
  for (const p of pages) for (const i of p.items) if (!seen.has(i.id) && seen.add(i.id)) items.push(i);
  const last = pages[pages.length - 1]!;
  return { items, total: pages[0]!.total, generate: last.generate };
}

export interface WorksList {
  items: WorkItem[];
  total: number;
  counts: Counts;
  loaded: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  hasMore: boolean;
  polling: boolean;
  loadMore: () => void;
  refresh: () => void;
}

/**
 * The selected tab's list (paged by PAGE_SIZE) and every tab's count. While anything is in progress the loaded
 * pages and the counts are asked again every LIMITS.worksPollMs (15 s), until nothing is or the panel closes.
 */
export function useWorks(tab: WorksTab, stop$: Observable<unknown>): WorksList {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const polling = useService<PollingService>(TOKENS.PollingService);
  const [data, setData] = useState<Page>({ items: [], total: 0, generate: 0 });
  const [counts, setCounts] = useState<Counts>({});
  const [pages, setPages] = useState(1);
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  // Answers for a tab that is no longer shown are dropped.
  const current = useRef(tab.key);
  current.current = tab.key;
  const pagesRef = useRef(pages);
  pagesRef.current = pages;
  const dataRef = useRef(data);
  dataRef.current = data;

  const reloadAll = useCallback(async (): Promise<{ key: TabKey; page: Page; counts: Counts }> => {
    const key = tab.key;
    const n = Math.max(1, pagesRef.current);
    const [list, c] = await Promise.all([Promise.all(Array.from({ length: n }, (_, i) => fetchPage(api, tab, i + 1))), fetchCounts(api)]);
    return { key, page: merge(list), counts: c };
  }, [api, tab]);

  const apply = useCallback((r: { key: TabKey; page: Page; counts: Counts }) => {
    setCounts(r.counts);
    if (r.key !== current.current) return;
    setData(r.page);
  }, []);

  // The tab's loaded pages (the first, on a new tab) and the counts, whenever the tab changes or a refresh is asked for.
  const shownTab = useRef<TabKey | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    if (shownTab.current !== tab.key) {
      shownTab.current = tab.key;
      pagesRef.current = 1;
      setPages(1);
      setLoaded(false);
    }
    setLoading(true);
    setError(null);
    const n = Math.max(1, pagesRef.current);
    Promise.all(Array.from({ length: n }, (_, i) => fetchPage(api, tab, i + 1, controller.signal))).then(
      (list) => {
        if (controller.signal.aborted) return;
        setData(merge(list));
        setLoaded(true);
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof ApiCallError || err instanceof Error ? err.message : String(err));
        setData({ items: [], total: 0, generate: 0 });
        setLoaded(true);
        setLoading(false);
      },
    );
    void fetchCounts(api).then((c) => !controller.signal.aborted && setCounts(c));
    return () => controller.abort();
  }, [api, tab, bump]);

  const busy = inProgress(data.items, data.generate);
  useEffect(() => {
    if (!busy) return;
    let first = true;
    const sub = polling
      .poll(
        () => {
          // The list was just loaded: the first tick reuses it instead of asking again at once.
          if (first) {
            first = false;
            return of({ key: current.current, page: dataRef.current, counts: {} as Counts, reused: true });
          }
          return defer(() => reloadAll());
        },
        { intervalMs: LIMITS.worksPollMs, keepGoing: (r) => inProgress(r.page.items, r.page.generate), stop$ },
      )
      .subscribe((r) => {
        if ('reused' in r) return;
        apply(r);
      });
    return () => sub.unsubscribe();
  }, [busy, polling, reloadAll, apply, stop$]);

  const loadMore = useCallback(() => {
    if (loadingMore) return;
    const next = pagesRef.current + 1;
    const key = tab.key;
    setLoadingMore(true);
    fetchPage(api, tab, next).then(
      (p) => {
        setLoadingMore(false);
        if (key !== current.current) return;
        setPages(next);
        setData((d) => merge([d, p]));
      },
      () => setLoadingMore(false),
    );
  }, [api, tab, loadingMore]);

  const refresh = useCallback(() => setBump((b) => b + 1), []);

  return {
    items: data.items,
    total: data.total,
    counts,
    loaded,
    loading,
    loadingMore,
    error,
    hasMore: data.items.length < data.total,
    polling: busy,
    loadMore,
    refresh,
  };
}
