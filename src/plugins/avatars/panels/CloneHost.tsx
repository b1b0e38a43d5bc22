import { Suspense, useState } from 'react';
import { lazyChunk, useObservable, useService } from '../../../core';
import { AvatarsStateToken, type AvatarsState } from '../avatars-state';

const CloneFlow = lazyChunk(() => import('./CloneFlow'));

/** Mounted at the workbench root; the clone dialogs' code loads the first time the flow opens, then stays. */
export default function CloneHost() {
  const state = useService<AvatarsState>(AvatarsStateToken);
  const step = useObservable(state.cloneStep$, state.cloneStep$.value);
  const [wanted, setWanted] = useState(false);
  if (step !== 'closed' && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <CloneFlow />
    </Suspense>
  );
}
