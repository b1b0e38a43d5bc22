import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { CreationCommandsToken, CreationState, CreationStateToken } from './creation-state';
import { CREATE_ROUTE, CreationCommands } from './creation-commands';
import { bindMultiples } from './multiples/module';

const CreatePanel = lazy(() => import('./panels/CreatePanel'));

/** /create (part 2 §2.2) and the script editor shared by every text scene: pause chips, polish, AI writing, the limit. */
export const plugin: WorkbenchPlugin = {
  id: 'creation',
  module: new ContainerModule(({ bind }) => {
    bind(CreationStateToken).to(CreationState).inSingletonScope();
    bind(CreationCommandsToken).to(CreationCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(CreationCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: CREATE_ROUTE, component: CreatePanel });
    bindMultiples(bind);
  }),
};
