import { lazyChunk, definePlugin } from '../../core';
import { StoreCommands } from './store-commands';

const StorePanel = lazyChunk(() => import('./panels/StorePanel'));

/** /store: the tool launcher (part 2 §1). */
export const plugin = definePlugin('store', {
  commands: StoreCommands,
  panels: [{ route: '/store', component: StorePanel }],
});
