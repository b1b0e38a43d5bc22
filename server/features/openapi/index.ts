import { defineFeature } from '../../app-context';
import { registerKeyRoutes } from './openapi.routes';
import { registerOpenSurface } from './openapi.open';
import { registerDocsPage } from './openapi.docs';
import { runWebhook } from './openapi.jobs';
import { OpenApiRepository } from './openapi.repository';

/** The public API (issue 34): personal keys, the REST surface `/open/v1`, its document and reference page, webhooks. */
export const openapiFeature = defineFeature({
  name: 'openapi',
  register: async (ctx) => {
    registerKeyRoutes(ctx);
    await registerOpenSurface(ctx);
    await registerDocsPage(ctx);
  },
  jobs: {
    'openapi-webhook': (ctx, payload) => runWebhook(ctx, payload),
    'openapi-sweep': (ctx) => new OpenApiRepository(ctx.db).sweepIdempotent(),
  },
});
