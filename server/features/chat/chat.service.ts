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
import { ChatEngineError, OpenAiCompatibleChat, resolveChatConfig, type OpenAiCompatibleConfig } from '../../engines/chat';
import { creditBalance, InsufficientCreditsError, refundIn, spendIn } from '../credits';
import type { SiteSettings } from '../../app-context';
import { ABANDONED_AFTER_SECONDS, conversationTitle, PROGRESS_MS, type AnswerSink } from './answer-stream';
import { ChatRepository, type AnswerRow } from './chat.repository';

const SYSTEM_PROMPT =
  '你是一名资深的中文文案助手，擅长短视频口播文案、营销文案、标题和脚本的创作与修改。回答简洁、直接、可直接使用；需要时分点作答。';


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
   * Streams answer `mid` into `sink` until it ends or `signal` aborts (the browser went away). A finished answer
   * is replayed whole; an answer another stream is relaying is refused.
   */
  async streamAnswer(userId: number, ids: { cid: number; mid: number }, sink: AnswerSink, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const chats = new ChatRepository(this.db);
    const answer = await chats.answer(userId, ids.cid, ids.mid);
    if (!answer) return sink({ message: '', error: MSG.chatNotFound, done: 1 });
    if (answer.status === ChatAnswerStatus.Done || answer.status === ChatAnswerStatus.Failed) return replay(answer, sink);
    const engine = await this.engineConfig();
    if (!engine) return this.fail(answer, { content: '', reasoning: '' }, MSG.chatEngineMissing, sink);
    let charged: AnswerRow | null;
    try {
      // Claimed and paid for together: of two streams opened at once, one relays and pays, the other is refused.
      charged = await this.db.tx(async (q) => {
        const repo = new ChatRepository(q);
        if (!(await repo.claimAnswer(answer.id))) return null;
        const spend = await spendIn(q, { userId, amount: LIMITS.chatAnswerCredits, action: '文案对话', key: `chat-answer:${answer.id}` });
        await repo.setSpend(answer.id, spend.entryId);
        return { ...answer, spend_entry_id: spend.entryId };
      });
    } catch (err) {
      if (err instanceof InsufficientCreditsError) return this.fail(answer, { content: '', reasoning: '' }, MSG.insufficientCredits, sink);
      throw err;
    }
    if (!charged) return sink({ message: '', error: MSG.chatAnswerBusy, done: 1 });

    const history = await chats.turnsBefore(ids.cid, answer.id, LIMITS.chatHistoryTurns);
    const got = { content: '', reasoning: '' };
    const heartbeat = setInterval(() => void chats.saveProgress(answer.id, got).catch(() => undefined), PROGRESS_MS);
    try {
      const deltas = new OpenAiCompatibleChat(engine).stream([{ role: 'system', content: SYSTEM_PROMPT }, ...history], {
        model: answer.model === 'r1' ? engine.reasoningModel : engine.model,
        maxTokens: answer.model === 'r1' ? 8192 : 4096,
        temperature: 1,
        signal,
      });
      for await (const delta of deltas) {
        got.content += delta.content ?? '';
        got.reasoning += delta.reasoning ?? '';
        sink({ message: delta.content ?? '', ...(delta.reasoning ? { reasoning: delta.reasoning } : {}) });
      }
    } catch (err) {
      if (signal.aborted) return this.stopped(charged, got, log);
      if (!(err instanceof ChatEngineError)) {
        await this.fail(charged, got, MSG.chatAnswerFailed, sink);
        throw err;
      }
      log.warn({ mid: answer.id, detail: err.detail, transient: err.transient }, 'chat answer failed');
      return this.fail(charged, got, err.message, sink);
    } finally {
      clearInterval(heartbeat);
    }
    if (!got.content.trim()) return this.fail(charged, got, MSG.chatEngineBadReply, sink);
    await chats.finishAnswer(answer.id, { status: ChatAnswerStatus.Done, ...got });
    sink({ message: '', done: 1 });
  }

  /** The browser went away: what arrived is kept (and paid for); nothing arrived, nothing is paid. */
  private async stopped(answer: AnswerRow, got: { content: string; reasoning: string }, log: FastifyBaseLogger): Promise<void> {
    log.info({ mid: answer.id, chars: got.content.length }, 'chat answer stopped by the browser');
    if (got.content) await new ChatRepository(this.db).finishAnswer(answer.id, { status: ChatAnswerStatus.Done, ...got });
    else await this.fail(answer, got, MSG.chatAnswerFailed, () => undefined);
  }

  /** A failed answer costs nothing: its charge (if any) is refunded in the same transaction that ends it. */
  private async fail(answer: AnswerRow, got: { content: string; reasoning: string }, error: string, sink: AnswerSink): Promise<void> {
    await this.db.tx(async (q) => {
      if (answer.spend_entry_id !== null) {
        await refundIn(q, {
          userId: answer.user_id, spendEntryId: answer.spend_entry_id, amount: LIMITS.chatAnswerCredits, action: '文案对话失败退回', key: `chat-answer:${answer.id}:failed`,
        });
      }
      await new ChatRepository(q).finishAnswer(answer.id, { status: ChatAnswerStatus.Failed, ...got, error });
    });
    sink({ message: '', error, done: 1 });
  }
}

function replay(answer: AnswerRow, sink: AnswerSink): void {
  sink({ message: answer.content, ...(answer.reasoning ? { reasoning: answer.reasoning } : {}) });
  sink({ message: '', done: 1, ...(answer.status === ChatAnswerStatus.Failed ? { error: answer.error || MSG.chatAnswerFailed } : {}) });
}

/**
 * Closes the answers a dead process left streaming: failed with what they had saved, their charge refunded, each in
 * the transaction that ends it. Run at start-up (every streaming answer is dead when this process holds the only
 * lock on the data, as with PGlite: `staleSeconds` 0) and every few minutes.
 */
export async function closeAbandonedAnswers(db: Db, staleSeconds = ABANDONED_AFTER_SECONDS): Promise<number> {
  return db.tx(async (q) => {
    const closed = await new ChatRepository(q).closeAbandoned(staleSeconds, MSG.chatAnswerInterrupted);
    for (const answer of closed) {
      if (answer.spend_entry_id === null) continue;
      await refundIn(q, {
        userId: answer.user_id, spendEntryId: answer.spend_entry_id, amount: LIMITS.chatAnswerCredits, action: '文案对话中断退回', key: `chat-answer:${answer.id}:failed`,
      });
    }
    return closed.length;
  });
}
