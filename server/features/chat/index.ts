import { defineFeature } from '../../app-context';
import { registerChatRoutes } from './chat.routes';
import { closeAbandonedAnswers } from './chat.service';

/**
 * The copy chat. At start-up and every few minutes, answers a dead process left streaming are closed and refunded;
 * at start-up with the embedded database this process is the only one, so every streaming answer is such.
 */
export const chatFeature = defineFeature({
  name: 'chat',
  register(ctx) {
    registerChatRoutes(ctx);
    ctx.app.addHook('onReady', async () => {
      const closed = await closeAbandonedAnswers(ctx.db, ctx.db.kind === 'pglite' ? 0 : undefined);
      if (closed) ctx.app.log.warn({ closed }, 'closed chat answers left streaming by a stopped process, refunded');
    });
  },
  jobs: {
    'chat-sweep': async (ctx) => {
      await closeAbandonedAnswers(ctx.db);
    },
  },
});
export { AnswerMessages } from './answer-messages.repository';
export { ABANDONED_AFTER_SECONDS, AnswerStreams, conversationTitle, type AnswerBook, type AnswerSink, type ChargedAnswer } from './answer-stream';
