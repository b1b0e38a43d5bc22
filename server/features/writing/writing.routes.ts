/** Copywriting calls (part 2 §2.2, §5): the AI-writing themes, polish or emotion marks, and AI writing. */
import type { FastifyRequest } from 'fastify';
import { API, MSG } from '../../../src/contract';
import { WithMessage } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { WritingRepository } from './writing.repository';
import { WritingService, type Caller } from './writing.service';

const caller = (request: FastifyRequest, userId: number): Caller => ({ userId, log: request.log, callId: request.routeOptions.config.call?.id });

export function registerWritingRoutes({ router, db, settings, config }: FeatureContext): void {
  const themes = new WritingRepository(db);
  const writing = new WritingService(settings, config.chat);

  router.handle(API.writing.theme, async () => {
    const byTheme = new Map<number, { name: string; list: { name: string }[] }>();
    for (const row of await themes.themeTopics()) {
      const theme = byTheme.get(row.id) ?? { name: row.name, list: [] };
      if (row.topic !== null) theme.list.push({ name: row.topic });
      byTheme.set(row.id, theme);
    }
    return { list: [...byTheme.values()] };
  });

  router.handle(API.writing.textpolish, async ({ params, user, request }) => ({
    content: await writing.polish(caller(request, user.id), params.text, params.action === 'emotion' ? 'emotion' : 'polish'),
  }));

  router.handle(API.writing.aiWriting, async ({ params, user, request }) => {
    const content = await writing.write(caller(request, user.id), params.keyword, params.length);
    return new WithMessage({ content }, MSG.writingSucceeded);
  });
}
