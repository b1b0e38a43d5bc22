import { lazyChunk, definePlugin } from '../../core';
import { ReplicaCommands } from './replica-commands';
import { ReplicaState, ReplicaStateToken } from './replica-state';
import { ACCOUNT_ROUTE, INDEX_ROUTE, PERSONAS_ROUTE, PRODUCTS_ROUTE, VIDEO_ROUTE } from './replica-view';


/** Super replica (/explosiveAnalysis and its four children): viral video and account analyses, personas, products, 仿写 and scripts. */
export const plugin = definePlugin('replica', {
  services: [[ReplicaStateToken, ReplicaState]],
  commands: ReplicaCommands,
  panels: [
    { route: INDEX_ROUTE, component: lazyChunk(() => import('./panels/IndexPanel')) },
    { route: VIDEO_ROUTE, component: lazyChunk(() => import('./panels/VideoPanel')) },
    { route: ACCOUNT_ROUTE, component: lazyChunk(() => import('./panels/AccountPanel')) },
    { route: PERSONAS_ROUTE, component: lazyChunk(() => import('./panels/PersonasPanel')) },
    { route: PRODUCTS_ROUTE, component: lazyChunk(() => import('./panels/ProductsPanel')) },
  ],
});
