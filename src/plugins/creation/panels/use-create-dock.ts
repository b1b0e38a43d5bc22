/**
 * The arrangement of one /create screen's dock: restored from local storage for the page's width class (or the
 * default), saved as the user drags, switched when the page crosses the narrow width; the reset and a pane brought
 * to the front (the palette's commands use both).
 */
import { useCallback, useEffect, useRef } from 'react';
import type { DockviewApi, DockviewReadyEvent } from 'dockview-react';
import type { Storage } from '../../../core';
import { applyDefaultLayout, savedLayout, screenClass, scriptUsable, showPane, withLayout, type PaneId, type ScreenClass } from './layout';

/** Quiet time after a drag before the arrangement is saved. */
const SAVE_AFTER_MS = 150;
/** The page's width (the window's before the page is mounted) and height. */
const widthOf = (page: HTMLElement | null) => page?.clientWidth ?? window.innerWidth;
const heightOf = (page: HTMLElement | null) => page?.clientHeight ?? 0;

export function useCreateDock(storage: Storage, layoutKey: string, titles: { avatar: string }) {
  const apiRef = useRef<DockviewApi | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const screenRef = useRef<ScreenClass>('wide');

  const restore = useCallback(
    (api: DockviewApi) => {
      // The page's own width decides (half of a split screen arranges like a narrow one), not the window's.
      const pageWidth = hostRef.current?.clientWidth || window.innerWidth;
      const screen = screenClass(pageWidth);
      screenRef.current = screen;
      const saved = savedLayout(storage.get<unknown>(layoutKey, null), screen);
      if (saved) {
        try {
          api.fromJSON(saved);
          if (scriptUsable(api)) return;
        } catch {
          /* an arrangement this version cannot read: start from the default */
        }
      }
      applyDefaultLayout(api, screen, pageWidth, heightOf(hostRef.current), titles);
    },
    [storage, layoutKey, titles],
  );

  const onReady = (event: DockviewReadyEvent) => {
    const api = event.api;
    apiRef.current = api;
    restore(api);
    let timer: ReturnType<typeof setTimeout> | undefined;
    api.onDidLayoutChange(() => {
      clearTimeout(timer);
      const screen = screenRef.current;
      timer = setTimeout(() => {
        if (apiRef.current !== api || screenRef.current !== screen || api.panels.length === 0) return;
        storage.set(layoutKey, withLayout(storage.get<unknown>(layoutKey, null), screen, api.toJSON()));
      }, SAVE_AFTER_MS);
    });
  };

  // The page crossing the narrow width (a window resized, the workbench split or unsplit) switches to that class's arrangement.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const observer = new ResizeObserver(() => {
      const api = apiRef.current;
      if (api && host.clientWidth > 0 && screenClass(host.clientWidth) !== screenRef.current) restore(api);
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, [restore]);
  useEffect(() => () => void (apiRef.current = null), []);

  const resetLayout = useCallback(() => {
    const api = apiRef.current;
    if (api) applyDefaultLayout(api, screenRef.current, widthOf(hostRef.current), heightOf(hostRef.current), titles);
  }, [titles]);

  /** Brings a pane to the front (reopening it) and puts the keyboard in it. */
  const revealPane = useCallback((id: PaneId) => {
    const api = apiRef.current;
    if (!api) return;
    showPane(api, id, screenRef.current, widthOf(hostRef.current), titles);
    requestAnimationFrame(() => {
      const pane = hostRef.current?.querySelector<HTMLElement>(`[data-pane="${id}"]`);
      pane?.querySelector<HTMLElement>('button, input, [tabindex]:not([tabindex="-1"])')?.focus();
    });
  }, [titles]);

  return { hostRef, onReady, resetLayout, revealPane };
}
