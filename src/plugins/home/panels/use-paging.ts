import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { initialPaging, pagingReducer, HOME_PAGING, type PagingConfig, type PagingEvent, type PagingState } from '../paging';

export type FetchPage<T> = (page: number, limit: number, signal: AbortSignal) => Promise<readonly T[]>;

export interface Paging<T> {
  state: PagingState<T>;
  dispatch: (event: PagingEvent<T>) => void;
}

/** Drives the paging reducer: runs each request it publishes and answers with its sequence number. */
export function usePaging<T>(fetchPage: FetchPage<T>, idOf?: (item: T) => string | number): Paging<T> {
  const config = useRef<PagingConfig<T>>({ ...(HOME_PAGING as PagingConfig<T>), idOf }).current;
  const reducer = useCallback((s: PagingState<T>, e: PagingEvent<T>) => pagingReducer(s, e, config), [config]);
  const [state, dispatch] = useReducer(reducer, config, initialPaging<T>);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;

  const request = state.request;
  useEffect(() => {
    if (!request) return;
    const controller = new AbortController();
    fetchRef.current(request.page, request.limit, controller.signal).then(
      (items) => {
        if (!controller.signal.aborted) dispatch({ type: 'success', seq: request.seq, items });
      },
      (err: unknown) => {
        if (!controller.signal.aborted) dispatch({ type: 'failure', seq: request.seq, error: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => controller.abort();
  }, [request]);

  return useMemo(() => ({ state, dispatch }), [state]);
}
