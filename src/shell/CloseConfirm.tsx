import { useEffect, useState } from 'react';
import { Alert } from '@blueprintjs/core';
import type { IDockviewPanel } from 'dockview-react';
import { MSG } from '../contract';
import { closeAsk$ } from './dock-api';

/** Asks before closing a page that holds unsaved work (its draft is kept, so closing loses nothing but the tab). */
export function CloseConfirm() {
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
