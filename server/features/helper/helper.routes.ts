/** The 超级助手's calls (issue 32): its state, the how-to and operating streams, and the plans the user confirms or cancels. */
import { API, HELPER_TOOLS, LIMITS, helperToolName } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { handleEventStream } from '../../infra/event-stream';
import { HelperRepository } from './helper.repository';
import { HelperService } from './helper.service';

export function registerHelperRoutes(ctx: FeatureContext): void {
  const { router, app, sessions, db } = ctx;
  const service = new HelperService(ctx);

  router.handle(API.helper.status, async () => ({
    chat: (await service.engine()) ? (1 as const) : (0 as const),
    tools: HELPER_TOOLS.map((t) => ({ name: helperToolName(t.call), description: t.description, spends: t.spends ? (1 as const) : (0 as const) })),
  }));

  handleEventStream({ router, app, sessions }, API.helper.guide, 'helper guide failed', (user, { q }, send, signal, log) => service.guide(user, q, send, signal, log));
  handleEventStream({ router, app, sessions }, API.helper.operate, 'helper operate failed', (user, params, send, signal, log) => service.operate(user, params, send, signal, log));

  router.handle(API.helper.confirm, async ({ params, user }) => service.confirm(user, params.id));
  router.handle(API.helper.cancel, async ({ params, user }) => service.cancel(user.id, params.id, params.item_id));
  router.handle(API.helper.conversations, async ({ params, user }) => ({ list: await service.conversations(user.id, params.async === 1) }));
  router.handle(API.helper.conversation, async ({ params, user }) => service.conversation(user.id, params.id));
  router.handle(API.helper.removeConversation, async ({ params, user }) => service.removeConversation(user.id, params.id));
  router.handle(API.helper.plans, async ({ user }) => ({ list: await service.views(await new HelperRepository(db).asyncPlans(user.id, LIMITS.helper.planListSize)) }));
}
