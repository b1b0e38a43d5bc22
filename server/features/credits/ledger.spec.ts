import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DB_KINDS, useApp } from '../../../tests/support/app';
import { creditBalance, daysFromNow, grantCredits, InsufficientCreditsError, refundCredits, spendCredits } from './ledger';

describe.each(DB_KINDS)('credits ledger (%s)', (kind) => {
  const t = useApp(kind);
  let n = 0;
  const newUser = async (credits = 0) => t.createUser(`1330000${String(++n).padStart(4, '0')}`, 'abc123', credits);

  it('1,000 concurrent spends of 1 against 100: exactly 100 succeed, the rest are refused, the balance ends at 0', async () => {
    const userId = await newUser(100);
    const results = await Promise.allSettled(
      Array.from({ length: 1000 }, (_, i) => spendCredits(t.app.ctx.db, { userId, amount: 1, action: 'test', key: `k${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientCreditsError);
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(900);
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(0);
    const { rows } = await t.app.ctx.db.query<{ spent: number; allocated: number }>(
      `SELECT (SELECT SUM(amount) FROM credit_entries WHERE user_id = $1)::int AS spent,
              (SELECT SUM(a.amount) FROM credit_allocations a JOIN credit_entries e ON e.id = a.entry_id WHERE e.user_id = $1)::int AS allocated`,
      [userId],
    );
    expect(rows[0]).toEqual({ spent: 100, allocated: 100 });
  });

  it('one idempotency key sent 100 times at once charges once', async () => {
    const userId = await newUser(500);
    const results = await Promise.all(Array.from({ length: 100 }, () => spendCredits(t.app.ctx.db, { userId, amount: 7, action: 'test', key: 'same-key' })));
    expect(results.filter((r) => r.charged)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    expect(await creditBalance(t.app.ctx.db, userId)).toBe(493);
  });

  it('draws from the earliest-expiring batch first, ignores expired batches, and refunds to the same batches', async () => {
    const userId = await newUser();
    const db = t.app.ctx.db;
    const late = await grantCredits(db, { userId, amount: 50, expiresAt: daysFromNow(90), source: 'operator' });
    const early = await grantCredits(db, { userId, amount: 30, expiresAt: daysFromNow(10), source: 'operator' });
    await grantCredits(db, { userId, amount: 1000, expiresAt: new Date(Date.now() - 1000), source: 'operator' });
    expect(await creditBalance(db, userId)).toBe(80);
    const spend = await spendCredits(db, { userId, amount: 40, action: 'test', key: 'a' });
    const allocations = await db.query<{ batch_id: number; amount: number }>('SELECT batch_id, amount FROM credit_allocations WHERE entry_id = $1 ORDER BY batch_id', [spend.entryId]);
    expect(allocations.rows.map((r) => [r.batch_id, Number(r.amount)])).toEqual([[late, 10], [early, 30]].sort((a, b) => a[0]! - b[0]!));
    expect(await refundCredits(db, { userId, spendEntryId: spend.entryId, amount: 40, action: 'refund', key: 'r1' })).toBe(40);
    expect(await refundCredits(db, { userId, spendEntryId: spend.entryId, amount: 40, action: 'refund', key: 'r1' })).toBe(40);
    expect(await refundCredits(db, { userId, spendEntryId: spend.entryId, amount: 40, action: 'refund', key: 'r2' })).toBe(0);
    expect(await creditBalance(db, userId)).toBe(80);
    await expect(spendCredits(db, { userId, amount: 81, action: 'test', key: 'b' })).rejects.toBeInstanceOf(InsufficientCreditsError);
  });

  it('keeps its invariants over random grant / spend / refund / expire sequences (property-based)', async () => {
    const db = t.app.ctx.db;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 60 }), days: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ kind: fc.constant('spend' as const), amount: fc.integer({ min: 1, max: 80 }), key: fc.integer({ min: 0, max: 8 }) }),
      fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), amount: fc.integer({ min: 1, max: 80 }) }),
      fc.record({ kind: fc.constant('expire' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const userId = await newUser();
        const spends: number[] = [];
        const batches: number[] = [];
        let refundKey = 0;
        for (const o of ops) {
          if (o.kind === 'grant') batches.push(await grantCredits(db, { userId, amount: o.amount, expiresAt: daysFromNow(o.days), source: 'operator' }));
          if (o.kind === 'spend') {
            const before = await liveRemainders(userId);
            try {
              const r = await spendCredits(db, { userId, amount: o.amount, action: 'p', key: `s${o.key}` });
              if (r.charged) {
                spends.push(r.entryId);
                // Earliest expiry first: every live batch that expires before the latest one drawn was emptied.
                const drawn = await db.query<{ batch_id: number }>('SELECT batch_id FROM credit_allocations WHERE entry_id = $1', [r.entryId]);
                const drawnIds = new Set(drawn.rows.map((d) => d.batch_id));
                const latest = Math.max(...before.filter((b) => drawnIds.has(b.id)).map((b) => b.order));
                const after = await liveRemainders(userId);
                for (const b of after) if (b.order < latest) expect(b.remaining).toBe(0);
              }
            } catch (err) {
              expect(err).toBeInstanceOf(InsufficientCreditsError);
              expect(before.reduce((s, b) => s + b.remaining, 0)).toBeLessThan(o.amount);
            }
          }
          if (o.kind === 'refund' && spends.length) {
            const spendId = spends[o.pick % spends.length]!;
            const batchesOfSpend = new Set((await db.query<{ batch_id: number }>('SELECT batch_id FROM credit_allocations WHERE entry_id = $1', [spendId])).rows.map((r) => r.batch_id));
            await refundCredits(db, { userId, spendEntryId: spendId, amount: o.amount, action: 'r', key: `r${refundKey++}` });
            const back = await db.query<{ batch_id: number }>(
              `SELECT a.batch_id FROM credit_allocations a JOIN credit_entries e ON e.id = a.entry_id WHERE e.refund_of = $1`,
              [spendId],
            );
            for (const r of back.rows) expect(batchesOfSpend.has(r.batch_id)).toBe(true);
          }
          if (o.kind === 'expire' && batches.length) {
            await db.query(`UPDATE credit_batches SET expires_at = now() - interval '1 second' WHERE id = $1`, [batches[o.pick % batches.length]]);
          }
          // Invariants after every step.
          const all = await db.query<{ amount: number; remaining: number; live: boolean }>(
            `SELECT b.amount, (b.amount - COALESCE(SUM(a.amount), 0))::int AS remaining, b.expires_at > now() AS live
               FROM credit_batches b LEFT JOIN credit_allocations a ON a.batch_id = b.id WHERE b.user_id = $1 GROUP BY b.id`,
            [userId],
          );
          for (const b of all.rows) {
            expect(Number(b.remaining)).toBeGreaterThanOrEqual(0);
            expect(Number(b.remaining)).toBeLessThanOrEqual(Number(b.amount));
          }
          const balance = await creditBalance(db, userId);
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(balance).toBe(all.rows.filter((b) => b.live).reduce((s, b) => s + Number(b.remaining), 0));
        }
      }),
      { numRuns: kind === 'pglite' ? 25 : 40 },
    );
  });

  async function liveRemainders(userId: number): Promise<{ id: number; remaining: number; order: number }[]> {
    const { rows } = await t.app.ctx.db.query<{ id: number; remaining: number }>(
      `SELECT b.id, (b.amount - COALESCE(SUM(a.amount), 0))::int AS remaining
         FROM credit_batches b LEFT JOIN credit_allocations a ON a.batch_id = b.id
        WHERE b.user_id = $1 AND b.expires_at > now() GROUP BY b.id ORDER BY b.expires_at, b.id`,
      [userId],
    );
    return rows.map((r, order) => ({ id: r.id, remaining: Number(r.remaining), order }));
  }
});
