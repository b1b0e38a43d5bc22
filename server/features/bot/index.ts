import { defineFeature } from '../../app-context';
import { closeAbandonedWhenReady } from '../chat';
import { registerHearRoutes } from './bot.hear';
import { registerBotRoutes } from './bot.routes';
import { closeAbandonedAnswers } from './bot.service';

/**
 * The super employee: bots that operators define and users employ and talk to. Answers a dead process left
 * streaming are closed and refunded at start-up and every few minutes, as the copy chat's.
 */
export const botFeature = defineFeature({
  name: 'bot',
  async register(ctx) {
    registerBotRoutes(ctx);
    await registerHearRoutes(ctx);
    closeAbandonedWhenReady(ctx, 'bot', closeAbandonedAnswers);
  },
  jobs: {
    'bot-sweep': async (ctx) => {
      await closeAbandonedAnswers(ctx.db);
    },
  },
});
