import { defineFeature } from '../../app-context';
import { closeAbandonedWhenReady } from './answer-stream';
import { registerChatRoutes } from './chat.routes';
import { closeAbandonedAnswers } from './chat.service';

/** The copy chat. At start-up and every few minutes, answers a dead process left streaming are closed and refunded. */
export const chatFeature = defineFeature({
  name: 'chat',
  register(ctx) {
    registerChatRoutes(ctx);
    closeAbandonedWhenReady(ctx, 'chat', closeAbandonedAnswers);
  },
  jobs: {
    'chat-sweep': async (ctx) => {
      await closeAbandonedAnswers(ctx.db);
    },
  },
});
export { AnswerMessages } from './answer-messages.repository';
export { ABANDONED_AFTER_SECONDS, AnswerStreams, closeAbandonedWhenReady, conversationTitle, type AnswerBook, type AnswerSink, type ChargedAnswer } from './answer-stream';
