import { lazyPartPanels, definePlugin } from '../../core';
import { ExtractionState, ExtractionStateToken } from './extraction-state';

/** /store/extraction and /store/audioExtraction (part 2 §2.5, §2.6): paste a link or upload a video, records, download, save. */
export const plugin = definePlugin('extraction', {
  services: [[ExtractionStateToken, ExtractionState]],
  panels: lazyPartPanels(() => import('./panels/ExtractionPanel'), {
    '/store/extraction': 'VideoExtractionPanel',
    '/store/audioExtraction': 'AudioExtractionPanel',
  }),
});
