import { defineFeature } from '../../app-context';
import { registerBatchRoutes } from './batch.routes';

export const batchFeature = defineFeature({ name: 'batch', register: registerBatchRoutes });
