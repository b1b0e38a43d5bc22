import { definePlugin } from '../../core';
import { HelperPanel } from './panels/HelperPanel';

/** 超级助手: bundled only for the helper hosts (plugins.manifest.json). Its screens are not in the specification yet. */
export const plugin = definePlugin('helper', {
  panels: ['/helper/index', '/helper/operation', '/helper/asyncOperation'].map((route) => ({ route, component: HelperPanel, comingSoon: true })),
});
