import { createContext, useContext } from 'react';

/**
 * What a panel may tell the workbench about its tab. A tab opened by navigation is a preview (italic) that the
 * next navigation replaces; `markEdited()` keeps it open, as typing into it does. `setDirty(true)` marks unsaved
 * work (a dot on the tab); it also keeps the tab.
 */
export interface PanelHost {
  markEdited(): void;
  setDirty(dirty: boolean): void;
}

const NO_HOST: PanelHost = { markEdited: () => undefined, setDirty: () => undefined };

export const PanelHostContext = createContext<PanelHost>(NO_HOST);

/** The host of the panel this component is in (a no-op outside the workbench's dock, e.g. standalone pages). */
export function usePanelHost(): PanelHost {
  return useContext(PanelHostContext);
}
