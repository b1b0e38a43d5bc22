import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Container } from 'inversify';
import type { Observable } from 'rxjs';
import { TOKENS, type ScreenServices } from './tokens';

const ContainerContext = createContext<Container | null>(null);

export function ContainerProvider({ container, children }: { container: Container; children: ReactNode }) {
  return <ContainerContext.Provider value={container}>{children}</ContainerContext.Provider>;
}

export function useContainer(): Container {
  const c = useContext(ContainerContext);
  if (!c) throw new Error('useContainer outside ContainerProvider');
  return c;
}

export function useService<T>(token: symbol): T {
  return useContainer().get<T>(token);
}

/** The core services a view calls (ScreenServices), for a view whose plugin has no state service for them. */
export function useScreenServices(): ScreenServices {
  return useService<ScreenServices>(TOKENS.ScreenServices);
}

export function useObservable<T>(source: Observable<T>, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    const sub = source.subscribe(setValue);
    return () => sub.unsubscribe();
  }, [source]);
  return value;
}

/** Runs `handler` on each value of `source` while the view is mounted (a store's "changed" signal). */
export function useSubscription<T>(source: Observable<T>, handler: (value: T) => void): void {
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  useEffect(() => {
    const sub = source.subscribe((value) => handlerRef.current(value));
    return () => sub.unsubscribe();
  }, [source]);
}
