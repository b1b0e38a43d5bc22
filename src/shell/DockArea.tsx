import { useEffect, useRef } from 'react';
import { Button, NonIdealState } from '@blueprintjs/core';
import { DockviewReact, themeDark, themeLight, type DockviewApi, type DockviewReadyEvent } from 'dockview-react';
import 'dockview-react/dist/styles/dockview.css';
import { HOME_ROUTE } from '../contract';
import { TOKENS, useObservable, useService, type Location, type Navigation, type RouteRegistry, type Storage, type ThemeService } from '../core';
import { paramsOf, publishOpenPages, setDockApi, type RouteParams } from './dock-api';
import { pageTitle } from './route-view';
import { planOpen } from './tab-policy';
import { RoutePanel } from './RoutePanel';
import { RouteTab } from './RouteTab';
import { CloseConfirm } from './CloseConfirm';

const LAYOUT_KEY = 'workbench.layout';

function Watermark() {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  return (
    <div className="panel-center" data-testid="dock-empty">
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
const tabComponents = { route: RouteTab };

/**
 * The content area. Opening a route focuses its page when open, else takes the place of the active group's preview
 * tab, else opens a new preview tab (tab-policy.ts). The active page drives the address; with no page open the
 * address drops its route. The layout is saved on every change and restored on load (dropping pages this build or
 * host does not have).
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
    if (!loc.path) return;
    const route = routes.find(loc.path);
    if (route?.standalone) return;
    const group = api.activeGroup;
    const plan = planOpen(
      loc.path,
      api.panels.map((p) => p.id),
      (group?.panels ?? []).map((p) => ({ id: p.id, preview: Boolean(paramsOf(p).preview) })),
    );
    if (plan.kind === 'focus') {
      const existing = api.getPanel(plan.id)!;
      const current = paramsOf(existing);
      if (JSON.stringify(current.query ?? {}) !== JSON.stringify(loc.query)) existing.api.updateParameters({ ...current, query: loc.query });
      if (!existing.api.isActive) existing.api.setActive();
      return;
    }
    const panel = {
      id: loc.path,
      component: 'route',
      tabComponent: 'route',
      title: pageTitle(loc.path, loc.query, route),
      params: { path: loc.path, query: loc.query, preview: true } satisfies RouteParams,
    };
    if (plan.kind === 'replace' && group) {
      const old = api.getPanel(plan.id)!;
      api.addPanel({ ...panel, position: { referenceGroup: group, index: group.panels.indexOf(old) } });
      api.removePanel(old);
    } else {
      api.addPanel(panel);
    }
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
        const path = paramsOf(panel).path;
        if (!path || !routes.find(path)) api.removePanel(panel);
      }
    }
    open(api, navigation.current);
    publishOpenPages();

    let saveTimer: ReturnType<typeof setTimeout> | undefined;
    const saveSoon = () => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => storage.set(LAYOUT_KEY, api.toJSON()), 150);
    };
    api.onDidLayoutChange(() => {
      saveSoon();
      publishOpenPages();
    });
    api.onDidAddPanel((panel) => panel.api.onDidParametersChange(saveSoon));
    for (const panel of api.panels) panel.api.onDidParametersChange(saveSoon);
    api.onDidActivePanelChange(({ panel }) => {
      publishOpenPages();
      if (!panel) {
        if (api.totalPanels === 0) navigation.clear();
        return;
      }
      const params = paramsOf(panel);
      if (!params.path) return;
      const here = navigation.current;
      if (here.path !== params.path || JSON.stringify(here.query) !== JSON.stringify(params.query ?? {})) {
        navigation.navigate(params.path, params.query ?? {});
      }
    });
    api.onDidRemovePanel(() => {
      if (api.totalPanels === 0) navigation.clear();
    });
  };

  useEffect(() => {
    const sub = navigation.location$.subscribe((loc) => {
      if (apiRef.current) open(apiRef.current, loc);
    });
    return () => sub.unsubscribe();
  }, [navigation]);

  return (
    <>
      <DockviewReact
        className="dock-area"
        components={components}
        tabComponents={tabComponents}
        defaultTabComponent={RouteTab}
        onReady={onReady}
        watermarkComponent={Watermark}
        theme={theme === 'dark' ? themeDark : themeLight}
        defaultRenderer="always"
      />
      <CloseConfirm />
    </>
  );
}
