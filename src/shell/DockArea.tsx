import { Suspense, useEffect, useMemo, useRef } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { DockviewReact, themeDark, themeLight, type DockviewApi, type DockviewReadyEvent, type IDockviewPanelProps } from 'dockview-react';
import 'dockview-react/dist/styles/dockview.css';
import { Subject } from 'rxjs';
import { HOME_ROUTE, type RouteDef } from '../contract';
import {
  TOKENS, useObservable, useService,
  type Location, type Navigation, type PanelRegistry, type RouteRegistry, type Storage, type ThemeService,
} from '../core';
import { ComingSoon } from '../core';
import { setDockApi } from './dock-api';

const LAYOUT_KEY = 'workbench.layout';

interface RouteParams {
  path: string;
  query: Record<string, string>;
}

/** One dock panel per route path: the plugin's panel, or 即将上线 when no plugin of this build serves it. */
function RoutePanel(props: IDockviewPanelProps<RouteParams>) {
  const panels = useService<PanelRegistry>(TOKENS.PanelRegistry);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const closed$ = useMemo(() => new Subject<void>(), []);
  useEffect(
    () => () => {
      closed$.next();
      closed$.complete();
    },
    [closed$],
  );
  const { path, query } = props.params;
  const route = routes.find(path);
  const Panel = panels.get(path)?.component;
  return (
    <div className="dock-panel" data-route={path}>
      <Suspense fallback={<div className="panel-center"><Spinner size={28} /></div>}>
        {!route ? (
          <NotFound />
        ) : Panel ? (
          <Panel query={query ?? {}} closed$={closed$} />
        ) : (
          <ComingSoon title={route.title} />
        )}
      </Suspense>
    </div>
  );
}

function NotFound() {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  return (
    <div className="panel-center">
      <NonIdealState icon="search" title="页面不存在" description="您访问的页面不存在或已下线。" action={<Button intent="primary" text="返回首页" onClick={() => navigation.navigate(HOME_ROUTE)} />} />
    </div>
  );
}

function Watermark() {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  return (
    <div className="panel-center">
      <NonIdealState
        icon="application"
        title="没有打开的页面"
        description={<span>从左侧导航打开页面，或按 <kbd>Ctrl</kbd>+<kbd>K</kbd> 打开命令面板。</span>}
        action={<Button intent="primary" icon="home" text="打开首页" onClick={() => navigation.navigate(HOME_ROUTE)} />}
      />
    </div>
  );
}

const components = { route: RoutePanel };

function titleOf(route: RouteDef | undefined): string {
  return route?.title ?? '页面不存在';
}

/**
 * The content area. Opening a route opens or focuses its panel; the active panel drives the address;
 * the layout is saved on every change and restored on load (dropping panels this build or host does not have).
 */
export function DockArea() {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const storage = useService<Storage>(TOKENS.Storage);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const apiRef = useRef<DockviewApi | null>(null);

  useEffect(() => () => setDockApi(null), []);

  const open = (api: DockviewApi, loc: Location) => {
    const route = routes.find(loc.path);
    if (route?.standalone) return;
    const existing = api.getPanel(loc.path);
    const params: RouteParams = { path: loc.path, query: loc.query };
    if (existing) {
      const current = existing.params as RouteParams | undefined;
      if (JSON.stringify(current?.query ?? {}) !== JSON.stringify(loc.query)) existing.api.updateParameters(params);
      if (!existing.api.isActive) existing.api.setActive();
      return;
    }
    api.addPanel({ id: loc.path, component: 'route', title: titleOf(route), params });
  };

  const onReady = (event: DockviewReadyEvent) => {
    const api = event.api;
    apiRef.current = api;
    setDockApi(api);
    const saved = storage.get<object | null>(LAYOUT_KEY, null);
    if (saved) {
      try {
        api.fromJSON(saved as never);
      } catch {
        api.clear();
      }
      for (const panel of [...api.panels]) {
        const path = (panel.params as RouteParams | undefined)?.path;
        if (!path || !routes.find(path)) api.removePanel(panel);
      }
    }
    open(api, navigation.current);

    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    api.onDidLayoutChange(() => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => storage.set(LAYOUT_KEY, api.toJSON()), 150);
    });
    api.onDidActivePanelChange(({ panel }) => {
      const params = panel?.params as RouteParams | undefined;
      if (!params) return;
      const here = navigation.current;
      if (here.path !== params.path || JSON.stringify(here.query) !== JSON.stringify(params.query ?? {})) {
        navigation.navigate(params.path, params.query ?? {});
      }
    });
  };

  useEffect(() => {
    const sub = navigation.location$.subscribe((loc) => {
      if (apiRef.current) open(apiRef.current, loc);
    });
    return () => sub.unsubscribe();
  }, [navigation]);

  return (
    <DockviewReact
      className="dock-area"
      components={components}
      onReady={onReady}
      watermarkComponent={Watermark}
      theme={theme === 'dark' ? themeDark : themeLight}
      defaultRenderer="always"
    />
  );
}
