/** /multiples (part 2 §2.3): what the creation plugin contributes for it. */
import { lazyChunk, type PanelContribution } from '../../../core';
import { MULTIPLES_ROUTE, MultiplesState, MultiplesStateToken } from './multiples-state';
import { MultiplesCommands } from './multiples-commands';

const MultiplesPanel = lazyChunk(() => import('./MultiplesPanel'));

export const multiples = {
  services: [[MultiplesStateToken, MultiplesState]] as const,
  commands: [MultiplesCommands],
  panels: [{ route: MULTIPLES_ROUTE, component: MultiplesPanel }] satisfies PanelContribution[],
};
