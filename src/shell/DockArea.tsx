import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, NonIdealState, Spinner } from '@blueprintjs/core';
import {
  DockviewDefaultTab, DockviewReact, themeDark, themeLight,
  type DockviewApi, type DockviewPanelApi, type IDockviewPanel, type DockviewReadyEvent, type IDockviewPanelHeaderProps, type IDockviewPanelProps,
} from 'dockview-react';
import 'dockview-react/dist/styles/dockview.css';
import { Subject } from 'rxjs';
import { HOME_ROUTE, MSG } from '../contract';
import {
  ComingSoon, PanelHostContext, TOKENS, useObservable, useService,
  type Location, type Navigation, type PanelHost, type PanelRegistry, type RouteRegistry, type Storage, type ThemeService,
} from '../core';
import { closeAsk$, keepPanel, paramsOf, publishOpenPages, requestClose, setDockApi, type RouteParams } from './dock-api';
import { pageTitle } from './route-view';
import { planOpen } from './tab-policy';

const LAYOUT_KEY = 'workbench.layout';


/** A panel's parameters, live (they change when it is kept, marked dirty, or reopened with another query). */
function useRouteParams(api: DockviewPanelApi, initial: RouteParams): RouteParams {
  const [params, setParams] = useState(initial);
  useEffect(() => {
    const sub = api.onDidParametersChange((next) => setParams(next as RouteParams));
    return () => sub.dispose();
  }, [api]);
  return params;
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
  const { api: panelApi, containerApi } = props;
  const host = useMemo<PanelHost>(() => {
    const self = () => containerApi.getPanel(panelApi.id);
    return {
      markEdited: () => keepPanel(self()),
      setDirty: (dirty) => {
        const panel = self();
        if (!panel) return;
        const params = paramsOf(panel);
        if (Boolean(params.dirty) !== dirty || (dirty && params.preview)) panelApi.updateParameters({ ...params, dirty, preview: dirty ? false : params.preview });
      },
    };
  }, [panelApi, containerApi]);
  const { path, query } = props.params;
  const route = routes.find(path);
  const Panel = panels.get(path)?.component;
  return (
    // Typing into a page is editing it: its tab stops being a preview (as in VS Code). Kept after the event, not
    // during it: dockview re-renders the panel synchronously, which would put a controlled input's old value back
    // before its own onChange reads the new one.
    <div className="dock-panel" data-route={path} onInputCapture={() => setTimeout(host.markEdited)}>
      <PanelHostContext.Provider value={host}>
        <Suspense fallback={<div className="panel-center"><Spinner size={28} /></div>}>
          {!route ? <NotFound /> : Panel ? <Panel query={query ?? {}} closed$={closed$} /> : <ComingSoon title={route.title} />}
        </Suspense>
      </PanelHostContext.Provider>
    </div>
  );
}

/** The default tab, italic while a preview; a double-click keeps it; the active tab scrolls into view. */
function RouteTab(props: IDockviewPanelHeaderProps<RouteParams>) {
  const { preview, dirty, path } = useRouteParams(props.api, props.params);
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const reveal = () => {
      if (props.api.isActive) ref.current?.closest('.dv-tab')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    };
    reveal();
    const sub = props.api.onDidActiveChange(reveal);
    return () => sub.dispose();
    // A kept tab loses its italics and changes width: reveal it again.
  }, [props.api, preview]);
  return (
    <>
      <span ref={ref} hidden />
      <DockviewDefaultTab
        {...props}
        data-shell-tab={path}
        data-preview={preview ? 'true' : undefined}
        data-dirty={dirty ? 'true' : undefined}
        title={preview ? `${props.api.title ?? ''}（预览，双击固定）` : props.api.title}
        onDoubleClick={() => keepPanel(props.containerApi.getPanel(props.api.id))}
        closeActionOverride={() => requestClose(props.containerApi.getPanel(props.api.id))}
      />
    </>
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

/** Asks before closing a page that holds unsaved work (its draft is kept, so closing loses nothing but the tab). */
function CloseConfirm() {
  const [panel, setPanel] = useState<IDockviewPanel | null>(null);
  useEffect(() => {
    const sub = closeAsk$.subscribe(setPanel);
    return () => sub.unsubscribe();
  }, []);
  return (
    <Alert
      isOpen={panel !== null}
      icon="warning-sign"
      intent="warning"
      confirmButtonText="关闭"
      cancelButtonText="取消"
      canEscapeKeyCancel
      onConfirm={() => {
        panel?.api.close();
        setPanel(null);
      }}
      onCancel={() => setPanel(null)}
      className="close-confirm"
    >
      <p data-testid="close-confirm">{panel ? MSG.closeUnsaved(panel.title ?? panel.id) : ''}</p>
    </Alert>
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
