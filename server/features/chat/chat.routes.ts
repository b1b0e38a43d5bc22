/** Copy-chat calls (part 2 §7): send, the answer's event stream, history, messages, delete. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API, LIMITS, MSG, ResultCode, type ChatStreamEvent } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError, sendResult, validationMessage } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { ChatRepository } from './chat.repository';
import { ChatService } from './chat.service';

export function registerChatRoutes({ router, db, settings, config, sessions, app }: FeatureContext): void {
  const chat = new ChatService(db, settings, config.chat);
  const chats = new ChatRepository(db);

  router.handle(API.chat.engine, async () => ({ configured: ((await chat.engineConfig()) ? 1 : 0) as 0 | 1 }));

  router.handle(API.chat.sendMessage, async ({ params, user }) => chat.send(user.id, params));

  router.handle(API.chat.records, async ({ params, user }) => {
    const limit = params.limit > 0 ? params.limit : 20;
    const { rows, total } = await chats.listConversations(user.id, { limit, offset: (Math.max(params.page, 1) - 1) * limit });
    return { list: rows.map((r) => ({ id: r.id, title: r.title, create_time: formatDateTime(r.created_at) })), total };
  });

  router.handle(API.chat.recordRemove, async ({ params, user }) => {
    if (!(await chats.deleteConversation(user.id, params.id))) throw new ApiError(MSG.chatNotFound);
    return {};
  });

  router.handle(API.chat.messages, async ({ params, user }) => {
    if (!(await chats.ownsConversation(user.id, params.cid))) throw new ApiError(MSG.chatNotFound);
    const rows = await chats.visibleMessages(params.cid);
    return {
      list: rows.map((m) => ({
        id: m.id, role: m.role, content: m.content, create_time: formatDateTime(m.created_at),
        ...(m.role === 'assistant' ? { model: m.model, ...(m.reasoning ? { reasoning: m.reasoning } : {}) } : {}),
      })),
    };
  });

  // The stream is not an envelope call: EventSource-style GET with the token in the query, answered as text/event-stream.
  router.handledElsewhere(API.chat.stream);
  const open = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.abort();
  });
  app.get(API.chat.stream.path, { config: { call: API.chat.stream } }, async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = API.chat.stream.request.safeParse(request.query ?? {});
    if (!parsed.success) return sendResult(reply, API.chat.stream, ResultCode.Error, validationMessage(parsed.error), null);
    const user = await sessions.authenticate(parsed.data.token);
    if (!user) return sendResult(reply, API.chat.stream, ResultCode.SessionExpired, MSG.sessionExpired, null);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const browser = new AbortController();
    open.add(browser);
    res.on('close', () => browser.abort());
    const send = (event: ChatStreamEvent) => {
      if (!res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    // Proxies close a silent connection; r1 may think for a while before its first word.
    const keepAlive = setInterval(() => !res.destroyed && res.write(': keep-alive\n\n'), LIMITS.chatKeepAliveMs);
    try {
      await chat.streamAnswer(user.id, { cid: parsed.data.cid, mid: parsed.data.mid }, send, browser.signal, request.log);
    } catch (err) {
      request.log.error({ err, call: API.chat.stream.id }, 'chat stream failed');
      send({ message: '', error: MSG.serverError, done: 1 });
    } finally {
      clearInterval(keepAlive);
      open.delete(browser);
      res.end();
    }
  });
}
