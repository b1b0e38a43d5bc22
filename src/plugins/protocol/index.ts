import { lazyChunk, definePlugin } from '../../core';

const ProtocolPage = lazyChunk(() => import('./panels/ProtocolPage'));

export const plugin = definePlugin('protocol', { panels: [{ route: '/protocol', component: ProtocolPage }] });
