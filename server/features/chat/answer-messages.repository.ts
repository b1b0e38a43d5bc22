/**
 * What the copy chat and the employees' talk share about answers streamed into a messages table: the turns that go
 * upstream, the one stream that may relay an answer, its charge, and the answers a dead process left streaming.
 * Each feature's repository extends it with its own tables.
 */
import { ChatAnswerStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import type { AnswerText } from './answer-stream';

export interface AnswerTables {
  /** Holds role, content, status, error, spend_entry_id, stream_heartbeat_at and conversation_id. */
  messages: string;
  /** Holds user_id. */
  conversations: string;
  /** Whether the messages keep a reasoning column (the reasoning model's thoughts) beside the content. */
  reasoning: boolean;
}

export class AnswerMessages {
  constructor(
    protected readonly db: Queryable,
    private readonly tables: AnswerTables,
  ) {}

  /** The turns before an answer that go upstream: questions and finished answers, the newest `turns`, oldest first. */
  async turnsBefore(cid: number, mid: number, turns: number): Promise<{ role: 'user' | 'assistant'; content: string }[]> {
    const { rows } = await this.db.query<{ role: 'user' | 'assistant'; content: string }>(
      `SELECT role, content FROM (
         SELECT id, role, content FROM ${this.tables.messages}
          WHERE conversation_id = $1 AND id < $2 AND (role = 'user' OR (status = $3 AND content <> ''))
          ORDER BY id DESC LIMIT $4) recent
        ORDER BY id`,
      [cid, mid, ChatAnswerStatus.Done, turns],
    );
    return rows;
  }

  /**
   * Whether the conversation has an answer under way: streaming, or waiting for its stream for less than
   * `pendingSeconds` (a browser that never opened its stream does not block the conversation for ever).
   */
  async answerInProgress(cid: number, pendingSeconds: number): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM ${this.tables.messages}
        WHERE conversation_id = $1 AND role = 'assistant'
          AND (status = $2 OR (status = $3 AND created_at > now() - make_interval(secs => $4)))
        LIMIT 1`,
      [cid, ChatAnswerStatus.Streaming, ChatAnswerStatus.Pending, pendingSeconds],
    );
    return rows.length > 0;
  }

  /** Pending → streaming; false when another stream has it already (only one relays an answer). */
  async claimAnswer(mid: number): Promise<boolean> {
    const { rows } = await this.db.query(`UPDATE ${this.tables.messages} SET status = $2, stream_heartbeat_at = now() WHERE id = $1 AND status = $3 RETURNING id`, [
      mid, ChatAnswerStatus.Streaming, ChatAnswerStatus.Pending,
    ]);
    return rows.length > 0;
  }

  async setSpend(mid: number, spendEntryId: number): Promise<void> {
    await this.db.query(`UPDATE ${this.tables.messages} SET spend_entry_id = $2 WHERE id = $1`, [mid, spendEntryId]);
  }

  /** A streaming answer's progress: what it has so far, and that its stream is alive. */
  async saveProgress(mid: number, got: AnswerText): Promise<void> {
    await this.db.query(`UPDATE ${this.tables.messages} SET stream_heartbeat_at = now(), ${this.text(3)} WHERE id = $1 AND status = $2`, [
      mid, ChatAnswerStatus.Streaming, ...this.textValues(got),
    ]);
  }

  async finishAnswer(mid: number, end: AnswerText & { status: ChatAnswerStatus; error?: string }): Promise<void> {
    await this.db.query(`UPDATE ${this.tables.messages} SET status = $2, error = $3, ${this.text(4)} WHERE id = $1`, [
      mid, end.status, end.error ?? '', ...this.textValues(end),
    ]);
  }

  /** The text columns set from parameter `first` on (content, then the reasoning where it is kept), and their values. */
  private text(first: number): string {
    return this.tables.reasoning ? `content = $${first}, reasoning = $${first + 1}` : `content = $${first}`;
  }

  private textValues(got: AnswerText): string[] {
    return this.tables.reasoning ? [got.content, got.reasoning] : [got.content];
  }

  /** What a conversation shows (`columns` of its messages): every question, and every answer with text (a stopped or failed one too). */
  protected async visible<R>(cid: number, columns: string): Promise<R[]> {
    const { rows } = await this.db.query<R>(
      `SELECT ${columns} FROM ${this.tables.messages} WHERE conversation_id = $1 AND (role = 'user' OR content <> '') ORDER BY id`,
      [cid],
    );
    return rows;
  }

  /** The user's answer `mid` in conversation `cid` (`columns` of its message m and conversation c), or undefined when either is not theirs. */
  protected async ownAnswer<R>(userId: number, cid: number, mid: number, columns: string): Promise<R | undefined> {
    const { rows } = await this.db.query<R>(
      `SELECT ${columns} FROM ${this.tables.messages} m JOIN ${this.tables.conversations} c ON c.id = m.conversation_id
        WHERE m.id = $1 AND m.conversation_id = $2 AND c.user_id = $3 AND m.role = 'assistant'`,
      [mid, cid, userId],
    );
    return rows[0];
  }

  /**
   * Ends the answers left streaming by a process that died (no heartbeat for `staleSeconds`): failed with `error`,
   * keeping what they had saved. Answers whose charge is to be refunded (in the same transaction), with `extra`
   * columns of the message.
   */
  protected async closeStale<R extends { id: number; user_id: number; spend_entry_id: number | null }>(staleSeconds: number, error: string, extra = ''): Promise<R[]> {
    const { messages, conversations } = this.tables;
    const { rows } = await this.db.query<R>(
      `UPDATE ${messages} m SET status = $1, error = $2
         FROM ${conversations} c
        WHERE c.id = m.conversation_id AND m.status = $3
          AND COALESCE(m.stream_heartbeat_at, m.created_at) < now() - make_interval(secs => $4)
        RETURNING m.id, c.user_id, m.spend_entry_id${extra}`,
      [ChatAnswerStatus.Failed, error, ChatAnswerStatus.Streaming, staleSeconds],
    );
    return rows;
  }
}
