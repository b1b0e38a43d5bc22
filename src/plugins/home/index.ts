import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { HOME_ROUTE } from '../../contract';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { HomeCommandsToken, HomeState, HomeStateToken } from './home-state';
import { HomeCommands } from './home-commands';

const HomePanel = lazy(() => import('./panels/HomePanel'));

/** /home: banner, public avatars and voices (paged, part 1 §4), footer. */
export const plugin: WorkbenchPlugin = {
  id: 'home',
  module: new ContainerModule(({ bind }) => {
    bind(HomeStateToken).to(HomeState).inSingletonScope();
    bind(HomeCommandsToken).to(HomeCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(HomeCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: HOME_ROUTE, component: HomePanel });
  }),
};
