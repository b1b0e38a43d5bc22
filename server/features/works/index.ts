import { defineFeature } from '../../app-context';
import { registerWorksRoutes, runWorkRender } from './works.routes';
import { registerMultiWorkRoutes } from './multi-render';

export const worksFeature = defineFeature({
  name: 'works',
  register(ctx) {
    registerWorksRoutes(ctx);
    registerMultiWorkRoutes(ctx);
  },
  jobs: {
    'work-render': (ctx, { workId }, job) => runWorkRender(ctx, workId, job.retryCount),
  },
});
