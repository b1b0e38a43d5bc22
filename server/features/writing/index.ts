import { defineFeature } from '../../app-context';
import { registerWritingRoutes } from './writing.routes';

export const writingFeature = defineFeature({ name: 'writing', register: registerWritingRoutes });
