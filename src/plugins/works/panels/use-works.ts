import { useState } from 'react';
import type { Observable } from 'rxjs';
import { API, MSG } from '../../../contract';
import { ApiCallError, TOKENS, usePagedList, useService, type ApiClient, type PagedList, TIMINGS } from '../../../core';
import { WORKS_TABS, fromTranslate, fromWork, inProgress, type TabKey, type WorkItem, type WorksTab } from '../works-view';

export const PAGE_SIZE = 24;

interface WorksPage {
  items: WorkItem[];
  total: number;
  generate: number;
}

/** The translated videos; a server without video translation yet (即将上线) has none. */
async function translateList(api: ApiClient, page: number, limit: number, signal?: AbortSignal) {
  try {
    return await api.call(API.translation.list, { page, limit }, { silent: true, signal });
  } catch (err) {
    if (err instanceof ApiCallError && err.message === MSG.comingSoon) return { list: [], total: 0, generate: 0 };
    throw err;
  }
}

async function fetchPage(api: ApiClient, tab: WorksTab, page: number, signal?: AbortSignal): Promise<WorksPage> {
  if (tab.filter === 'translate') {
    const r = await translateList(api, page, PAGE_SIZE, signal);
    const items = r.list.map(fromTranslate);
    return { items, total: r.total ?? items.length, generate: r.generate ?? 0 };
  }
  const r = await api.call(API.works.list, { page, limit: PAGE_SIZE, ...tab.filter }, { silent: true, signal });
  return { items: r.list.map(fromWork), total: r.total, generate: r.generate };
}

/** A list's count: page 0 and limit 0 answer only the total (part 1 §7). */
async function fetchCount(api: ApiClient, tab: WorksTab): Promise<number> {
  if (tab.filter === 'translate') {
    const r = await translateList(api, 0, 0);
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

export interface WorksList extends PagedList<WorkItem, WorksPage> {
  counts: Counts;
  total: number;
  refresh: () => void;
}

/**
 * The selected tab's list (paged by PAGE_SIZE) and every tab's count. While anything is in progress the loaded
 * pages and the counts are asked again every TIMINGS.worksPollMs (15 s), until nothing is or the panel closes.
 */
export function useWorks(tab: WorksTab, stop$: Observable<unknown>): WorksList {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [counts, setCounts] = useState<Counts>({});
  const works = usePagedList<WorkItem, WorksPage>(
    tab.key,
    (page, signal) => {
      // Every load, reload and poll asks for page 1 again: the counts come along.
      if (page === 1) void fetchCounts(api).then((c) => !signal?.aborted && setCounts(c));
      return fetchPage(api, tab, page, signal);
    },
    { poll: { intervalMs: TIMINGS.worksPollMs, keepGoing: (p) => inProgress(p.items, p.generate), stop$ } },
  );
  return { ...works, counts, total: works.value?.total ?? 0, refresh: works.reload };
}
