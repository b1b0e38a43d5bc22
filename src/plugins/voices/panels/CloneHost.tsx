import { Suspense, useState } from 'react';
import { lazyChunk, useObservable, useService } from '../../../core';
import { VoicesStateToken, type VoicesState } from '../voices-state';

const CloneFlow = lazyChunk(() => import('./CloneFlow'));

/** Mounted at the workbench root; the clone dialogs' code loads the first time the flow opens, then stays. */
export default function CloneHost() {
  const state = useService<VoicesState>(VoicesStateToken);
  const flow = useObservable(state.flow$, state.flow$.value);
  const [wanted, setWanted] = useState(false);
  if (flow.step !== 'closed' && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <CloneFlow />
    </Suspense>
  );
}
