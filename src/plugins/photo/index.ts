import { lazyChunk, definePlugin } from '../../core';

const PetLibraryPanel = lazyChunk(() => import('./panels/PhotoLibraryPanel').then((m) => ({ default: m.PetLibraryPanel })));
const PersonLibraryPanel = lazyChunk(() => import('./panels/PhotoLibraryPanel').then((m) => ({ default: m.PersonLibraryPanel })));

/** /pet and /store/imageSpeak (part 2 §2.4): the AI libraries, my uploads, the upload dialog, create-video and delete. */
export const plugin = definePlugin('photo', {
  panels: [
    { route: '/pet', component: PetLibraryPanel },
    { route: '/store/imageSpeak', component: PersonLibraryPanel },
  ],
});
