/**
 * What the studio reads from the server: the channels' dubbing prices, the music library and the user's audio
 * materials (the music under a dub), and the history a page at a time — refreshed while a dub is being made, following
 * one just submitted into the player — with each record's url held steady (signed urls change with every listing).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { API, DubbingStatus, LIMITS, type DubbingRecord } from '../../contract';
import { TIMINGS, TOKENS, useRemote, useService, type ApiClient } from '../../core';
import type { DubbingState } from './dubbing-state';

const PAGE_SIZE = LIMITS.dubbing.historyPageSize;

export function useDubHistory(state: DubbingState) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [page, setPage] = useState(1);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const prices = useRemote('dubbing:prices', (signal) => api.call(API.dubbing.prices, {}, { silent: true, signal }));
  const library = useRemote('dubbing:library', (signal) => api.call(API.music.library, {}, { silent: true, signal }));
  const tracks = useRemote('dubbing:tracks', (signal) => api.call(API.material.list, { type: 'audio', source: 0, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal }));
  const history = useRemote(`dubbing:history:${page}`, (signal) => api.call(API.dubbing.list, { page, limit: PAGE_SIZE }, { silent: true, signal }), {
    poll: { intervalMs: TIMINGS.generationPollMs, keepGoing: (v) => (v.generate ?? 0) > 0 },
  });
  const { reload } = history;

  useEffect(() => {
    const sub = state.submitted$.subscribe((id) => {
      setPage(1);
      setSelectedId(id);
      reload();
    });
    return () => sub.unsubscribe();
  }, [state, reload]);

  const list = useMemo(() => history.value?.list ?? [], [history.value]);
  const urls = useRef(new Map<number, string>());
  const urlOf = useCallback((r: DubbingRecord) => {
    if (!r.url) return '';
    if (!urls.current.has(r.id)) urls.current.set(r.id, r.url);
    return urls.current.get(r.id)!;
  }, []);

  // The one chosen, else the newest finished one on the page.
  const selected = list.find((r) => r.id === selectedId) ?? list.find((r) => r.status === DubbingStatus.Done) ?? null;
  const priceMap = useMemo(() => new Map((prices.value?.list ?? []).map((p) => [p.api, p.credits])), [prices.value]);

  return {
    prices: priceMap,
    tracks: tracks.value?.list ?? [],
    library: library.value?.list ?? [],
    selected,
    urlOf,
    reload,
    select: (r: DubbingRecord) => setSelectedId(r.id),
    view: { list, total: history.value?.total ?? 0, page, pageSize: PAGE_SIZE, loading: history.loading, selectedId: selected?.id ?? null, urlOf, onPage: setPage },
  };
}
