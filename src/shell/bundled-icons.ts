/**
 * The icons of 加载失败 (lazy-chunk.tsx), which ship in the app's entry: that state appears when chunks cannot be
 * fetched. icons.ts bundles their paths; vite.config.ts leaves them out of the icon chunks.
 */
export const BUNDLED_ICON_NAMES = ['error', 'refresh'] as const;
