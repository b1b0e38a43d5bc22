import { lazyChunk, definePlugin } from '../../core';
import { DUBBING_ROUTE, DubbingState, DubbingStateToken } from './dubbing-state';
import { DubbingCommands } from './dubbing-commands';

const DubbingPanel = lazyChunk(() => import('./DubbingPanel'));

/**
 * The dubbing studio (/store/dubbing/index): lines spoken by roles' voices into one mp3 and its SRT, history, save to
 * material. Its script editor and voice picker are core's (src/core/script-editor, voice-picker.tsx), shared with the
 * creation screens.
 */
export const plugin = definePlugin('dubbing', {
  services: [[DubbingStateToken, DubbingState]],
  commands: DubbingCommands,
  panels: [{ route: DUBBING_ROUTE, component: DubbingPanel }],
});
