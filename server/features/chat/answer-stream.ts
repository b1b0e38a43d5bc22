/**
 * What the copy chat and the employees' talk share about a conversation's answer streams: an answer's stream claims
 * it and spends its credits in one transaction, relays the chat engine's streamed completion while saving what it
 * has, and settles: done keeps the charge; a failure, or a stop before any text, refunds it. A stop after some text
 * keeps what arrived and its charge.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ChatAnswerStatus, MSG, type ChatStreamEvent } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import type { Db, Queryable } from '../../infra/db';
import { ChatEngineError, OpenAiCompatibleChat, type ChatMessage, type ChatStreamOptions, type OpenAiCompatibleConfig } from '../../engines/chat';
import { InsufficientCreditsError, refundIn, spendIn } from '../credits';

/** A conversation is titled after the start of its first question. */
const TITLE_CHARS = 20;

export const conversationTitle = (firstQuestion: string) => [...firstQuestion.trim()].slice(0, TITLE_CHARS).join('');

/** A streaming answer saves what it has (and so shows it is alive) this often. */
const PROGRESS_MS = 5_000;
/**
 * An answer streaming without a heartbeat for this long was left by a process that died. Well above PROGRESS_MS;
 * with several API processes on one PostgreSQL, a live one's answers always beat more recently.
 */
export const ABANDONED_AFTER_SECONDS = 60;

/** Where the stream's events go: the route writes them to the browser. */
export type AnswerSink = (event: ChatStreamEvent) => void;

/** What an answer has so far; the reasoning stays empty where it is not kept. */
export interface AnswerText {
  content: string;
  reasoning: string;
}

/** An answer as its charge needs it: whose it is and its spend (null until it is paid). */
export interface ChargedAnswer {
  id: number;
  user_id: number;
  spend_entry_id: number | null;
}

/** An answer as its stream reads it. */
export interface StreamedAnswer extends ChargedAnswer {
  status: ChatAnswerStatus;
  content: string;
  reasoning?: string;
  error: string;
}

/** The statements a stream needs of a feature's messages. */
export interface AnswerStore<C extends ChargedAnswer> {
  claimAnswer(mid: number): Promise<boolean>;
  setSpend(mid: number, spendEntryId: number): Promise<void>;
  saveProgress(mid: number, got: AnswerText): Promise<void>;
  finishAnswer(mid: number, end: AnswerText & { status: ChatAnswerStatus; error?: string }): Promise<void>;
  closeAbandoned(staleSeconds: number, error: string): Promise<C[]>;
}

/** One feature's answers: where they are kept, what one costs and what the ledger says of it. */
export interface AnswerBook<C extends ChargedAnswer> {
  /** In the logs. */
  name: string;
  store(q: Queryable): AnswerStore<C>;
  /** 0: free, nothing is spent. */
  price(answer: C): number;
  /** The ledger's key for an answer's spend (its refund's is that and `:failed`), and its words for the three. */
  ledger: { key: (mid: number) => string; spend: string; failed: string; interrupted: string };
  /** Whether the reasoning model's thoughts are relayed and kept; otherwise only the answer's text is. */
  relaysReasoning: boolean;
}

/** What goes upstream for an answer, read once it is claimed and paid for. */
export interface AnswerRequest {
  messages: ChatMessage[];
  options: Omit<ChatStreamOptions, 'signal'>;
}

export class AnswerStreams<C extends ChargedAnswer> {
  constructor(
    private readonly db: Db,
    private readonly book: AnswerBook<C>,
  ) {}

  /**
   * Streams `answer` into `sink` until it ends or `signal` aborts (the browser went away). A finished answer is
   * replayed whole; an answer another stream is relaying is refused.
   */
  async stream<A extends C & StreamedAnswer>(
    answer: A | undefined,
    upstream: { engine: () => Promise<OpenAiCompatibleConfig | null>; request: (engine: OpenAiCompatibleConfig, answer: A) => Promise<AnswerRequest> },
    sink: AnswerSink,
    signal: AbortSignal,
    log: FastifyBaseLogger,
  ): Promise<void> {
    if (!answer) return sink({ message: '', error: MSG.chatNotFound, done: 1 });
    if (answer.status === ChatAnswerStatus.Done || answer.status === ChatAnswerStatus.Failed) return replay(answer, sink);
    const engine = await upstream.engine();
    if (!engine) return this.fail(answer, { content: '', reasoning: '' }, MSG.chatEngineMissing, sink);
    let charged: A | null;
    try {
      charged = await this.claim(answer);
    } catch (err) {
      if (err instanceof InsufficientCreditsError) return this.fail(answer, { content: '', reasoning: '' }, MSG.insufficientCredits, sink);
      throw err;
    }
    if (!charged) return sink({ message: '', error: MSG.chatAnswerBusy, done: 1 });

    const { messages, options } = await upstream.request(engine, answer);
    const store = this.book.store(this.db);
    const got: AnswerText = { content: '', reasoning: '' };
    const heartbeat = setInterval(() => void store.saveProgress(answer.id, got).catch(() => undefined), PROGRESS_MS);
    try {
      for await (const delta of new OpenAiCompatibleChat(engine).stream(messages, { ...options, signal })) {
        got.content += delta.content ?? '';
        if (this.book.relaysReasoning) {
          got.reasoning += delta.reasoning ?? '';
          sink({ message: delta.content ?? '', ...(delta.reasoning ? { reasoning: delta.reasoning } : {}) });
        } else if (delta.content) {
          sink({ message: delta.content });
        }
      }
    } catch (err) {
      if (signal.aborted) return this.stopped(charged, got, log);
      if (!(err instanceof ChatEngineError)) {
        await this.fail(charged, got, MSG.chatAnswerFailed, sink);
        throw err;
      }
      log.warn({ mid: answer.id, detail: err.detail, transient: err.transient }, `${this.book.name} answer failed`);
      return this.fail(charged, got, err.message, sink);
    } finally {
      clearInterval(heartbeat);
    }
    if (!got.content.trim()) return this.fail(charged, got, MSG.chatEngineBadReply, sink);
    await store.finishAnswer(answer.id, { status: ChatAnswerStatus.Done, ...got });
    sink({ message: '', done: 1 });
  }

