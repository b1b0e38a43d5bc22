import { lazyPartPanels, definePlugin } from '../../core';

/** /pet and /store/imageSpeak (part 2 §2.4): the AI libraries, my uploads, the upload dialog, create-video and delete. */
export const plugin = definePlugin('photo', {
  panels: lazyPartPanels(() => import('./panels/PhotoLibraryPanel'), {
    '/pet': 'PetLibraryPanel',
    '/store/imageSpeak': 'PersonLibraryPanel',
  }),
});
