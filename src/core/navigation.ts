import { injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { HOME_ROUTE, normalizePath } from '../contract';
import type { Location, Navigation } from './tokens';

export function parseHash(hash: string): Location {
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = raw.split('?');
  const path = normalizePath(decodeURIComponent(pathPart || '/'));
  const query: Record<string, string> = {};
  new URLSearchParams(queryPart).forEach((v, k) => (query[k] = v));
  return { path: path === '/' ? HOME_ROUTE : path, query };
}

export function formatHref(path: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Hash routing (the spec's routes use hash mode); `/` redirects to /home. */
@injectable()
export class HashNavigation implements Navigation {
  private readonly subject: BehaviorSubject<Location>;
  readonly location$: Observable<Location>;

  constructor() {
    this.subject = new BehaviorSubject(parseHash(window.location.hash));
    this.location$ = this.subject.asObservable();
    if (!window.location.hash || window.location.hash === '#/' || window.location.hash === '#') {
      window.history.replaceState(null, '', `#${formatHref(HOME_ROUTE)}`);
    }
    window.addEventListener('hashchange', () => this.subject.next(parseHash(window.location.hash)));
  }

  get current(): Location {
    return this.subject.value;
  }

  navigate(path: string, query: Record<string, string | number | undefined> = {}, options: { replace?: boolean } = {}): void {
    const href = `#${formatHref(normalizePath(path), query)}`;
    // Same address (e.g. its tab was closed meanwhile): say it again, so the page opens or comes to the front.
    if (window.location.hash === href) {
      this.subject.next(parseHash(href));
      return;
    }
    if (options.replace) {
      window.history.replaceState(null, '', href);
      this.subject.next(parseHash(href));
    } else {
      window.location.hash = href;
    }
  }

  clear(): void {
    if (!this.subject.value.path) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    this.subject.next({ path: '', query: {} });
  }

  href(location: Location = this.current): string {
    return formatHref(location.path, location.query);
  }
}
