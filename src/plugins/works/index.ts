import { lazyChunk, definePlugin } from '../../core';
import { WORKS_ROUTE, WorksState, WorksStateToken } from './works-state';
import { WorksCommands } from './works-commands';

const WorksPanel = lazyChunk(() => import('./panels/WorksPanel'));

/** /works (part 1 §2 Works, §4): two levels of tabs with counts, cards by status, play, download, rename, delete. */
export const plugin = definePlugin('works', {
  services: [[WorksStateToken, WorksState]],
  commands: WorksCommands,
  panels: [{ route: WORKS_ROUTE, component: WorksPanel }],
});
