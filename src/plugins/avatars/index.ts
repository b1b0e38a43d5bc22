import { lazyPanels, definePlugin } from '../../core';
import { AvatarsState, AvatarsStateToken } from './avatars-state';
import { AvatarsCommands, PROFILE_ROUTE, PUBLIC_ROUTE } from './avatars-commands';
import CloneHost from './panels/CloneHost';

/** /profile (my avatars, clone), /gProfile (public avatars) and the clone dialogs (part 1 §2, §4, §5). */
export const plugin = definePlugin('avatars', {
  services: [[AvatarsStateToken, AvatarsState]],
  commands: AvatarsCommands,
  panels: lazyPanels({
    [PROFILE_ROUTE]: () => import('./panels/ProfilePanel'),
    [PUBLIC_ROUTE]: () => import('./panels/PublicAvatarsPanel'),
  }),
  dialogs: [{ id: 'avatars.clone', component: CloneHost }],
});
