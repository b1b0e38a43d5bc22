import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { WORKS_ROUTE, WorksCommandsToken, WorksState, WorksStateToken } from './works-state';
import { WorksCommands } from './works-commands';

const WorksPanel = lazy(() => import('./panels/WorksPanel'));

/** /works (part 1 §2 Works, §4): two levels of tabs with counts, cards by status, play, download, rename, delete. */
export const plugin: WorkbenchPlugin = {
  id: 'works',
  module: new ContainerModule(({ bind }) => {
    bind(WorksStateToken).to(WorksState).inSingletonScope();
    bind(WorksCommandsToken).to(WorksCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(WorksCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: WORKS_ROUTE, component: WorksPanel });
  }),
};
