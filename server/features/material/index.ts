import { defineFeature } from '../../app-context';
import { registerMaterialRoutes } from './material.routes';

/** Tools save what they made into the library through it (text to image). */
export { MaterialRepository } from './material.repository';
export { saveCopyToMaterial } from './saved-copy';

export const materialFeature = defineFeature({ name: 'material', register: registerMaterialRoutes });
