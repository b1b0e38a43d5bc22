/** The dubbing studio (/store/dubbing/index): what the creation plugin contributes for it (it shares the script editor and the voice picker). */
import { lazy } from 'react';
import type { PanelContribution } from '../../../core';
import { DUBBING_ROUTE, DubbingCommandsToken, DubbingState, DubbingStateToken } from './dubbing-state';
import { DubbingCommands } from './dubbing-commands';

const DubbingPanel = lazy(() => import('./DubbingPanel'));

export const dubbing = {
  services: [
    [DubbingStateToken, DubbingState],
    [DubbingCommandsToken, DubbingCommands],
  ] as const,
  commands: [DubbingCommandsToken],
  panels: [{ route: DUBBING_ROUTE, component: DubbingPanel }] satisfies PanelContribution[],
};
