import { Icons } from '@blueprintjs/icons';

/**
 * Blueprint's default loader fetches every icon's paths at once (≈200 KB gzip). Ours loads each icon on
 * first use from its own small chunk, and the map of those chunks only when the first icon is drawn.
 */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: async (name, size) => (await import('./icon-paths')).loadIconPaths(name, size) });
}
