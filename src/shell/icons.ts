import { Icons, type IconName, type IconPaths } from '@blueprintjs/icons';
import error16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/error.js';
import error20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/error.js';
import refresh16 from '@blueprintjs/icons/lib/esm/generated/16px/paths/refresh.js';
import refresh20 from '@blueprintjs/icons/lib/esm/generated/20px/paths/refresh.js';
import type { BUNDLED_ICON_NAMES } from './bundled-icons';

type SizedPaths = { 16: IconPaths; 20: IconPaths };

/** The paths of BUNDLED_ICON_NAMES (every one of them): 加载失败's icons would be empty boxes if they had to be fetched too. */
const BUNDLED: Record<(typeof BUNDLED_ICON_NAMES)[number], SizedPaths> = {
  error: { 16: error16, 20: error20 },
  refresh: { 16: refresh16, 20: refresh20 },
};
const bundled: Partial<Record<IconName, SizedPaths>> = BUNDLED;

/**
 * Blueprint's default loader fetches every icon's paths at once (≈200 KB gzip). Ours loads each icon on
 * first use from a small chunk of its size and first two letters (vite.config.ts groups them), and the map of those
 * chunks only when the first icon is drawn.
 */
export function installIconLoader(): void {
  Icons.setLoaderOptions({
    loader: async (name, size) => bundled[name]?.[size === 16 ? 16 : 20] ?? (await import('./icon-paths')).loadIconPaths(name, size),
  });
}
