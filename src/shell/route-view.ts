/** How the frame names and highlights where the user is: pure functions of the routing table, unit-tested. */
import { FALLBACK_SITE_TITLE, PROTOCOL_TITLES, type RouteDef } from '../contract';

export const NOT_FOUND_TITLE = '页面不存在';

/** What the top bar and the tab call a location: the route's title, 页面不存在 for an unknown path, '' when nothing is open. */
export function pageTitle(path: string, query: Record<string, string>, route: RouteDef | undefined): string {
  if (!path) return '';
  if (!route) return NOT_FOUND_TITLE;
  if (route.path === '/protocol') return PROTOCOL_TITLES[query.type as keyof typeof PROTOCOL_TITLES] ?? PROTOCOL_TITLES.user;
  return route.title;
}

/** `开始创作 - AI超级分身`; the site title alone when no page is open. */
export function documentTitle(page: string, siteTitle: string | undefined | null): string {
  const site = siteTitle?.trim() || FALLBACK_SITE_TITLE;
  return page ? `${page} - ${site}` : site;
}

/**
 * The nav entry to highlight: the route's own, else the entry whose path is the longest prefix of it
 * (/store/wsImage lights 创作商店), else none — never the last one clicked.
 */
export function navIdFor(path: string, routes: readonly RouteDef[]): string | undefined {
  let best: RouteDef | undefined;
  for (const route of routes) {
    if (!route.nav) continue;
    if (route.path === path) return route.nav.id;
    if (path.startsWith(`${route.path}/`) && (!best || route.path.length > best.path.length)) best = route;
  }
  return best?.nav?.id;
}
