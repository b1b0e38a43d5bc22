import { defineFeature } from '../../app-context';
import { registerStorageRoutes } from './storage.routes';

/** The storage host's reading side: stored objects, public and signed (uploads arrive through the upload feature). */
export const mediaFeature = defineFeature({ name: 'media', register: registerStorageRoutes });
