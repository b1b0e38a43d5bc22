import { defineFeature } from '../../app-context';
import { registerAdminRoutes } from './admin.routes';
import { registerChannelAdminRoutes } from './channel-admin.routes';

export { seedPublicVoices } from './public-voices';

export const adminFeature = defineFeature({
  name: 'admin',
  register(ctx) {
    registerAdminRoutes(ctx);
    registerChannelAdminRoutes(ctx);
  },
});
