import { lazyPanels, definePlugin } from '../../core';
import { OneclickCommands } from './oneclick-commands';
import { OneclickState, OneclickStateToken } from './oneclick-state';
import { EDIT_ROUTE, HISTORY_ROUTE, START_ROUTE } from './oneclick-view';

/** One-click creation (/cozeVideo, /cozeVideo/editVideo, /cozeVideo/history): a script to a storyboard to one finished video. */
export const plugin = definePlugin('oneclick', {
  services: [[OneclickStateToken, OneclickState]],
  commands: OneclickCommands,
  panels: lazyPanels({
    [START_ROUTE]: () => import('./panels/StartPanel'),
    [EDIT_ROUTE]: () => import('./panels/EditPanel'),
    [HISTORY_ROUTE]: () => import('./panels/HistoryPanel'),
  }),
});
