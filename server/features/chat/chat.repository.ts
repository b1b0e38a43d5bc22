/** Conversations and their messages (part 2 §3): every statement of the copy chat. */
import { ChatAnswerStatus, type ChatModel } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { AnswerMessages } from './answer-messages.repository';

export interface ConversationRow {
  id: number;
  title: string;
  created_at: Date;
}

export interface MessageRow {
  id: number;
  role: 'user' | 'assistant';
  content: string;
  reasoning: string;
  model: ChatModel;
  status: ChatAnswerStatus;
  created_at: Date;
}

/** An answer with what its stream needs: whose it is and what it cost. */
export interface AnswerRow extends MessageRow {
  conversation_id: number;
  user_id: number;
  spend_entry_id: number | null;
  error: string;
}

export class ChatRepository extends AnswerMessages {
  constructor(db: Queryable) {
    super(db, { messages: 'chat_messages', conversations: 'chat_conversations', reasoning: true });
  }

  async createConversation(userId: number, title: string): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO chat_conversations (user_id, title) VALUES ($1, $2) RETURNING id', [userId, title]);
    return rows[0]!.id;
  }

  async addMessage(m: { cid: number; role: 'user' | 'assistant'; content: string; model: ChatModel; status: ChatAnswerStatus }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      'INSERT INTO chat_messages (conversation_id, role, content, model, status) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [m.cid, m.role, m.content, m.model, m.status],
    );
    await this.db.query('UPDATE chat_conversations SET updated_at = now() WHERE id = $1', [m.cid]);
    return rows[0]!.id;
  }

  async listConversations(userId: number, page: { limit: number; offset: number }): Promise<{ rows: ConversationRow[]; total: number }> {
    const [{ rows }, count] = [
      await this.db.query<ConversationRow>(
        'SELECT id, title, created_at FROM chat_conversations WHERE user_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3',
        [userId, page.limit, page.offset],
      ),
      await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM chat_conversations WHERE user_id = $1', [userId]),
    ];
    return { rows, total: count.rows[0]!.n };
  }

  async deleteConversation(userId: number, cid: number): Promise<boolean> {
    const { rows } = await this.db.query('DELETE FROM chat_conversations WHERE id = $1 AND user_id = $2 RETURNING id', [cid, userId]);
    return rows.length > 0;
  }

  /**
   * Locks the user's conversation for the rest of the transaction (false when it is not theirs), so that two sends on
   * it are checked one after the other.
   */
  async lockConversation(userId: number, cid: number): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM chat_conversations WHERE id = $1 AND user_id = $2 FOR UPDATE', [cid, userId]);
    return rows.length > 0;
  }

  async ownsConversation(userId: number, cid: number): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM chat_conversations WHERE id = $1 AND user_id = $2', [cid, userId]);
    return rows.length > 0;
  }

  /** What the conversation shows. */
  async visibleMessages(cid: number): Promise<MessageRow[]> {
    return this.visible<MessageRow>(cid, 'id, role, content, reasoning, model, status, created_at');
  }

  /** The user's answer `mid` in conversation `cid`, or undefined when either is not theirs. */
  async answer(userId: number, cid: number, mid: number): Promise<AnswerRow | undefined> {
    return this.ownAnswer<AnswerRow>(userId, cid, mid, 'm.id, m.role, m.content, m.reasoning, m.model, m.status, m.created_at, m.conversation_id, c.user_id, m.spend_entry_id, m.error');
  }

  /** Ends answers left streaming by a dead process: failed with `error`; returns them for their refunds. */
  async closeAbandoned(staleSeconds: number, error: string): Promise<{ id: number; user_id: number; spend_entry_id: number | null }[]> {
    return this.closeStale<{ id: number; user_id: number; spend_entry_id: number | null }>(staleSeconds, error);
  }
}
