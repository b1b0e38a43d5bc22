import { lazyPartPanels, definePlugin } from '../../core';
import { VideoGenState, VideoGenStateToken } from './videogen-state';

/** /store/wsVideo and /store/tsVideo (part 2 §2.9): text to video and image to video. */
export const plugin = definePlugin('videogen', {
  services: [[VideoGenStateToken, VideoGenState]],
  panels: lazyPartPanels(() => import('./panels/VideoGenPanel'), {
    '/store/wsVideo': 'TextToVideoPanel',
    '/store/tsVideo': 'ImageToVideoPanel',
  }),
});
