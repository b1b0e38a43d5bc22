import { defineFeature } from '../../app-context';
import { registerMaterialRoutes } from './material.routes';

export const materialFeature = defineFeature({ name: 'material', register: registerMaterialRoutes });
