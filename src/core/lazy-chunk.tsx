/**
 * Screens and panels whose code loads on first use, and what happens when that load fails (the server
 * unreachable): the failure stays inside the tab or slot that asked for it, says so with 重新加载, and loads
 * again by itself once the server answers (every TIMINGS.chunkRetryMs and when the browser is back online).
 *
 * React.lazy keeps a failed load forever, so a screen that failed once stayed blank until F5: `lazyChunk` forgets
 * a failure as soon as a retry succeeds. Use it instead of React.lazy (eslint says so).
 */
import { Component, createElement, lazy, type ComponentProps, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, NonIdealState } from '@blueprintjs/core';
import { MSG } from '../contract';
import { TIMINGS } from './timings';
import type { PanelComponent, PanelContribution } from './tokens';

/** A load of a screen's code that failed; `retry()` tries again and resolves once the code is there. */
export class ChunkLoadFailed extends Error {
  constructor(
    readonly cause: unknown,
    readonly retry: () => Promise<void>,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'ChunkLoadFailed';
  }
}

/**
 * Vite's preloader adds a <link rel=stylesheet> for a chunk's CSS and, when it fails, never adds it again: a retry
 * would draw the screen unstyled. Put each stylesheet that did not load back, and wait for it.
 */
function restoreFailedStyles(): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve();
  const failed = [...document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')].filter((link) => failedLinks.has(link));
  return Promise.all(
    failed.map(
      (old) =>
        new Promise<void>((resolve, reject) => {
          const link = document.createElement('link');
          link.rel = 'stylesheet';
          link.crossOrigin = old.crossOrigin;
          link.href = old.href;
          link.addEventListener('load', () => {
            old.remove();
            resolve();
          });
          link.addEventListener('error', () => {
            failedLinks.add(link);
            link.remove();
            reject(new Error(`Unable to load CSS for ${old.href}`));
          });
          document.head.appendChild(link);
        }),
    ),
  ).then(() => undefined);
}

