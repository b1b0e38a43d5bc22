import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { HelperPanel } from './panels/HelperPanel';

/** 超级助手: bundled only for the helper hosts (plugins.manifest.json). Its screens are not in the specification yet. */
export const plugin: WorkbenchPlugin = {
  id: 'helper',
  module: new ContainerModule(({ bind }) => {
    for (const route of ['/helper/index', '/helper/operation', '/helper/asyncOperation']) {
      bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route, component: HelperPanel, comingSoon: true });
    }
  }),
};
