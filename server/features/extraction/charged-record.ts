/**
 * The charge of a record read by a job, which the operator's free daily extractions may pay for (video, audio and
 * copy extraction; super replica's analyses are always paid): at submit, in one transaction, the record is added free while the user's free count for it lasts
 * today, else charged, and its job queued; when it fails for good, its credits or its free count are given back once.
 */
import type { FeatureContext } from '../../app-context';
import type { Queryable } from '../../infra/db';
import { refundIn, spendOrRefuse } from '../credits';

/** Free extractions a day for each kind (operator setting extraction_free_daily; 0 when unset). */
export async function freeDaily(ctx: FeatureContext): Promise<number> {
  return Math.max(0, Math.floor(await ctx.settings.operatorNumber('extraction_free_daily')));
}

export interface ChargedRecord {
  userId: number;
  credits: number;
  /** The ledger's action (失败退回 is added to the refund's). */
  action: string;
  /** The ledger key of the record's charge; its refund's is `${key}:failed`. */
  key: (id: number) => string;
}

/**
 * Adds the record (`add` answers its id), charges it unless a free extraction pays, queues its job; answers the id.
 * `usedToday` counts the user's free records of this kind today and locks that count until the transaction ends.
 */
export async function addCharged(
  ctx: FeatureContext,
  c: ChargedRecord,
  steps: {
    /** Absent for a record no free extraction pays for (super replica's analyses). */
    usedToday?: (q: Queryable) => Promise<number>;
    add: (q: Queryable, free: boolean) => Promise<number>;
    setSpend: (q: Queryable, id: number, entryId: number) => Promise<void>;
    queue: (q: Queryable, id: number) => Promise<unknown>;
  },
): Promise<number> {
  const { usedToday } = steps;
  const daily = usedToday ? await freeDaily(ctx) : 0;
  return await ctx.db.tx(async (q) => {
    const free = daily > 0 && (await usedToday!(q)) < daily;
    const id = await steps.add(q, free);
    if (!free) await steps.setSpend(q, id, (await spendOrRefuse(q, { userId: c.userId, amount: c.credits, action: c.action, key: c.key(id) })).entryId);
    await steps.queue(q, id);
    return id;
  });
}

/** Fails the record (`fail` answers it when it was still open) and refunds its charge, once. */
export async function failCharged(
  ctx: FeatureContext,
  c: Omit<ChargedRecord, 'userId'> & { id: number },
  fail: (q: Queryable) => Promise<{ user_id: number; spend_entry_id: number | null } | undefined>,
): Promise<void> {
  await ctx.db.tx(async (q) => {
    const failed = await fail(q);
    if (!failed || failed.spend_entry_id === null) return;
    await refundIn(q, { userId: failed.user_id, spendEntryId: failed.spend_entry_id, amount: c.credits, action: `${c.action}失败退回`, key: `${c.key(c.id)}:failed` });
  });
}
