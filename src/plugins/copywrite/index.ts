import { lazyChunk, definePlugin } from '../../core';
import { CopywriteCommands } from './copywrite-commands';
import { CopywriteState, CopywriteStateToken } from './copywrite-state';
import { COPYWRITE_ROUTE, TRACE_ROUTE } from './copywrite-view';

const CopywritePanel = lazyChunk(() => import('./panels/CopywritePanel'));
const TracePanel = lazyChunk(() => import('./panels/TracePanel'));

/** Copy extraction (/copywrite/index, /store/copywrite/trace): the spoken copy of a video, read from its speech or its captions. */
export const plugin = definePlugin('copywrite', {
  services: [[CopywriteStateToken, CopywriteState]],
  commands: CopywriteCommands,
  panels: [
    { route: COPYWRITE_ROUTE, component: CopywritePanel },
    { route: TRACE_ROUTE, component: TracePanel },
  ],
});
