import { defineFeature } from '../../app-context';
import { registerWorksRoutes } from './works.routes';
import { runWorkRender } from './works.jobs';

export const worksFeature = defineFeature({
  name: 'works',
  register: registerWorksRoutes,
  jobs: {
    'works-render': (ctx, { workId, step }, job) => runWorkRender(ctx, workId, job.retryCount, step),
  },
});
