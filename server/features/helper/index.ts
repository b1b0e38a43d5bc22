import { defineFeature } from '../../app-context';
import { registerHelperRoutes } from './helper.routes';
import { HelperService } from './helper.service';

/** The 超级助手: how-to answers from the guide, and the product operated through our own calls as the user. */
export const helperFeature = defineFeature({
  name: 'helper',
  register: registerHelperRoutes,
  jobs: {
    'helper-run': async (ctx, { planId }) => new HelperService(ctx).runTask(planId),
  },
});
