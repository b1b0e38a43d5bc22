import { Suspense, useEffect, useMemo } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import type { IDockviewPanelProps } from 'dockview-react';
import { Subject } from 'rxjs';
import { HOME_ROUTE } from '../contract';
import { ComingSoon, LoadBoundary, PanelHostContext, TOKENS, useService, type Navigation, type PanelHost, type PanelRegistry, type RouteRegistry } from '../core';
import { keepPanel, paramsOf, type RouteParams } from './dock-api';

/** One dock panel per route path: the plugin's panel, or 即将上线 when no plugin of this build serves it. */
export function RoutePanel(props: IDockviewPanelProps<RouteParams>) {
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
        {/* A screen whose code fails to load says so in its own tab and loads again by itself (lazy-chunk.tsx). */}
        <LoadBoundary key={path}>
          <Suspense fallback={<div className="panel-center"><Spinner size={28} /></div>}>
            {!route ? <NotFound /> : Panel ? <Panel query={query ?? {}} closed$={closed$} /> : <ComingSoon title={route.title} />}
          </Suspense>
        </LoadBoundary>
      </PanelHostContext.Provider>
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
