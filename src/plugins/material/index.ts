import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { MaterialCommandsToken, MaterialState, MaterialStateToken } from './material-state';
import { MaterialCommands } from './material-commands';
import { MATERIAL_ROUTE } from './material-view';

const MaterialPanel = lazy(() => import('./panels/MaterialPanel'));

/** /material/index: the user's video, audio, image and text materials with the source filter; preview, rename, delete. */
export const plugin: WorkbenchPlugin = {
  id: 'material',
  module: new ContainerModule(({ bind }) => {
    bind(MaterialStateToken).to(MaterialState).inSingletonScope();
    bind(MaterialCommandsToken).to(MaterialCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(MaterialCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: MATERIAL_ROUTE, component: MaterialPanel });
  }),
};
