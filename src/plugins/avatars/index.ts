import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type DialogContribution, type PanelContribution, type WorkbenchPlugin } from '../../core';
import { AvatarsCommandsToken, AvatarsState, AvatarsStateToken } from './avatars-state';
import { AvatarsCommands, PROFILE_ROUTE, PUBLIC_ROUTE } from './avatars-commands';
import CloneHost from './panels/CloneHost';

const ProfilePanel = lazy(() => import('./panels/ProfilePanel'));
const PublicAvatarsPanel = lazy(() => import('./panels/PublicAvatarsPanel'));

/** /profile (my avatars, clone), /gProfile (public avatars) and the clone dialogs (part 1 §2, §4, §5). */
export const plugin: WorkbenchPlugin = {
  id: 'avatars',
  module: new ContainerModule(({ bind }) => {
    bind(AvatarsStateToken).to(AvatarsState).inSingletonScope();
    bind(AvatarsCommandsToken).to(AvatarsCommands).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(AvatarsCommandsToken);
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: PROFILE_ROUTE, component: ProfilePanel });
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: PUBLIC_ROUTE, component: PublicAvatarsPanel });
    bind<DialogContribution>(TOKENS.DialogContribution).toConstantValue({ id: 'avatars.clone', component: CloneHost });
  }),
};
