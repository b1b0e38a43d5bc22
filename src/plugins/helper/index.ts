import { definePlugin, lazyPanels } from '../../core';
import { GUIDE_ROUTE, HelperState, HelperStateToken, OPERATION_ROUTE, TASKS_ROUTE } from './helper-state';

/** 超级助手 (issue 32): bundled only for the helper hosts (plugins.manifest.json). How-to answers, operating, background tasks. */
export const plugin = definePlugin('helper', {
  services: [[HelperStateToken, HelperState]],
  panels: lazyPanels({
    [GUIDE_ROUTE]: () => import('./panels/GuidePanel'),
    [OPERATION_ROUTE]: () => import('./panels/OperationPanel'),
    [TASKS_ROUTE]: () => import('./panels/TasksPanel'),
  }),
});
