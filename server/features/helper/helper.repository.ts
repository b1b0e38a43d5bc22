/** The 超级助手's plans and their items: every SQL statement of the feature. Status numbers are the contract's. */
import { HelperItemStatus, HelperPlanStatus, type HelperStep } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface PlanRow {
  id: number;
  user_id: number;
  async: number;
  status: number;
  request: string;
  created_at: Date | string;
}

export interface ItemRow {
  id: number;
  plan_id: number;
  position: number;
  call_id: string;
  params: string;
  label: string;
  credits: number;
  status: number;
  result: string;
}

export interface ConversationRow {
  id: number;
  user_id: number;
  async: number;
  title: string;
  updated_at: Date | string;
}

export interface TurnRow {
  id: number;
  question: string;
  answer: string;
  steps: string;
  plan_id: number | null;
  error: string;
  created_at: Date | string;
}

/** A turn as the operating stream ends it. */
export interface NewTurn {
  question: string;
  answer: string;
  steps: HelperStep[];
  planId: number | null;
  error: string;
}

export interface NewItem {
  callId: string;
  params: unknown;
  label: string;
  credits: number;
}

export class HelperRepository {
  constructor(private readonly db: Queryable) {}

  async addPlan(userId: number, plan: { async: boolean; request: string; items: NewItem[] }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO helper_plans (user_id, async, request) VALUES ($1, $2, $3) RETURNING id', [
      userId, plan.async ? 1 : 0, plan.request,
    ]);
    const id = rows[0]!.id;
    for (const [position, item] of plan.items.entries()) {
      await this.db.query('INSERT INTO helper_items (plan_id, position, call_id, params, label, credits) VALUES ($1, $2, $3, $4, $5, $6)', [
        id, position, item.callId, JSON.stringify(item.params), item.label, item.credits,
      ]);
    }
    return id;
  }

  /** A plan of this user's (undefined for anyone else's). */
  async plan(userId: number, id: number): Promise<PlanRow | undefined> {
    const { rows } = await this.db.query<PlanRow>('SELECT * FROM helper_plans WHERE id = $1 AND user_id = $2', [id, userId]);
    return rows[0];
  }

  /** Plans of this user's among `ids` (a turn's plan, as it stands now). */
  async plansOf(userId: number, ids: number[]): Promise<PlanRow[]> {
    if (!ids.length) return [];
    const { rows } = await this.db.query<PlanRow>('SELECT * FROM helper_plans WHERE id = ANY($1::int[]) AND user_id = $2', [ids, userId]);
    return rows;
  }

  async planById(id: number): Promise<PlanRow | undefined> {
    const { rows } = await this.db.query<PlanRow>('SELECT * FROM helper_plans WHERE id = $1', [id]);
    return rows[0];
  }

  async items(planIds: number[]): Promise<ItemRow[]> {
    if (!planIds.length) return [];
    const { rows } = await this.db.query<ItemRow>('SELECT * FROM helper_items WHERE plan_id = ANY($1::int[]) ORDER BY plan_id, position', [planIds]);
    return rows;
  }

  /** My background tasks, latest first. */
  async asyncPlans(userId: number, limit: number): Promise<PlanRow[]> {
    const { rows } = await this.db.query<PlanRow>(
      `SELECT * FROM helper_plans WHERE user_id = $1 AND async = 1 AND status <> $2 ORDER BY id DESC LIMIT $3`,
      [userId, HelperPlanStatus.Awaiting, limit],
    );
    return rows;
  }

  /** Awaiting → running, once: of two confirmations at once, one wins. */
  async startPlan(id: number): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE helper_plans SET status = $2 WHERE id = $1 AND status = $3', [id, HelperPlanStatus.Running, HelperPlanStatus.Awaiting]);
    return rowCount > 0;
  }

  /** The next waiting item of a plan, claimed (running) so a retried job never runs it twice. */
  async claimNext(planId: number): Promise<ItemRow | undefined> {
    const { rows } = await this.db.query<ItemRow>(
      `UPDATE helper_items SET status = $2 WHERE id = (
         SELECT id FROM helper_items WHERE plan_id = $1 AND status = $3 ORDER BY position LIMIT 1
       ) AND status = $3 RETURNING *`,
      [planId, HelperItemStatus.Running, HelperItemStatus.Waiting],
    );
    return rows[0];
  }

  async finishItem(id: number, status: number, result: string): Promise<void> {
    await this.db.query('UPDATE helper_items SET status = $2, result = $3 WHERE id = $1', [id, status, result]);
  }

  /** Items a stopped process left running: failed, since whether their call ran is unknown. */
  async failRunning(planId: number, reason: string): Promise<void> {
    await this.db.query('UPDATE helper_items SET status = $2, result = $3 WHERE plan_id = $1 AND status = $4', [planId, HelperItemStatus.Failed, reason, HelperItemStatus.Running]);
  }

  /** Cancels the waiting items (one, or all); a plan left with nothing to run ends. Answers how many were cancelled. */
  async cancel(planId: number, itemId?: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE helper_items SET status = $2 WHERE plan_id = $1 AND status = $3 AND ($4::int IS NULL OR id = $4)`,
      [planId, HelperItemStatus.Cancelled, HelperItemStatus.Waiting, itemId ?? null],
    );
    // A plan not yet confirmed with nothing left to run is declined.
    await this.db.query(
      `UPDATE helper_plans SET status = $2 WHERE id = $1 AND status = $3 AND NOT EXISTS (SELECT 1 FROM helper_items WHERE plan_id = $1 AND status = $4)`,
      [planId, HelperPlanStatus.Cancelled, HelperPlanStatus.Awaiting, HelperItemStatus.Waiting],
    );
    await this.endIfSettled(planId);
    return rowCount;
  }

  /** A running plan whose items all ended is done. */
  async endIfSettled(planId: number): Promise<void> {
    await this.db.query(
      `UPDATE helper_plans SET status = $2 WHERE id = $1 AND status = $3
         AND NOT EXISTS (SELECT 1 FROM helper_items WHERE plan_id = $1 AND status IN ($4, $5))`,
      [planId, HelperPlanStatus.Done, HelperPlanStatus.Running, HelperItemStatus.Waiting, HelperItemStatus.Running],
    );
  }

  // ---- history: my past conversations and their turns

  async addConversation(userId: number, async: boolean, title: string): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO helper_conversations (user_id, async, title) VALUES ($1, $2, $3) RETURNING id', [userId, async ? 1 : 0, title]);
    return rows[0]!.id;
  }

  /** A conversation of this user's on this screen (undefined for anyone else's). */
  async conversation(userId: number, id: number, async?: boolean): Promise<ConversationRow | undefined> {
    const { rows } = await this.db.query<ConversationRow>(
      'SELECT * FROM helper_conversations WHERE id = $1 AND user_id = $2 AND ($3::smallint IS NULL OR async = $3)',
      [id, userId, async === undefined ? null : async ? 1 : 0],
    );
    return rows[0];
  }

  async conversations(userId: number, async: boolean, limit: number): Promise<ConversationRow[]> {
    const { rows } = await this.db.query<ConversationRow>(
      'SELECT * FROM helper_conversations WHERE user_id = $1 AND async = $2 ORDER BY updated_at DESC, id DESC LIMIT $3',
      [userId, async ? 1 : 0, limit],
    );
    return rows;
  }

  async removeConversation(userId: number, id: number): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM helper_conversations WHERE id = $1 AND user_id = $2', [id, userId]);
    return rowCount > 0;
  }

  /** The last `limit` turns (all without), oldest first. */
  async turns(conversationId: number, limit?: number): Promise<TurnRow[]> {
    const { rows } = await this.db.query<TurnRow>(
      'SELECT * FROM (SELECT * FROM helper_turns WHERE conversation_id = $1 ORDER BY id DESC LIMIT $2) t ORDER BY id',
      [conversationId, limit ?? null],
    );
    return rows;
  }

  async addTurn(conversationId: number, turn: NewTurn): Promise<void> {
    await this.db.query('INSERT INTO helper_turns (conversation_id, question, answer, steps, plan_id, error) VALUES ($1, $2, $3, $4, $5, $6)', [
      conversationId, turn.question, turn.answer, JSON.stringify(turn.steps), turn.planId, turn.error,
    ]);
    await this.db.query('UPDATE helper_conversations SET updated_at = now() WHERE id = $1', [conversationId]);
  }
}
