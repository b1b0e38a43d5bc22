import { lazyChunk, definePlugin } from '../../core';
import { BatchState, BatchStateToken } from './batch-state';
import { BATCH_ROUTE } from './batch-view';

const BatchPanel = lazyChunk(() => import('./panels/BatchPanel'));

/** /batch, 批量创作: a table of rows becomes a batch of works (template, upload or paste, checked grid, batch page, zip). */
export const plugin = definePlugin('batch', { services: [[BatchStateToken, BatchState]], panels: [{ route: BATCH_ROUTE, component: BatchPanel }] });
