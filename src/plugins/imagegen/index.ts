import { lazyChunk, definePlugin } from '../../core';
import { ImageGenState, ImageGenStateToken } from './imagegen-state';

const ImageGenPanel = lazyChunk(() => import('./panels/ImageGenPanel'));

/** /store/wsImage: text to image with suggested prompts, a reference picture, the preview carousel and the history (part 2 §2.8). */
export const plugin = definePlugin('imagegen', { services: [[ImageGenStateToken, ImageGenState]], panels: [{ route: '/store/wsImage', component: ImageGenPanel }] });
