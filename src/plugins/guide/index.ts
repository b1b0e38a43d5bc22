import { lazy } from 'react';
import { definePlugin } from '../../core';

const GuidePanel = lazy(() => import('./panels/GuidePanel'));

/** /use: tutorial categories with guide videos played in a dialog (part 1 §2 Tutorial). */
export const plugin = definePlugin('guide', { panels: [{ route: '/use', component: GuidePanel }] });
