/**
 * The copy chat (part 2 §2.10, §4, §9): a send stores the question and an empty answer; the answer's stream
 * spends its credits, relays the chat engine's streamed completion (v3 → the chat model, r1 → the reasoning model),
 * and settles: done keeps the charge; a failure, or a stop before any text, refunds it. A stop after some text
 * keeps what arrived and its charge.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ChatAnswerStatus, LIMITS, MSG, type ChatModel } from '../../../src/contract';
import type { ServerConfig } from '../../infra/config';
import type { Db } from '../../infra/db';
import { ApiError } from '../../infra/http';
import { resolveChatConfig, type OpenAiCompatibleConfig } from '../../engines/chat';
import { creditBalance } from '../credits';
import type { SiteSettings } from '../../app-context';
import { ABANDONED_AFTER_SECONDS, AnswerStreams, conversationTitle, type AnswerBook, type AnswerSink, type ChargedAnswer } from './answer-stream';
import { ChatRepository } from './chat.repository';

const SYSTEM_PROMPT =
  '你是一名资深的中文文案助手，擅长短视频口播文案、营销文案、标题和脚本的创作与修改。回答简洁、直接、可直接使用；需要时分点作答。';

const CHAT_ANSWERS: AnswerBook<ChargedAnswer> = {
  name: 'chat',
  store: (q) => new ChatRepository(q),
  price: () => LIMITS.chatAnswerCredits,
  ledger: { key: (mid) => `chat-answer:${mid}`, spend: '文案对话', failed: '文案对话失败退回', interrupted: '文案对话中断退回' },
  relaysReasoning: true,
};

export class ChatService {
  constructor(
    private readonly db: Db,
    private readonly settings: SiteSettings,
    private readonly env: ServerConfig['chat'],
  ) {}

  async engineConfig(): Promise<OpenAiCompatibleConfig | null> {
    return resolveChatConfig(this.env, await this.settings.all());
  }

  /** Stores the question and its empty answer; refused without an engine or the credits for one answer. */
  async send(userId: number, input: { cid?: number; content: string; model: ChatModel }): Promise<{ cid: number; mid: number }> {
    if (!(await this.engineConfig())) throw new ApiError(MSG.chatEngineMissing);
    return this.db.tx(async (q) => {
      if ((await creditBalance(q, userId)) < LIMITS.chatAnswerCredits) throw new ApiError(MSG.insufficientCredits);
      const chats = new ChatRepository(q);
      let cid = input.cid;
      if (cid === undefined) cid = await chats.createConversation(userId, conversationTitle(input.content));
      else {
        // Exactly one answer at a time per conversation: a second send (a double click, two tabs) waits for the
        // first one's lock here and then sees its answer under way.
        if (!(await chats.lockConversation(userId, cid))) throw new ApiError(MSG.chatNotFound);
        if (await chats.answerInProgress(cid, ABANDONED_AFTER_SECONDS)) throw new ApiError(MSG.chatSendBusy);
      }
      await chats.addMessage({ cid, role: 'user', content: input.content, model: input.model, status: ChatAnswerStatus.Done });
      const mid = await chats.addMessage({ cid, role: 'assistant', content: '', model: input.model, status: ChatAnswerStatus.Pending });
      return { cid, mid };
    });
  }

  /**
   * Streams answer `mid` into `sink` until it ends or `signal` aborts (the browser went away): the system prompt and
   * the conversation's last turns go upstream, to the reasoning model for r1.
   */
  async streamAnswer(userId: number, ids: { cid: number; mid: number }, sink: AnswerSink, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const chats = new ChatRepository(this.db);
    const answer = await chats.answer(userId, ids.cid, ids.mid);
    await new AnswerStreams(this.db, CHAT_ANSWERS).stream(answer, {
      engine: () => this.engineConfig(),
      request: async (engine, a) => ({
        messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...(await chats.turnsBefore(ids.cid, a.id, LIMITS.chatHistoryTurns))],
        options: { model: a.model === 'r1' ? engine.reasoningModel : engine.model, maxTokens: a.model === 'r1' ? 8192 : 4096, temperature: 1 },
      }),
    }, sink, signal, log);
  }
}

/** Closes the answers a dead process left streaming, refunding each (see AnswerStreams.closeAbandoned). */
export async function closeAbandonedAnswers(db: Db, staleSeconds = ABANDONED_AFTER_SECONDS): Promise<number> {
  return new AnswerStreams(db, CHAT_ANSWERS).closeAbandoned(staleSeconds);
}
