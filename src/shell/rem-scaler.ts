import { LIMITS } from '../contract';

/**
 * The spec's mobile scaler: one rem is a tenth of the viewport width, recomputed 300 ms after a resize.
 * Blueprint sizes its own controls in rem, so we publish the unit as `--app-rem` (used by our responsive
 * styles) instead of rewriting the root font size, which would blow up every Blueprint control.
 */
export function installRemScaler(root: HTMLElement = document.documentElement, win: Window = window): () => void {
  const apply = () => root.style.setProperty('--app-rem', `${win.innerWidth / 10}px`);
  apply();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onResize = () => {
    clearTimeout(timer);
    timer = setTimeout(apply, LIMITS.remResizeDebounceMs);
  };
  win.addEventListener('resize', onResize);
  return () => {
    clearTimeout(timer);
    win.removeEventListener('resize', onResize);
  };
}
