import { lazyPart, definePlugin } from '../../core';
import { ExtractionState, ExtractionStateToken } from './extraction-state';

const VideoExtractionPanel = lazyPart(() => import('./panels/ExtractionPanel'), 'VideoExtractionPanel');
const AudioExtractionPanel = lazyPart(() => import('./panels/ExtractionPanel'), 'AudioExtractionPanel');

/** /store/extraction and /store/audioExtraction (part 2 §2.5, §2.6): paste a link or upload a video, records, download, save. */
export const plugin = definePlugin('extraction', {
  services: [[ExtractionStateToken, ExtractionState]],
  panels: [
    { route: '/store/extraction', component: VideoExtractionPanel },
    { route: '/store/audioExtraction', component: AudioExtractionPanel },
  ],
});
