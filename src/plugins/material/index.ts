import { lazyChunk, definePlugin } from '../../core';
import { MaterialState, MaterialStateToken } from './material-state';
import { MaterialCommands } from './material-commands';
import { MATERIAL_ROUTE } from './material-view';

const MaterialPanel = lazyChunk(() => import('./panels/MaterialPanel'));

/** /material/index: the user's video, audio, image and text materials with the source filter; preview, rename, delete. */
export const plugin = definePlugin('material', {
  services: [[MaterialStateToken, MaterialState]],
  commands: MaterialCommands,
  panels: [{ route: MATERIAL_ROUTE, component: MaterialPanel }],
});
