import { Suspense, useEffect } from 'react';
import { Spinner } from '@blueprintjs/core';
import { LOGIN_ROUTE } from '../contract';
import { TOKENS, useObservable, useService, type Navigation, type PanelRegistry, type RouteRegistry, type SiteService, type ThemeService, type TokenStore } from '../core';
import { NEVER } from 'rxjs';
import { ComingSoon, LoadBoundary, lazyChunk } from '../core';
import { documentTitle, pageTitle } from './route-view';

const NEVER_CLOSED = NEVER;

// The workbench (dockview, kbar, nav) loads only after login, keeping the login page light.
const Workbench = lazyChunk(() => import('./Workbench'));

export function App() {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const panels = useService<PanelRegistry>(TOKENS.PanelRegistry);
  const tokens = useService<TokenStore>(TOKENS.TokenStore);
  const theme = useService<ThemeService>(TOKENS.ThemeService);
  const site = useService<SiteService>(TOKENS.SiteService);
  const location = useObservable(navigation.location$, navigation.current);
  const token = useObservable(tokens.token$, tokens.get());
  const currentTheme = useObservable(theme.theme$, theme.current);
  const siteInfo = useObservable(site.site$, null);

  useEffect(() => {
    void site.load();
  }, [site]);

  useEffect(() => {
    document.body.classList.toggle('bp6-dark', currentTheme === 'dark');
    document.body.classList.toggle('app-dark', currentTheme === 'dark');
    document.body.classList.toggle('app-light', currentTheme === 'light');
  }, [currentTheme]);

  const route = routes.find(location.path);
  const title = documentTitle(pageTitle(location.path, location.query, route), siteInfo?.site_title);
  useEffect(() => {
    document.title = title;
  }, [title]);
  const needsLogin = !route?.standalone && !token;
  useEffect(() => {
    if (needsLogin) navigation.navigate(LOGIN_ROUTE, { redirectUrl: navigation.href(location) }, { replace: true });
  }, [needsLogin, navigation, location]);

  const fallback = (
    <div className="app-loading">
      <Spinner size={32} />
    </div>
  );

  if (route?.standalone) {
    const panel = panels.get(route.path);
    const Page = panel?.component;
    return (
      <LoadBoundary key={route.path} className="app-loading">
        <Suspense fallback={fallback}>{Page ? <Page query={location.query} closed$={NEVER_CLOSED} /> : <ComingSoon title={route.title} />}</Suspense>
      </LoadBoundary>
    );
  }
  if (needsLogin) return fallback;
  return (
    <LoadBoundary className="app-loading">
      <Suspense fallback={fallback}>
        <Workbench />
      </Suspense>
    </LoadBoundary>
  );
}

