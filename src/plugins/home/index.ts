import { HOME_ROUTE } from '../../contract';
import { lazyChunk, definePlugin } from '../../core';
import { HomeState, HomeStateToken } from './home-state';
import { HomeCommands } from './home-commands';

const HomePanel = lazyChunk(() => import('./panels/HomePanel'));

/** /home: banner, public avatars and voices (paged, part 1 §4), footer. */
export const plugin = definePlugin('home', {
  services: [[HomeStateToken, HomeState]],
  commands: HomeCommands,
  panels: [{ route: HOME_ROUTE, component: HomePanel }],
});
