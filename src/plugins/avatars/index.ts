import { lazyChunk, definePlugin } from '../../core';
import { AvatarsState, AvatarsStateToken } from './avatars-state';
import { AvatarsCommands, PROFILE_ROUTE, PUBLIC_ROUTE } from './avatars-commands';
import CloneHost from './panels/CloneHost';

const ProfilePanel = lazyChunk(() => import('./panels/ProfilePanel'));
const PublicAvatarsPanel = lazyChunk(() => import('./panels/PublicAvatarsPanel'));

/** /profile (my avatars, clone), /gProfile (public avatars) and the clone dialogs (part 1 §2, §4, §5). */
export const plugin = definePlugin('avatars', {
  services: [[AvatarsStateToken, AvatarsState]],
  commands: AvatarsCommands,
  panels: [
    { route: PROFILE_ROUTE, component: ProfilePanel },
    { route: PUBLIC_ROUTE, component: PublicAvatarsPanel },
  ],
  dialogs: [{ id: 'avatars.clone', component: CloneHost }],
});
