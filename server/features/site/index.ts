import { defineFeature } from '../../app-context';
import { registerSiteRoutes } from './site.routes';

export { SettingsRepository } from './site.repository';

export const siteFeature = defineFeature({ name: 'site', register: registerSiteRoutes });
