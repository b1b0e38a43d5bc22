import { defineFeature } from '../../app-context';
import { registerGuideRoutes } from './guide.routes';

export { GuideRepository } from './guide.repository';

export const guideFeature = defineFeature({ name: 'guide', register: registerGuideRoutes });
