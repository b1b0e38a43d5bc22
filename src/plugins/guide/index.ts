import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type PanelContribution, type WorkbenchPlugin } from '../../core';

const GuidePanel = lazy(() => import('./panels/GuidePanel'));

/** /use: tutorial categories with guide videos played in a dialog (part 1 §2 Tutorial). */
export const plugin: WorkbenchPlugin = {
  id: 'guide',
  module: new ContainerModule(({ bind }) => {
    bind<PanelContribution>(TOKENS.PanelContribution).toConstantValue({ route: '/use', component: GuidePanel });
  }),
};