  /** Claimed and paid for together: of two streams opened at once, one relays and pays, the other gets null. */
  private async claim<A extends C>(answer: A): Promise<A | null> {
    return this.db.tx(async (q) => {
      const store = this.book.store(q);
      if (!(await store.claimAnswer(answer.id))) return null;
      const amount = this.book.price(answer);
      if (amount === 0) return answer;
      const spend = await spendIn(q, { userId: answer.user_id, amount, action: this.book.ledger.spend, key: this.book.ledger.key(answer.id) });
      await store.setSpend(answer.id, spend.entryId);
      return { ...answer, spend_entry_id: spend.entryId };
    });
  }

  /** The browser went away: what arrived is kept (and paid for); nothing arrived, nothing is paid. */
  private async stopped(answer: C, got: AnswerText, log: FastifyBaseLogger): Promise<void> {
    log.info({ mid: answer.id, chars: got.content.length }, `${this.book.name} answer stopped by the browser`);
    if (got.content) await this.book.store(this.db).finishAnswer(answer.id, { status: ChatAnswerStatus.Done, ...got });
    else await this.fail(answer, got, MSG.chatAnswerFailed, () => undefined);
  }

  /** A failed answer costs nothing: its charge (if any) is refunded in the transaction that ends it. */
  private async fail(answer: C, got: AnswerText, error: string, sink: AnswerSink): Promise<void> {
    await this.db.tx(async (q) => {
      await this.refund(q, answer, this.book.ledger.failed);
      await this.book.store(q).finishAnswer(answer.id, { status: ChatAnswerStatus.Failed, ...got, error });
    });
    sink({ message: '', error, done: 1 });
  }

  private async refund(q: Queryable, answer: C, action: string): Promise<void> {
    if (answer.spend_entry_id === null) return;
    await refundIn(q, {
      userId: answer.user_id, spendEntryId: answer.spend_entry_id, amount: this.book.price(answer), action, key: `${this.book.ledger.key(answer.id)}:failed`,
    });
  }

  /**
   * Closes the answers a dead process left streaming: failed with what they had saved, their charge refunded, each in
   * the transaction that ends it. Run at start-up (every streaming answer is dead when this process holds the only
   * lock on the data, as with PGlite: `staleSeconds` 0) and every few minutes.
   */
  async closeAbandoned(staleSeconds = ABANDONED_AFTER_SECONDS): Promise<number> {
    return this.db.tx(async (q) => {
      const closed = await this.book.store(q).closeAbandoned(staleSeconds, MSG.chatAnswerInterrupted);
      for (const answer of closed) await this.refund(q, answer, this.book.ledger.interrupted);
      return closed.length;
    });
  }
}

/**
 * Closes `name`'s answers left streaming by a stopped process once the server is ready; with the embedded database
 * this process is the only one, so every streaming answer is such.
 */
export function closeAbandonedWhenReady(ctx: Pick<FeatureContext, 'app' | 'db'>, name: string, close: (db: Db, staleSeconds?: number) => Promise<number>): void {
  ctx.app.addHook('onReady', async () => {
    const closed = await close(ctx.db, ctx.db.kind === 'pglite' ? 0 : undefined);
    if (closed) ctx.app.log.warn({ closed }, `closed ${name} answers left streaming by a stopped process, refunded`);
  });
}

function replay(answer: StreamedAnswer, sink: AnswerSink): void {
  sink({ message: answer.content, ...(answer.reasoning ? { reasoning: answer.reasoning } : {}) });
  sink({ message: '', done: 1, ...(answer.status === ChatAnswerStatus.Failed ? { error: answer.error || MSG.chatAnswerFailed } : {}) });
}
