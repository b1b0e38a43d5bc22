import { lazyPanels, definePlugin } from '../../core';
import { VoicesState, VoicesStateToken } from './voices-state';
import { CLONE_ROUTE, SAMPLE_ROUTE, VoicesCommands } from './voices-commands';
import { CloneState, CloneStateToken } from './clone-state';
import CloneHost from './panels/CloneHost';

/** /clone (my and public voices, clone, modify, rename, confirm, delete), /voice (samples) and the clone dialogs (part 1 §2, §4, §5). */
export const plugin = definePlugin('voices', {
  services: [[VoicesStateToken, VoicesState], [CloneStateToken, CloneState]],
  commands: VoicesCommands,
  panels: lazyPanels({
    [CLONE_ROUTE]: () => import('./panels/ClonePanel'),
    [SAMPLE_ROUTE]: () => import('./panels/SamplePanel'),
  }),
  dialogs: [{ id: 'voices.clone', component: CloneHost }],
});
