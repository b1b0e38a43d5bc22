import { useEffect, useRef, useState } from 'react';
import type { DockviewPanelApi, IDockviewPanelHeaderProps } from 'dockview-react';
import { DockTab } from '../core';
import { keepPanel, requestClose, type RouteParams } from './dock-api';

/** A panel's parameters, live (they change when it is kept, marked dirty, or reopened with another query). */
function useRouteParams(api: DockviewPanelApi, initial: RouteParams): RouteParams {
  const [params, setParams] = useState(initial);
  useEffect(() => {
    const sub = api.onDidParametersChange((next) => setParams(next as RouteParams));
    return () => sub.dispose();
  }, [api]);
  return params;
}

/** The default tab, italic while a preview; a double-click keeps it; the active tab scrolls into view. */
export function RouteTab(props: IDockviewPanelHeaderProps<RouteParams>) {
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
      <DockTab
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
