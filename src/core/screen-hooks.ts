/** How a view reads a state service's screen (screen-state.ts): owns it while mounted, subscribes to its parts. */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { BehaviorSubject } from 'rxjs';
import type { Deletion } from './action';
import { remoteValue, type Loaded } from './remote';
import { useObservable, useService } from './react';
import type { DeletionFlow, RemoteStore } from './screen-state';

/** Made once on the first render (a screen's state from its service), disposed when the view unmounts. */
export function useScreen<T extends { dispose(): void }>(create: () => T): T {
  const [screen] = useState(create);
  useEffect(() => () => screen.dispose(), [screen]);
  return screen;
}

/** A panel's screen, opened from its plugin's state service (under `token`) on the first render: useScreen's. */
export function useOpenedScreen<S, T extends { dispose(): void }>(token: symbol, open: (state: S) => T): T {
  const state = useService<S>(token);
  return useScreen(() => open(state));
}

/** The current value of a subject, re-rendering on each change. */
export function useValue<T>(subject: BehaviorSubject<T>): T {
  return useObservable(subject, subject.value);
}

/** A scrolling area's ref that keeps it at its end whenever `content` changes (a conversation as answers arrive). */
export function useScrolledToEnd(content: unknown): RefObject<HTMLDivElement | null> {
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => {
    area.current?.scrollTo({ top: area.current.scrollHeight });
  }, [content]);
  return area;
}

/** A RemoteStore as a view reads it (the fields of useRemote's answer; the store itself reloads). */
export type StoreView<T> = Omit<Loaded<T>, 'reload' | 'update'>;

export function useStore<T>(store: RemoteStore<T>): StoreView<T> {
  const remote = useValue(store.remote$);
  const polling = useValue(store.polling$);
  const value = remoteValue(remote);
  return { remote, value, loaded: value !== undefined, loading: remote.state === 'loading', error: remote.state === 'error' ? remote.message : null, polling };
}

/** A DeletionFlow as ConfirmDelete and the list's buttons take it. */
export function useDeletionFlow<T>(flow: DeletionFlow<T>): Deletion<T> {
  const target = useValue(flow.target$);
  const busy = useValue(flow.busy$);
  return { target, busy, ask: (t) => flow.ask(t), cancel: () => flow.cancel(), confirm: () => void flow.confirm() };
}

/** A record the address asks for (`?id=…`, from a history or a link) is shown, also while the screen is already open. */
export function useAskedRecord(id: string | undefined, screen: { select(id: number): void }): void {
  const asked = Number(id);
  useEffect(() => {
    if (asked > 0) screen.select(asked);
  }, [asked, screen]);
}
