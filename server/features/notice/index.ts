import { defineFeature } from '../../app-context';
import { registerNoticeRoutes } from './notice.routes';

export { NoticeRepository } from './notice.repository';   // the admin feature publishes notices through it
export { notifyCloneEnded } from './personal-notices';

export const noticeFeature = defineFeature({ name: 'notice', register: registerNoticeRoutes });
