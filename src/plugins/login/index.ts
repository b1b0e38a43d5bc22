import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';

const LoginPage = lazy(() => import('./panels/LoginPage'));

export const plugin: WorkbenchPlugin = {
  id: 'login',
  module: new ContainerModule(({ bind }) => {
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: '/login', component: LoginPage });
  }),
};
