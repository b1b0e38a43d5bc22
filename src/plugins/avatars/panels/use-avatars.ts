import { useCallback, useEffect, useState } from 'react';
import { API, LIMITS, type Avatar } from '../../../contract';
import { ApiCallError, TOKENS, useService, type ApiClient, type PollingService } from '../../../core';
import type { Observable } from 'rxjs';
import { anyCloning } from '../avatar-view';

/** While an avatar is cloning the list is asked again this often. */
export const CLONE_POLL_MS = 5000;

export interface AvatarList {
  list: Avatar[];
  loaded: boolean;
  loading: boolean;
  error: string | null;
  reload: () => void;
}

/** A value that settles `ms` after its last change (the name search). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * An avatar list (source 1 own, 2 public) filtered by name, every one at once (limit 9999, part 1 §9).
 * With `poll`, the list is asked again every CLONE_POLL_MS while any avatar is cloning, until the panel closes.
 */
export function useAvatars(source: 1 | 2, name: string, options: { poll?: { stop$: Observable<unknown> }; version?: number } = {}): AvatarList {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const polling = useService<PollingService>(TOKENS.PollingService);
  const [list, setList] = useState<Avatar[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  const version = options.version ?? 0;

  const fetchList = useCallback(
    async (signal?: AbortSignal) =>
      (await api.call(API.avatar.list, { source, page: 1, limit: LIMITS.listLimitAll, name: name.trim() || undefined }, { silent: true, signal })).list,
    [api, source, name],
  );

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchList(controller.signal).then(
      (items) => {
        if (controller.signal.aborted) return;
        setList(items);
        setError(null);
        setLoaded(true);
        setLoading(false);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof ApiCallError || err instanceof Error ? err.message : String(err));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [fetchList, version, bump]);

  const cloning = anyCloning(list);
  const stop$ = options.poll?.stop$;
  useEffect(() => {
    if (!stop$ || !cloning) return;
    const sub = polling
      .poll(() => fetchList(), { intervalMs: CLONE_POLL_MS, keepGoing: (items: Avatar[]) => anyCloning(items), stop$ })
      .subscribe((items) => setList(items));
    return () => sub.unsubscribe();
  }, [polling, fetchList, stop$, cloning]);

  const reload = useCallback(() => setBump((b) => b + 1), []);
  return { list, loaded, loading, error, reload };
}
