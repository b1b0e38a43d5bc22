import { useLayoutEffect, useRef } from 'react';
import { DockviewDefaultTab, type IDockviewDefaultTabProps } from 'dockview-react';

/** The close button's name: dockview's default tab writes it in English ("Close tab") and takes no other. */
export const CLOSE_TAB_LABEL = '关闭标签页';

/** dockview's default tab, its close button named in Chinese (for screen readers and the tooltip). */
export function DockTab(props: IDockviewDefaultTabProps) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const button = ref.current?.nextElementSibling?.querySelector('.dv-default-tab-action');
    button?.setAttribute('aria-label', CLOSE_TAB_LABEL);
    button?.setAttribute('title', CLOSE_TAB_LABEL);
  });
  return (
    <>
      <span ref={ref} hidden />
      <DockviewDefaultTab {...props} />
    </>
  );
}
