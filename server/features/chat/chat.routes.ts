/** Copy-chat calls (part 2 §7): send, the answer's event stream, history, messages, delete. */
import { API, MSG } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { handleEventStream } from '../../infra/event-stream';
import { found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { ChatRepository } from './chat.repository';
import { ChatService } from './chat.service';

export function registerChatRoutes({ router, db, settings, config, sessions, app }: FeatureContext): void {
  const chat = new ChatService(db, settings, config.chat);
  const chats = new ChatRepository(db);

  router.handle(API.chat.engine, async () => ({ configured: ((await chat.engineConfig()) ? 1 : 0) as 0 | 1 }));

  router.handle(API.chat.sendMessage, async ({ params, user }) => chat.send(user.id, params));

  router.handle(API.chat.records, async ({ params, user }) => {
    const { rows, total } = await chats.listConversations(user.id, requestedPage(params, 20));
    return { list: rows.map((r) => ({ id: r.id, title: r.title, create_time: formatDateTime(r.created_at) })), total };
  });

  router.handle(API.chat.recordRemove, async ({ params, user }) => {
    found(await chats.deleteConversation(user.id, params.id), MSG.chatNotFound);
    return {};
  });

  router.handle(API.chat.messages, async ({ params, user }) => {
    found(await chats.ownsConversation(user.id, params.cid), MSG.chatNotFound);
    const rows = await chats.visibleMessages(params.cid);
    return {
      list: rows.map((m) => ({
        id: m.id, role: m.role, content: m.content, create_time: formatDateTime(m.created_at),
        ...(m.role === 'assistant' ? { model: m.model, ...(m.reasoning ? { reasoning: m.reasoning } : {}) } : {}),
      })),
    };
  });

  // The stream is not an envelope call: EventSource-style GET with the token in the query, answered as text/event-stream.
  handleEventStream({ router, app, sessions }, API.chat.stream, 'chat stream failed', async (user, { cid, mid }, send, signal, log) =>
    chat.streamAnswer(user.id, { cid, mid }, send, signal, log),
  );
}
