import { lazyPanels, definePlugin } from '../../core';
import { CopywriteCommands } from './copywrite-commands';
import { CopywriteState, CopywriteStateToken } from './copywrite-state';
import { COPYWRITE_ROUTE, TRACE_ROUTE } from './copywrite-view';

/** Copy extraction (/copywrite/index, /store/copywrite/trace): the spoken copy of a video, read from its speech or its captions. */
export const plugin = definePlugin('copywrite', {
  services: [[CopywriteStateToken, CopywriteState]],
  commands: CopywriteCommands,
  panels: lazyPanels({
    [COPYWRITE_ROUTE]: () => import('./panels/CopywritePanel'),
    [TRACE_ROUTE]: () => import('./panels/TracePanel'),
  }),
});
