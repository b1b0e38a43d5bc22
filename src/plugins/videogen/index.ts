import { lazyChunk, definePlugin } from '../../core';
import { VideoGenState, VideoGenStateToken } from './videogen-state';

const TextToVideoPanel = lazyChunk(() => import('./panels/VideoGenPanel').then((m) => ({ default: m.TextToVideoPanel })));
const ImageToVideoPanel = lazyChunk(() => import('./panels/VideoGenPanel').then((m) => ({ default: m.ImageToVideoPanel })));

/** /store/wsVideo and /store/tsVideo (part 2 §2.9): text to video and image to video. */
export const plugin = definePlugin('videogen', {
  services: [[VideoGenStateToken, VideoGenState]],
  panels: [
    { route: '/store/wsVideo', component: TextToVideoPanel },
    { route: '/store/tsVideo', component: ImageToVideoPanel },
  ],
});
