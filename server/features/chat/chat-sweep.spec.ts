/**
 * Answers a dead process left streaming (issue 13): closed with what they had saved and refunded — at start-up with
 * the embedded database (the data lock makes this process the only one, so every streaming answer is dead), and by
 * the recurring sweep once their heartbeat is old on PostgreSQL (where other live processes may be streaming).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { API, ChatAnswerStatus, LIMITS, MSG } from '../../../src/contract';
import { DB_KINDS, startApp, TEST_PASSWORD, type TestApp } from '../../../tests/support/app';
import { spendIn } from '../credits';
import { ChatRepository } from './chat.repository';
import { closeAbandonedAnswers } from './chat.service';

describe.each(DB_KINDS)('chat answers left streaming by a dead process (%s)', (kind) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
  });

  it('are closed with what they had and refunded; live ones are left alone', async () => {
    // On disk: a second app opens the same data once this one stops.
    const first = await startApp(kind, { pgliteImage: undefined });
    apps.push(first);
    const username = `1570000${kind === 'pglite' ? 1 : 2}901`;
    const a = await first.user(username, 100);
    await first.operator(API.admin.siteSet, { settings: { chat_base_url: 'http://127.0.0.1:9/v1', chat_api_key: 'sk-sweep-test' } });
    const sent = await a.call(API.chat.sendMessage, { content: '写一段开场白' });
    expect(sent.code, sent.msg).toBe(0);
    const { cid, mid } = sent.data as { cid: number; mid: number };

    // What a process leaves when it dies mid-answer: the answer claimed and paid for, its last saved progress.
    const db = first.app.ctx.db;
    const userId = await answerOwner(first, username);
    await db.tx(async (q) => {
      const chats = new ChatRepository(q);
      expect(await chats.claimAnswer(mid)).toBe(true);
      const spend = await spendIn(q, { userId, amount: LIMITS.chatAnswerCredits, action: '文案对话', key: `chat-answer:${mid}` });
      await chats.setSpend(mid, spend.entryId);
    });
    await new ChatRepository(db).saveProgress(mid, { content: '大家好，欢迎来到', reasoning: '' });
    expect((await a.call(API.account.credits, {})).data.credits).toBe(100 - LIMITS.chatAnswerCredits);

    // The process stops without finishing the answer; another starts on the same data.
    await first.app.close();
    const second = await startApp(kind, { dataDir: first.dataDir, databaseUrl: first.app.ctx.config.databaseUrl });
    apps.push(second);
    const again = await second.login(username, TEST_PASSWORD);
    const answer = async () => (await again.call(API.chat.messages, { cid })).data.list as { id: number; role: string; content: string }[];

    if (kind === 'postgres') {
      // Another API process may be streaming it: its heartbeat is fresh, so the start-up sweep leaves it.
      expect(await new ChatRepository(second.app.ctx.db).answer(userId, cid, mid)).toMatchObject({ status: ChatAnswerStatus.Streaming });
      await second.app.ctx.db.query('UPDATE chat_messages SET stream_heartbeat_at = now() - interval \'10 minutes\' WHERE id = $1', [mid]);
      expect(await closeAbandonedAnswers(second.app.ctx.db)).toBe(1);
    }
    const row = await new ChatRepository(second.app.ctx.db).answer(userId, cid, mid);
    expect(row).toMatchObject({ status: ChatAnswerStatus.Failed, content: '大家好，欢迎来到', error: MSG.chatAnswerInterrupted });
    expect((await answer()).map((m) => m.content)).toEqual(['写一段开场白', '大家好，欢迎来到']);
    expect((await again.call(API.account.credits, {})).data.credits).toBe(100);
    // A second sweep finds nothing and refunds nothing more.
    expect(await closeAbandonedAnswers(second.app.ctx.db, 0)).toBe(0);
    expect((await again.call(API.account.credits, {})).data.credits).toBe(100);
  });
});

/** The account's id, as the database knows it. */
async function answerOwner(t: TestApp, username: string): Promise<number> {
  const { rows } = await t.app.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
  return rows[0]!.id;
}
