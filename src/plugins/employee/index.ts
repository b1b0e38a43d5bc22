import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { EmployeePanel } from './panels/EmployeePanel';

/** 超级员工: bundled for every host but the helper hosts. Its screens are not in the specification yet. */
export const plugin: WorkbenchPlugin = {
  id: 'employee',
  module: new ContainerModule(({ bind }) => {
    for (const route of ['/employee', '/employee/talking']) {
      bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route, component: EmployeePanel, comingSoon: true });
    }
  }),
};
