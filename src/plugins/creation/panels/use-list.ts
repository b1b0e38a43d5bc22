import { useEffect, useState } from 'react';
import { TOKENS, useService, type ApiClient } from '../../../core';

export interface Loaded<T> {
  list: T[];
  loading: boolean;
  error: string | null;
}

interface Held<T> extends Loaded<T> {
  key: string;
}

/**
 * One list call of a picker pane, asked again when `key` changes (or `reload` is bumped). While the answer for the
 * current key has not come, `loading` is true (even in the render that changed the key).
 */
export function useList<T>(key: string, fetch: (api: ApiClient, signal: AbortSignal) => Promise<T[]>, reload = 0): Loaded<T> {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [state, setState] = useState<Held<T>>({ key: '', list: [], loading: true, error: null });
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fetch(api, controller.signal).then(
      (list) => !controller.signal.aborted && setState({ key, list, loading: false, error: null }),
      (err: unknown) => !controller.signal.aborted && setState({ key, list: [], loading: false, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => controller.abort();
    // `fetch` is a fresh closure each render; `key` says when it means something else.
  }, [api, key, reload]);
  return { list: state.list, error: state.error, loading: state.loading || state.key !== key };
}
