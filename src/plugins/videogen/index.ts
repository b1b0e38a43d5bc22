import { lazyPart, definePlugin } from '../../core';
import { VideoGenState, VideoGenStateToken } from './videogen-state';

const TextToVideoPanel = lazyPart(() => import('./panels/VideoGenPanel'), 'TextToVideoPanel');
const ImageToVideoPanel = lazyPart(() => import('./panels/VideoGenPanel'), 'ImageToVideoPanel');

/** /store/wsVideo and /store/tsVideo (part 2 §2.9): text to video and image to video. */
export const plugin = definePlugin('videogen', {
  services: [[VideoGenStateToken, VideoGenState]],
  panels: [
    { route: '/store/wsVideo', component: TextToVideoPanel },
    { route: '/store/tsVideo', component: ImageToVideoPanel },
  ],
});
