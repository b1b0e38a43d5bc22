import { defineFeature } from '../../app-context';
import { registerNoticeRoutes } from './notice.routes';

export const noticeFeature = defineFeature({ name: 'notice', register: registerNoticeRoutes });
