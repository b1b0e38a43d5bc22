import { defineFeature } from '../../app-context';
import { registerAdminRoutes } from './admin.routes';

export const adminFeature = defineFeature({ name: 'admin', register: registerAdminRoutes });
