import { useEffect, useState } from 'react';
import { TOKENS, useService, type ApiClient } from '../../../core';

export interface Loaded<T> {
  list: T[];
  loading: boolean;
  error: string | null;
}

/** One list call of a picker pane, asked again when `key` changes. */
export function useList<T>(key: string, fetch: (api: ApiClient, signal: AbortSignal) => Promise<T[]>): Loaded<T> {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [state, setState] = useState<Loaded<T>>({ list: [], loading: true, error: null });
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fetch(api, controller.signal).then(
      (list) => !controller.signal.aborted && setState({ list, loading: false, error: null }),
      (err: unknown) => !controller.signal.aborted && setState({ list: [], loading: false, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => controller.abort();
    // `fetch` is a fresh closure each render; `key` says when it means something else.
  }, [api, key]);
  return state;
}
