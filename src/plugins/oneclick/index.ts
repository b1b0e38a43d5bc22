import { lazyChunk, definePlugin } from '../../core';
import { OneclickCommands } from './oneclick-commands';
import { OneclickState, OneclickStateToken } from './oneclick-state';
import { EDIT_ROUTE, HISTORY_ROUTE, START_ROUTE } from './oneclick-view';

const StartPanel = lazyChunk(() => import('./panels/StartPanel'));
const EditPanel = lazyChunk(() => import('./panels/EditPanel'));
const HistoryPanel = lazyChunk(() => import('./panels/HistoryPanel'));

/** One-click creation (/cozeVideo, /cozeVideo/editVideo, /cozeVideo/history): a script to a storyboard to one finished video. */
export const plugin = definePlugin('oneclick', {
  services: [[OneclickStateToken, OneclickState]],
  commands: OneclickCommands,
  panels: [
    { route: START_ROUTE, component: StartPanel },
    { route: EDIT_ROUTE, component: EditPanel },
    { route: HISTORY_ROUTE, component: HistoryPanel },
  ],
});
