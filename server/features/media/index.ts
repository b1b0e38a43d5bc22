import { defineFeature } from '../../app-context';
import { registerStorageRoutes } from './storage.routes';
import { registerPublicMediaRoutes } from './public.routes';

export const mediaFeature = defineFeature({
  name: 'media',
  register(ctx) {
    registerStorageRoutes(ctx, ctx.app);
    registerPublicMediaRoutes(ctx);
  },
});
