import { lazyChunk, definePlugin } from '../../core';

const GuidePanel = lazyChunk(() => import('./panels/GuidePanel'));

/** /use: tutorial categories with guide videos played in a dialog (part 1 §2 Tutorial). */
export const plugin = definePlugin('guide', { panels: [{ route: '/use', component: GuidePanel }] });
