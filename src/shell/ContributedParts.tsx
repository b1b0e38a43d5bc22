import { Suspense, type ComponentType } from 'react';
import { LoadBoundary } from '../core';

/**
 * Pieces plugins add to the frame (top-bar items, dialogs), each loading on its own: nothing shows until it has
 * loaded, and one that fails leaves the rest of the frame alone.
 */
export function ContributedParts({ parts }: { parts: readonly { id: string; component: ComponentType }[] }) {
  return parts.map(({ id, component: Part }) => (
    <LoadBoundary key={id} variant="quiet">
      <Suspense fallback={null}>
        <Part />
      </Suspense>
    </LoadBoundary>
  ));
}
