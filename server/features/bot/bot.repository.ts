/** Bots, employments, conversations and their messages (issue 32): every statement of the super employee. */
import { ChatAnswerStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { AnswerMessages } from '../chat';

/** A bot with what its card shows; the prompt is read apart, only by the answer stream. */
export interface BotRow {
  id: number;
  type: string;
  name: string;
  description: string;
  avatar_key: string;
  avatar_id: number | null;
  /** The public avatar's cover and looping video ('' for a picture). */
  cover_key: string;
  loop_key: string;
  voice_id: number | null;
  welcome: string;
  credits: number;
  mouth: string;
}

export interface NewBot {
  type: string;
  name: string;
  description: string;
  avatarKey: string;
  avatarId: number | null;
  voiceId: number | null;
  welcome: string;
  prompt: string;
  credits: number;
  mouth: string;
}

export interface BotMessageRow {
  id: number;
  conversation_id: number;
  role: 'user' | 'assistant';
  content: string;
  status: ChatAnswerStatus;
  error: string;
  created_at: Date;
}

/** An answer with what its stream needs: whose it is, its bot, and what it cost. */
export interface BotAnswerRow extends BotMessageRow {
  user_id: number;
  bot_id: number;
  credits: number;
  spend_entry_id: number | null;
}

const BOT_COLUMNS = `b.id, b.type, b.name, b.description, b.avatar_key, b.avatar_id, COALESCE(a.cover_key, '') AS cover_key,
  COALESCE(a.loop_key, '') AS loop_key, b.voice_id, b.welcome, b.credits, b.mouth`;
const BOT_FROM = 'bots b LEFT JOIN avatars a ON a.id = b.avatar_id';

const COLUMNS: Record<keyof NewBot, string> = {
  type: 'type', name: 'name', description: 'description', avatarKey: 'avatar_key', avatarId: 'avatar_id', voiceId: 'voice_id',
  welcome: 'welcome', prompt: 'prompt', credits: 'credits', mouth: 'mouth',
};

export class BotRepository extends AnswerMessages {
  constructor(db: Queryable) {
    super(db, { messages: 'bot_messages', conversations: 'bot_conversations', reasoning: false });
  }

  // ---- the operator's bots

  async add(b: NewBot): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      `INSERT INTO bots (type, name, description, avatar_key, avatar_id, voice_id, welcome, prompt, credits, mouth)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [b.type, b.name, b.description, b.avatarKey, b.avatarId, b.voiceId, b.welcome, b.prompt, b.credits, b.mouth],
    );
    return rows[0]!.id;
  }

  /** Sets the given fields of a live bot; false when there is none. */
  async update(id: number, set: Partial<NewBot>): Promise<boolean> {
    const keys = (Object.keys(COLUMNS) as (keyof NewBot)[]).filter((k) => set[k] !== undefined);
    const assignments = ['type = type', ...keys.map((k, i) => `${COLUMNS[k]} = $${i + 2}`)];
    const { rows } = await this.db.query(`UPDATE bots SET ${assignments.join(', ')} WHERE id = $1 AND removed_at IS NULL RETURNING id`, [
      id, ...keys.map((k) => set[k]),
    ]);
    return rows.length > 0;
  }

  async remove(id: number): Promise<boolean> {
    const { rows } = await this.db.query('UPDATE bots SET removed_at = now() WHERE id = $1 AND removed_at IS NULL RETURNING id', [id]);
    return rows.length > 0;
  }

  async nameTaken(name: string, except = 0): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM bots WHERE name = $1 AND removed_at IS NULL AND id <> $2', [name, except]);
    return rows.length > 0;
  }

  /** Every live bot, with the length of its prompt and how many employed it. */
  async adminList(): Promise<(BotRow & { prompt_chars: number; employees: number })[]> {
    const { rows } = await this.db.query<BotRow & { prompt_chars: number; employees: number }>(
      `SELECT ${BOT_COLUMNS}, char_length(b.prompt)::int AS prompt_chars,
              (SELECT count(*)::int FROM bot_employees e WHERE e.bot_id = b.id) AS employees
         FROM ${BOT_FROM} WHERE b.removed_at IS NULL ORDER BY b.id`,
    );
    return rows;
  }

  // ---- the catalogue and my employees

  async types(): Promise<{ name: string; count: number }[]> {
    const { rows } = await this.db.query<{ name: string; count: number }>(
      'SELECT type AS name, count(*)::int AS count FROM bots WHERE removed_at IS NULL GROUP BY type ORDER BY min(id)',
    );
    return rows;
  }

  async catalogue(userId: number, type: string | undefined): Promise<(BotRow & { employed: boolean })[]> {
    const { rows } = await this.db.query<BotRow & { employed: boolean }>(
      `SELECT ${BOT_COLUMNS}, EXISTS (SELECT 1 FROM bot_employees e WHERE e.bot_id = b.id AND e.user_id = $1) AS employed
         FROM ${BOT_FROM} WHERE b.removed_at IS NULL AND ($2::text IS NULL OR b.type = $2) ORDER BY b.id`,
      [userId, type ?? null],
    );
    return rows;
  }

  /** My employees, latest talked to (or employed) first, each with my latest conversation and its last shown message. */
  async employees(userId: number): Promise<(BotRow & { cid: number; last_message: string })[]> {
    const { rows } = await this.db.query<BotRow & { cid: number; last_message: string }>(
      `SELECT ${BOT_COLUMNS}, COALESCE(c.id, 0) AS cid, COALESCE(m.content, '') AS last_message
         FROM bot_employees e JOIN ${BOT_FROM} ON b.id = e.bot_id
         LEFT JOIN LATERAL (SELECT id, updated_at FROM bot_conversations
                             WHERE user_id = e.user_id AND bot_id = b.id ORDER BY updated_at DESC, id DESC LIMIT 1) c ON true
         LEFT JOIN LATERAL (SELECT content FROM bot_messages
                             WHERE conversation_id = c.id AND content <> '' ORDER BY id DESC LIMIT 1) m ON true
        WHERE e.user_id = $1 AND b.removed_at IS NULL
        ORDER BY GREATEST(e.created_at, COALESCE(c.updated_at, e.created_at)) DESC, b.id DESC`,
      [userId],
    );
    return rows;
  }

  async live(id: number): Promise<BotRow | undefined> {
    const { rows } = await this.db.query<BotRow>(`SELECT ${BOT_COLUMNS} FROM ${BOT_FROM} WHERE b.id = $1 AND b.removed_at IS NULL`, [id]);
    return rows[0];
  }

  /** Joins my employees; employing twice changes nothing. */
  async employ(userId: number, botId: number): Promise<void> {
    await this.db.query('INSERT INTO bot_employees (user_id, bot_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, botId]);
  }

  async isEmployed(userId: number, botId: number): Promise<boolean> {
    const { rows } = await this.db.query(
      'SELECT 1 FROM bot_employees e JOIN bots b ON b.id = e.bot_id WHERE e.user_id = $1 AND e.bot_id = $2 AND b.removed_at IS NULL',
      [userId, botId],
    );
    return rows.length > 0;
  }

  /** What the answer is told first: the bot's prompt (read here only, never answered). */
  async prompt(botId: number): Promise<string> {
    const { rows } = await this.db.query<{ prompt: string }>('SELECT prompt FROM bots WHERE id = $1', [botId]);
    return rows[0]?.prompt ?? '';
  }

  // ---- conversations

  async createConversation(userId: number, botId: number, title: string): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO bot_conversations (user_id, bot_id, title) VALUES ($1, $2, $3) RETURNING id', [
      userId, botId, title,
    ]);
    return rows[0]!.id;
  }

  /** Locks my conversation with this bot for the rest of the transaction (false when it is not mine or not with it). */
  async lockConversation(userId: number, botId: number, cid: number): Promise<boolean> {
    const { rows } = await this.db.query('SELECT 1 FROM bot_conversations WHERE id = $1 AND user_id = $2 AND bot_id = $3 FOR UPDATE', [cid, userId, botId]);
    return rows.length > 0;
  }

  async addMessage(m: { cid: number; role: 'user' | 'assistant'; content: string; status: ChatAnswerStatus; credits?: number }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>(
      'INSERT INTO bot_messages (conversation_id, role, content, status, credits) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [m.cid, m.role, m.content, m.status, m.credits ?? 0],
    );
    await this.db.query('UPDATE bot_conversations SET updated_at = now() WHERE id = $1', [m.cid]);
    return rows[0]!.id;
  }

  async listConversations(userId: number, f: { botId?: number; limit: number; offset: number }) {
    const where = 'c.user_id = $1 AND ($2::int IS NULL OR c.bot_id = $2)';
    const { rows } = await this.db.query<{ id: number; bot_id: number; bot_name: string; title: string; last_message: string; created_at: Date; updated_at: Date }>(
      `SELECT c.id, c.bot_id, b.name AS bot_name, c.title, c.created_at, c.updated_at,
              COALESCE((SELECT content FROM bot_messages WHERE conversation_id = c.id AND content <> '' ORDER BY id DESC LIMIT 1), '') AS last_message
         FROM bot_conversations c JOIN bots b ON b.id = c.bot_id
        WHERE ${where} ORDER BY c.updated_at DESC, c.id DESC LIMIT $3 OFFSET $4`,
      [userId, f.botId ?? null, f.limit, f.offset],
    );
    const count = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bot_conversations c WHERE ${where}`, [userId, f.botId ?? null]);
    return { rows, total: count.rows[0]!.n };
  }

  /** My conversation's bot, or undefined when it is not mine. */
  async conversationBot(userId: number, cid: number): Promise<number | undefined> {
    const { rows } = await this.db.query<{ bot_id: number }>('SELECT bot_id FROM bot_conversations WHERE id = $1 AND user_id = $2', [cid, userId]);
    return rows[0]?.bot_id;
  }

  /** What the conversation shows. */
  async visibleMessages(cid: number): Promise<BotMessageRow[]> {
    return this.visible<BotMessageRow>(cid, 'id, conversation_id, role, content, status, error, created_at');
  }

  /** My answer `mid`'s bot (any status), or undefined when it is not mine. */
  async answerBot(userId: number, mid: number): Promise<{ bot_id: number; content: string; status: number } | undefined> {
    const { rows } = await this.db.query<{ bot_id: number; content: string; status: number }>(
      `SELECT c.bot_id, m.content, m.status FROM bot_messages m JOIN bot_conversations c ON c.id = m.conversation_id WHERE m.id = $1 AND c.user_id = $2 AND m.role = 'assistant'`,
      [mid, userId],
    );
    return rows[0];
  }

  /** A bot as its conversations know it, removed or not. */
  async any(id: number): Promise<BotRow | undefined> {
    const { rows } = await this.db.query<BotRow>(`SELECT ${BOT_COLUMNS} FROM ${BOT_FROM} WHERE b.id = $1`, [id]);
    return rows[0];
  }

  /** One of my messages, with its conversation's bot. */
  async message(userId: number, mid: number): Promise<(BotMessageRow & { bot_id: number }) | undefined> {
    const { rows } = await this.db.query<BotMessageRow & { bot_id: number }>(
      `SELECT m.id, m.conversation_id, m.role, m.content, m.status, m.error, m.created_at, c.bot_id
         FROM bot_messages m JOIN bot_conversations c ON c.id = m.conversation_id WHERE m.id = $1 AND c.user_id = $2`,
      [mid, userId],
    );
    return rows[0];
  }

  async answer(userId: number, cid: number, mid: number): Promise<BotAnswerRow | undefined> {
    return this.ownAnswer<BotAnswerRow>(userId, cid, mid, 'm.id, m.conversation_id, m.role, m.content, m.status, m.error, m.created_at, c.user_id, c.bot_id, m.credits, m.spend_entry_id');
  }

  /** Ends answers left streaming by a dead process: failed with `error`; returns them for their refunds. */
  async closeAbandoned(staleSeconds: number, error: string): Promise<{ id: number; user_id: number; credits: number; spend_entry_id: number | null }[]> {
    return this.closeStale<{ id: number; user_id: number; credits: number; spend_entry_id: number | null }>(staleSeconds, error, ', m.credits');
  }
}
