import { useCallback, useEffect, useRef, useState } from 'react';
import { TOKENS, useService, type ApiClient } from '../../../core';

export interface Remote<T> {
  value: T | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
}

/** One call of a picker, made while `key` is not null and again when it changes (or on reload). */
export function useRemote<T>(key: string | null, fetch: (api: ApiClient, signal: AbortSignal) => Promise<T>): Remote<T> {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [state, setState] = useState<{ value: T | null; loading: boolean; error: string | null }>({ value: null, loading: false, error: null });
  const [round, setRound] = useState(0);
  const fetchRef = useRef(fetch);
  fetchRef.current = fetch;
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    fetchRef.current(api, controller.signal).then(
      (value) => !controller.signal.aborted && setState({ value, loading: false, error: null }),
      (err: unknown) => !controller.signal.aborted && setState({ value: null, loading: false, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => controller.abort();
  }, [api, key, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}