/** The module a failed dynamic import names (Chromium and Firefox put its address in the message), if any. */
export function failedModuleUrl(cause: unknown): string | undefined {
  return /(https?:\/\/[^\s'"]+?\.js)(?![\w.])/.exec(cause instanceof Error ? cause.message : String(cause))?.[1];
}

/** When the page last reloaded for a remembered failure, so a file that fetches but never loads cannot reload it in a loop. */
const REMEMBERED_RELOAD_KEY = 'aisa.chunk-reload-at';
const REMEMBERED_RELOAD_GAP_MS = 60_000;

/**
 * Some browsers (Debian's Chromium 150 among them) keep a failed import for the page's life: asking again fails at
 * once, whatever the server says now. When the module's own file fetches again but its import still fails, only a new
 * page clears that: reload it (the workbench's tabs and layout come back from storage). Newer browsers retry in place
 * and never get here.
 */
async function reloadIfFailureIsRemembered(cause: unknown): Promise<void> {
  const url = failedModuleUrl(cause);
  if (!url || typeof location === 'undefined') return;
  const fetched = await fetch(url, { cache: 'no-store' }).then((res) => res.ok, () => false);
  const last = Number(sessionStorage.getItem(REMEMBERED_RELOAD_KEY) ?? 0);
  if (!fetched || Date.now() - last < REMEMBERED_RELOAD_GAP_MS) return;
  sessionStorage.setItem(REMEMBERED_RELOAD_KEY, String(Date.now()));
  location.reload();
}

const failedLinks = new WeakSet<Element>();
if (typeof document !== 'undefined') {
  // Errors of <link> do not bubble; the capture phase sees them all.
  document.addEventListener('error', (event) => event.target instanceof HTMLLinkElement && failedLinks.add(event.target), true);
}

/** React.lazy for a screen's code, with a failure that a retry can clear (see ChunkLoadFailed). */
// `any` props as in React.lazy's own signature: the component's props are its own.
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ComponentType<ComponentProps<T>> {
  let probe: Promise<void> | undefined;
  const retry = (): Promise<void> =>
    (probe ??= restoreFailedStyles()
      .then(load)
      .catch(async (cause: unknown) => {
        await reloadIfFailureIsRemembered(cause);
        throw cause;
      })
      .then(() => {
        current = attempt();
      })
      .finally(() => {
        probe = undefined;
      }));
  const attempt = () =>
    lazy(() =>
      load().catch((cause: unknown) => {
        throw new ChunkLoadFailed(cause, retry);
      }),
    );
  let current = attempt();
  function Chunk(props: ComponentProps<T>) {
    return createElement(current, props);
  }
  return Chunk;
}

export interface LoadBoundaryProps {
  children: ReactNode;
  /** `panel` (a tab's whole area: 加载失败 with 重新加载) or `quiet` (a top-bar item or a dialog: nothing until it loads). */
  variant?: 'panel' | 'quiet';
  /** A class for the failure's box (the panel variant centres it in the tab). */
  className?: string;
}

interface LoadBoundaryState {
  error: unknown;
  retrying: boolean;
}

/**
 * Catches a failed load (or a failed drawing) below it and shows it in place, leaving the rest of the app alive. A
 * failed load retries by itself; the button retries now.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, LoadBoundaryState> {
  state: LoadBoundaryState = { error: undefined, retrying: false };
  private timer: ReturnType<typeof setInterval> | undefined;
  private alive = true;

  static getDerivedStateFromError(error: unknown): Partial<LoadBoundaryState> {
    return { error, retrying: false };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (!(error instanceof ChunkLoadFailed)) console.error(error, info.componentStack);
    this.watch();
  }

  componentWillUnmount(): void {
    this.alive = false;
    this.stopWatching();
  }

  private readonly online = () => void this.retry(false);

  private watch(): void {
    if (!(this.state.error instanceof ChunkLoadFailed) || this.timer) return;
    this.timer = setInterval(() => void this.retry(false), TIMINGS.chunkRetryMs);
    window.addEventListener('online', this.online);
    // A screen that failed earlier, opened again (a new tab): try at once, the server may be back.
    void this.retry(false);
  }

  private stopWatching(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    window.removeEventListener('online', this.online);
  }

  /** Loads the failed code again and draws the children once it is there; a drawing failure just draws again. */
  readonly retry = async (shown = true): Promise<void> => {
    const { error } = this.state;
    if (!(error instanceof ChunkLoadFailed)) return this.setState({ error: undefined });
    if (shown) this.setState({ retrying: true });
    try {
      await error.retry();
    } catch {
      if (this.alive && shown) this.setState({ retrying: false });
      return;
    }
    if (!this.alive || this.state.error !== error) return;
    this.stopWatching();
    this.setState({ error: undefined, retrying: false });
  };

  render(): ReactNode {
    const { error, retrying } = this.state;
    if (error === undefined) return this.props.children;
    if (this.props.variant === 'quiet') return null;
    return createElement(
      'div',
      { className: this.props.className ?? 'panel-center', 'data-testid': 'load-failed' },
      createElement(NonIdealState, {
        icon: 'error',
        title: '加载失败',
        description: error instanceof ChunkLoadFailed ? MSG.chunkLoadFailed : MSG.screenFailed,
        action: createElement(Button, { icon: 'refresh', text: '重新加载', loading: retrying, onClick: () => void this.retry() }),
      }),
    );
  }
}

/** lazyChunk for one named export of a module: `lazyPart(() => import('./panels/X'), 'TextPanel')`. */
export function lazyPart<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): ComponentType<ComponentProps<M[K]>> {
  return lazyChunk(() => load().then((m) => ({ default: m[name] })));
}

/** A plugin's panels: each route and the module whose default export is its screen, loaded with lazyChunk. */
export function lazyPanels(screens: Record<string, () => Promise<{ default: PanelComponent }>>): PanelContribution[] {
  return Object.entries(screens).map(([route, load]) => ({ route, component: lazyChunk(load) }));
}

/** lazyPanels for screens that are named exports of one module: each route and the name of its screen's export. */
export function lazyPartPanels<K extends string>(load: () => Promise<Record<K, PanelComponent>>, screens: Record<string, K>): PanelContribution[] {
  return Object.entries<K>(screens).map(([route, name]) => ({ route, component: lazyChunk<PanelComponent>(() => load().then((m) => ({ default: m[name] }))) }));
}
