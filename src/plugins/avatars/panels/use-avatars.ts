import type { Observable } from 'rxjs';
import { API, LIMITS } from '../../../contract';
import { TIMINGS, TOKENS, useRemoteList, useService, type ApiClient } from '../../../core';
import { anyCloning } from '../avatar-view';

/**
 * An avatar list (source 1 own, 2 public) filtered by name, every one at once (limit 9999, part 1 §9).
 * With `poll`, the list is asked again every LIMITS.avatarPollMs (5 s) while any avatar is cloning, until the panel closes.
 */
export function useAvatars(source: 1 | 2, name: string, options: { poll?: { stop$: Observable<unknown> } } = {}) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const trimmed = name.trim();
  return useRemoteList(
    `${source}:${trimmed}`,
    async (signal) => (await api.call(API.avatars.list, { source, page: 1, limit: LIMITS.listLimitAll, name: trimmed || undefined }, { silent: true, signal })).list,
    { poll: options.poll && { intervalMs: TIMINGS.avatarPollMs, keepGoing: anyCloning, stop$: options.poll.stop$ } },
  );
}
