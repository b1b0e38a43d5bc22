/** /multiples (part 2 §2.3): what the creation plugin binds for it. */
import { lazy } from 'react';
import type { Bind } from 'inversify';
import { TOKENS, type PanelContribution } from '../../../core';
import { MULTIPLES_ROUTE, MultiplesCommandsToken, MultiplesState, MultiplesStateToken } from './multiples-state';
import { MultiplesCommands } from './multiples-commands';

const MultiplesPanel = lazy(() => import('./MultiplesPanel'));

export function bindMultiples(bind: Bind): void {
  bind(MultiplesStateToken).to(MultiplesState).inSingletonScope();
  bind(MultiplesCommandsToken).to(MultiplesCommands).inSingletonScope();
  bind(TOKENS.CommandContribution).toService(MultiplesCommandsToken);
  bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: MULTIPLES_ROUTE, component: MultiplesPanel });
}
