/** The super employee's calls (issue 32): catalogue, employ, conversations, send and the answer's stream; the operator's bots. */
import fs from 'node:fs';
import path from 'node:path';
import { API, MSG, ResultCode } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { handleEventStream } from '../../infra/event-stream';
import { ApiError, sendResult, validationMessage, found } from '../../infra/http';
import { withWorkDir } from '../../infra/work-dirs';
import { SpeechEngineError } from '../../engines/speech';
import { formatDateTime } from '../../infra/time';
import { BotRepository, type BotMessageRow } from './bot.repository';
import { botFields, botView, BotService, speakSentence } from './bot.service';

const messageView = (m: BotMessageRow) => ({
  id: m.id, role: m.role, content: m.content, create_time: formatDateTime(m.created_at),
  ...(m.role === 'assistant' ? { status: Number(m.status), ...(m.error ? { error: m.error } : {}) } : {}),
});

export function registerBotRoutes(ctx: FeatureContext): void {
  const { router, db, sessions, app } = ctx;
  const bots = new BotRepository(db);
  const service = new BotService(ctx);

  router.handle(API.bot.typeList, async () => ({ list: await bots.types() }));

  router.handle(API.bot.botList, async ({ params, user }) => {
    if (params.mine === 1) return { list: (await bots.employees(user.id)).map((b) => botView(ctx, b, { employed: true, cid: b.cid, last_message: b.last_message })) };
    return { list: (await bots.catalogue(user.id, params.type)).map((b) => botView(ctx, b, { employed: b.employed })) };
  });

  router.handle(API.bot.employ, async ({ params, user }) => {
    const bot = found(await bots.live(params.bot_id), MSG.botMissing);
    await bots.employ(user.id, bot.id);
    return botView(ctx, bot, { employed: true });
  });

  router.handle(API.bot.record, async ({ params, user }) => {
    const { rows, total } = await bots.listConversations(user.id, { botId: params.bot_id, ...requestedPage(params, 20) });
    return {
      list: rows.map((r) => ({
        id: r.id, bot_id: r.bot_id, bot_name: r.bot_name, title: r.title, last_message: r.last_message,
        create_time: formatDateTime(r.created_at), update_time: formatDateTime(r.updated_at),
      })),
      total,
    };
  });

  router.handle(API.bot.sendMessage, async ({ params, user }) => service.send(user.id, params));

  router.handle(API.bot.messageList, async ({ params, user }) => {
    const botId = await bots.conversationBot(user.id, params.cid);
    if (botId === undefined) throw new ApiError(MSG.chatNotFound);
    return { list: (await bots.visibleMessages(params.cid)).map(messageView), bot_id: botId };
  });

  router.handle(API.bot.messageDetail, async ({ params, user }) => {
    const m = found(await bots.message(user.id, params.mid), MSG.chatNotFound);
    return { ...messageView(m), cid: m.conversation_id, bot_id: m.bot_id };
  });

  // As the copy chat's: an EventSource-style GET with the token in the query, answered as text/event-stream.
  handleEventStream({ router, app, sessions }, API.bot.stream, 'bot stream failed', async (user, { cid, mid }, send, signal, log) =>
    service.streamAnswer(user.id, { cid, mid }, send, signal, log),
  );

  // One spoken sentence as audio/mpeg, so an <audio> element plays it straight (the token rides in the query).
  router.handledElsewhere(API.bot.speech);
  app.get(API.bot.speech.path, { config: { call: API.bot.speech } }, async (request, reply) => {
    const parsed = API.bot.speech.request.safeParse(request.query ?? {});
    if (!parsed.success) return sendResult(reply, API.bot.speech, ResultCode.Error, validationMessage(parsed.error), null);
    const user = await sessions.authenticate(parsed.data.token);
    if (!user) return sendResult(reply, API.bot.speech, ResultCode.SessionExpired, MSG.sessionExpired, null);
    try {
      const audio = await withWorkDir(ctx.config.dataDir, async (dir) => {
        const output = path.join(dir, 'sentence.mp3');
        await speakSentence(ctx, user.id, parsed.data.mid, parsed.data.text, output);
        return fs.promises.readFile(output);
      });
      return reply.header('content-type', 'audio/mpeg').header('cache-control', 'private, max-age=3600').send(audio);
    } catch (err) {
      if (err instanceof ApiError) return sendResult(reply, API.bot.speech, ResultCode.Error, err.message, null);
      if (err instanceof SpeechEngineError) return sendResult(reply, API.bot.speech, ResultCode.Error, err.message, null);
      throw err;
    }
  });

  // ---- the operator's (npm run admin -- bot …)

  router.handle(API.bot.add, async ({ params }) => {
    if (await bots.nameTaken(params.name)) throw new ApiError(MSG.botNameTaken);
    const fields = await botFields(ctx, params);
    return { id: await bots.add({ avatarKey: '', avatarId: null, voiceId: null, ...fields } as Parameters<BotRepository['add']>[0]) };
  });

  router.handle(API.bot.adminList, async () => ({
    list: (await bots.adminList()).map((b) => {
      const { employed: _employed, ...view } = botView(ctx, b, { employed: false });
      return { ...view, prompt_chars: b.prompt_chars, employees: b.employees };
    }),
  }));

  router.handle(API.bot.update, async ({ params }) => {
    found(await bots.live(params.id), MSG.botMissing);
    if (params.name !== undefined && (await bots.nameTaken(params.name, params.id))) throw new ApiError(MSG.botNameTaken);
    found(await bots.update(params.id, await botFields(ctx, params)), MSG.botMissing);
    return {};
  });

  router.handle(API.bot.remove, async ({ params }) => {
    found(await bots.remove(params.id), MSG.botMissing);
    return {};
  });
}
