import { useCallback, useEffect, useRef, useState } from 'react';
import type { Observable } from 'rxjs';
import { API, LIMITS, type Voice } from '../../../contract';
import { ApiCallError, TOKENS, useService, type ApiClient, type PollingService } from '../../../core';

export interface VoiceList {
  list: Voice[];
  /** How many are still training (the list call's `generate`). */
  generate: number;
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

interface Answer {
  list: Voice[];
  generate: number;
}

/**
 * A voice list (source 1 own, 2 public) filtered by name, every one at once (limit 9999, part 1 §9). With `poll`,
 * while the answer's `generate` is above 0 the list is asked again every LIMITS.voicePollMs (10 s); it stops at 0
 * or when the panel closes (part 1 §4).
 */
export function useVoices(source: 1 | 2, name: string, options: { poll?: { stop$: Observable<unknown> }; version?: number; enabled?: boolean } = {}): VoiceList {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const polling = useService<PollingService>(TOKENS.PollingService);
  const [answer, setAnswer] = useState<Answer>({ list: [], generate: 0 });
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [bump, setBump] = useState(0);
  const version = options.version ?? 0;
  const enabled = options.enabled ?? true;

  const fetchList = useCallback(
    async (signal?: AbortSignal): Promise<Answer> => {
      const r = await api.call(API.voice.list, { source, page: 1, limit: LIMITS.listLimitAll, name: name.trim() || undefined }, { silent: true, signal });
      return { list: r.list, generate: r.generate };
    },
    [api, source, name],
  );

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setLoading(true);
    fetchList(controller.signal).then(
      (r) => {
        if (controller.signal.aborted) return;
        setAnswer(r);
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
  }, [fetchList, version, bump, enabled]);

  const shown = useRef(answer);
  shown.current = answer;
  const training = answer.generate > 0;
  const stop$ = options.poll?.stop$;
  useEffect(() => {
    if (!stop$ || !training || !enabled) return;
    let first = true;
    const sub = polling
      // The first tick comes at once and would repeat the answer just shown: it passes that answer on instead.
      .poll(() => {
        if (!first) return fetchList();
        first = false;
        return Promise.resolve(shown.current);
      }, {
        intervalMs: LIMITS.voicePollMs,
        keepGoing: (r: Answer) => r.generate > 0,
        stop$,
      })
      .subscribe((r) => setAnswer(r));
    return () => sub.unsubscribe();
  }, [polling, fetchList, stop$, training, enabled]);

  const reload = useCallback(() => setBump((b) => b + 1), []);
  return { list: answer.list, generate: answer.generate, loaded, loading, error, reload };
}
