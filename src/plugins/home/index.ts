import { HOME_ROUTE } from '../../contract';
import { lazyChunk, definePlugin } from '../../core';
import { HomeCommandsToken, HomeState, HomeStateToken } from './home-state';
import { HomeCommands } from './home-commands';

const HomePanel = lazyChunk(() => import('./panels/HomePanel'));

/** /home: banner, public avatars and voices (paged, part 1 §4), footer. */
export const plugin = definePlugin('home', {
  services: [[HomeStateToken, HomeState], [HomeCommandsToken, HomeCommands]],
  commands: HomeCommandsToken,
  panels: [{ route: HOME_ROUTE, component: HomePanel }],
});
