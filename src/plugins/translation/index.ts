import { lazyPart, definePlugin } from '../../core';
import { TranslationState, TranslationStateToken } from './translation-state';

const TranslationPanel = lazyPart(() => import('./panels/TranslationPanel'), 'TranslationPanel');

/** /store/sea (part 2 §2.7): upload a video, choose the languages and the mode, see the price, submit; results on /works (翻译视频). */
export const plugin = definePlugin('translation', {
  services: [[TranslationStateToken, TranslationState]],
  panels: [{ route: '/store/sea', component: TranslationPanel }],
});
