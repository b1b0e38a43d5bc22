import { defineFeature } from '../../app-context';
import { registerSiteRoutes } from './site.routes';

export { SettingsRepository } from './settings.repository';

export const siteFeature = defineFeature({ name: 'site', register: registerSiteRoutes });
