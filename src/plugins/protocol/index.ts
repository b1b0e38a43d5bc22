import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';

const ProtocolPage = lazy(() => import('./panels/ProtocolPage'));

export const plugin: WorkbenchPlugin = {
  id: 'protocol',
  module: new ContainerModule(({ bind }) => {
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: '/protocol', component: ProtocolPage });
  }),
};
