import { lazyChunk, definePlugin } from '../../core';
import { StoreCommands, StoreCommandsToken } from './store-commands';

const StorePanel = lazyChunk(() => import('./panels/StorePanel'));

/** /store: the tool launcher (part 2 §1). */
export const plugin = definePlugin('store', {
  services: [[StoreCommandsToken, StoreCommands]],
  commands: StoreCommandsToken,
  panels: [{ route: '/store', component: StorePanel }],
});
