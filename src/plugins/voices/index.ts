import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type DialogContribution, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { VoicesCommandsToken, VoicesState, VoicesStateToken } from './voices-state';
import { CLONE_ROUTE, SAMPLE_ROUTE, VoicesCommands } from './voices-commands';
import CloneHost from './panels/CloneHost';

const ClonePanel = lazy(() => import('./panels/ClonePanel'));
const SamplePanel = lazy(() => import('./panels/SamplePanel'));

/** /clone (my and public voices, clone, modify, rename, confirm, delete), /voice (samples) and the clone dialogs (part 1 §2, §4, §5). */
export const plugin: WorkbenchPlugin = {
  id: 'voices',
  module: new ContainerModule(({ bind }) => {
    bind(VoicesStateToken).to(VoicesState).inSingletonScope();
    bind(VoicesCommandsToken).to(VoicesCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(VoicesCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: CLONE_ROUTE, component: ClonePanel });
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: SAMPLE_ROUTE, component: SamplePanel });
    bind<DialogContribution>(TOKENS.DialogContribution).toConstantValue({ id: 'voices.clone', component: CloneHost });
  }),
};
