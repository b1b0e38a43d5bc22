import type { Observable } from 'rxjs';
import { API, LIMITS, type Voice } from '../../../contract';
import { TOKENS, useRemote, useService, type ApiClient, type Loaded, TIMINGS } from '../../../core';

interface Answer {
  list: Voice[];
  /** How many are still training (the list call's `generate`). */
  generate: number;
}

export interface VoiceList extends Loaded<Answer>, Answer {}

/**
 * A voice list (source 1 own, 2 public) filtered by name, every one at once (limit 9999, part 1 §9). With `poll`,
 * while the answer's `generate` is above 0 the list is asked again every TIMINGS.voicePollMs (10 s); it stops at 0
 * or when the panel closes (part 1 §4).
 */
export function useVoices(source: 1 | 2, name: string, options: { poll?: { stop$: Observable<unknown> }; enabled?: boolean } = {}): VoiceList {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const trimmed = name.trim();
  const voices = useRemote(
    options.enabled === false ? null : `${source}:${trimmed}`,
    async (signal): Promise<Answer> => {
      const r = await api.call(API.voices.list, { source, page: 1, limit: LIMITS.listLimitAll, name: trimmed || undefined }, { silent: true, signal });
      return { list: r.list, generate: r.generate };
    },
    { poll: options.poll && { intervalMs: TIMINGS.voicePollMs, keepGoing: (r: Answer) => r.generate > 0, stop$: options.poll.stop$ } },
  );
  return { ...voices, list: voices.value?.list ?? [], generate: voices.value?.generate ?? 0 };
}
