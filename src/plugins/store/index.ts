import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { StoreCommands, StoreCommandsToken } from './store-commands';

const StorePanel = lazy(() => import('./panels/StorePanel'));

/** /store: the tool launcher (part 2 §1). */
export const plugin: WorkbenchPlugin = {
  id: 'store',
  module: new ContainerModule(({ bind }) => {
    bind(StoreCommandsToken).to(StoreCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(StoreCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: '/store', component: StorePanel });
  }),
};
