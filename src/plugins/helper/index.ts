import { definePlugin, lazyChunk } from '../../core';
import { GUIDE_ROUTE, HelperState, HelperStateToken, OPERATION_ROUTE, TASKS_ROUTE } from './helper-state';

const GuidePanel = lazyChunk(() => import('./panels/GuidePanel'));
const OperationPanel = lazyChunk(() => import('./panels/OperationPanel'));
const TasksPanel = lazyChunk(() => import('./panels/TasksPanel'));

/** 超级助手 (issue 32): bundled only for the helper hosts (plugins.manifest.json). How-to answers, operating, background tasks. */
export const plugin = definePlugin('helper', {
  services: [[HelperStateToken, HelperState]],
  panels: [
    { route: GUIDE_ROUTE, component: GuidePanel },
    { route: OPERATION_ROUTE, component: OperationPanel },
    { route: TASKS_ROUTE, component: TasksPanel },
  ],
});
