import { lazyPart, definePlugin } from '../../core';

const PetLibraryPanel = lazyPart(() => import('./panels/PhotoLibraryPanel'), 'PetLibraryPanel');
const PersonLibraryPanel = lazyPart(() => import('./panels/PhotoLibraryPanel'), 'PersonLibraryPanel');

/** /pet and /store/imageSpeak (part 2 §2.4): the AI libraries, my uploads, the upload dialog, create-video and delete. */
export const plugin = definePlugin('photo', {
  panels: [
    { route: '/pet', component: PetLibraryPanel },
    { route: '/store/imageSpeak', component: PersonLibraryPanel },
  ],
});
