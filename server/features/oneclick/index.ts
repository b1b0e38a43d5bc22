import { defineFeature } from '../../app-context';
import { registerOneclickRoutes } from './oneclick.routes';
import { runOneclickRender } from './oneclick.jobs';

/** One-click creation (/cozeVideo, issue 29): storyboard projects, and their renders as works. */
export const oneclickFeature = defineFeature({
  name: 'oneclick',
  register: registerOneclickRoutes,
  jobs: { 'oneclick-render': (ctx, { workId, step }, job) => runOneclickRender(ctx, workId, job.retryCount, step) },
});
