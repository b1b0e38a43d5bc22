import { randomBytes } from 'node:crypto';
import { API, LIMITS, MSG } from '../../../src/contract';
import { ApiError, type SessionUser } from '../../infra/http';
import { hashPassword } from '../../infra/passwords';
import { formatDateTime } from '../../infra/time';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { creditBalance, daysFromNow, grantCredits, InsufficientCreditsError, spendIn } from './ledger';

const MB = 1024 * 1024;
const GUEST_CREDITS_DAYS = 30;
const GUESTS_PER_IP_PER_HOUR = 10;

/** Names shown in the usage list for grants, by batch source. */
const GRANT_NAMES: Record<string, string> = { code: '兑换码兑换', operator: '系统赠送', guest: '游客体验赠送' };

/** China time (UTC+8) calendar day of a timestamp, in SQL. */
const CST_DAY = (col: string) => `((${col} AT TIME ZONE 'UTC') + interval '8 hours')::date`;

export async function spaceOf(q: Queryable, userId: number, settings: FeatureContext['settings']) {
  const { rows } = await q.query<{ used: string; extra: number; is_tourist: number }>(
    `SELECT COALESCE((SELECT SUM(size) FROM files WHERE user_id = u.id), 0)::bigint AS used, u.space_extra_gb AS extra, u.is_tourist
       FROM users u WHERE u.id = $1`,
    [userId],
  );
  const row = rows[0]!;
  const totalGb = (await settings.operatorNumber('space_base_gb')) + Number(row.extra);
  const maxGb = await settings.operatorNumber('space_max_gb');
  return {
    used: Math.round((Number(row.used) / MB) * 100) / 100,
    total: totalGb * 1024,
    total_format: `${totalGb}GB`,
    can_expand: (Number(row.is_tourist) === 0 && totalGb + LIMITS.spaceExpandGb <= maxGb ? 1 : 0) as 0 | 1,
  };
}

export function registerCreditsRoutes({ router, db, sessions, settings }: FeatureContext): void {
  /** Claims a code atomically: of any number of concurrent attempts, exactly one gets it. */
  async function claimCode(q: Queryable, raw: string): Promise<{ credits: number; expires_at: Date; code: string }> {
    const code = raw.trim().toUpperCase();
    const { rows } = await q.query<{ credits: number; expires_at: Date }>(
      `UPDATE redeem_codes SET used_at = now() WHERE code = $1 AND used_at IS NULL AND expires_at > now() RETURNING credits, expires_at`,
      [code],
    );
    if (rows[0]) return { ...rows[0], credits: Number(rows[0].credits), code };
    const { rows: known } = await q.query<{ expired: boolean }>('SELECT expires_at <= now() AS expired FROM redeem_codes WHERE code = $1 AND used_at IS NULL', [code]);
    throw new ApiError(known[0]?.expired ? MSG.codeExpired : MSG.codeInvalid);
  }

  async function redeemInto(q: Queryable, userId: number, claimed: { credits: number; expires_at: Date; code: string }) {
    await q.query('UPDATE redeem_codes SET used_by = $1 WHERE code = $2', [userId, claimed.code]);
    await grantCredits(q, { userId, amount: claimed.credits, expiresAt: claimed.expires_at, source: 'code', sourceRef: claimed.code });
  }

  router.handle(API.credits.cdkey, async ({ params, user, ip }) => {
    if (params.username !== undefined && params.password !== undefined) {
      const hash = await hashPassword(params.password);
      return db.tx(async (q) => {
        const claimed = await claimCode(q, params.code);
        const guest = user?.is_tourist === 1 ? user : null;
        let userId: number;
        if (guest) {
          // A guest who registers becomes that account, keeping everything it made.
          const { rows } = await q.query<{ id: number }>(
            `UPDATE users SET username = $1, password_hash = $2, is_tourist = 0
              WHERE id = $3 AND NOT EXISTS (SELECT 1 FROM users WHERE username = $1) RETURNING id`,
            [params.username, hash, guest.id],
          );
          if (!rows[0]) throw new ApiError(MSG.usernameTaken);
          userId = rows[0].id;
          await sessions.revokeAll(q, userId);
        } else {
          const { rows } = await q.query<{ id: number }>(
            `INSERT INTO users (username, password_hash, created_ip) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING RETURNING id`,
            [params.username, hash, ip],
          );
          if (!rows[0]) throw new ApiError(MSG.usernameTaken);
          userId = rows[0].id;
        }
        await redeemInto(q, userId, claimed);
        return { credits: claimed.credits, token: await sessions.create(q, userId, ip) };
      });
    }
    if (!user) throw new ApiError(MSG.sessionExpired, 100);
    if (user.is_tourist === 1) throw new ApiError(MSG.guestCannotRedeem);
    return db.tx(async (q) => {
      const claimed = await claimCode(q, params.code);
      await redeemInto(q, user.id, claimed);
      return { credits: claimed.credits };
    });
  });

  router.handle(API.credits.tourist, async ({ ip }) => {
    const grant = await settings.operatorNumber('guest_credits');
    if (grant <= 0) throw new ApiError(MSG.guestDisabled);
    const hash = await hashPassword(randomBytes(18).toString('base64url'));
    return db.tx(async (q) => {
      const { rows: recent } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users WHERE is_tourist = 1 AND created_ip = $1 AND created_at > now() - interval '1 hour'`,
        [ip],
      );
      if (recent[0]!.n >= GUESTS_PER_IP_PER_HOUR) throw new ApiError(MSG.guestLimit);
      const username = `游客${randomBytes(4).toString('hex').toUpperCase()}`;
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO users (username, password_hash, is_tourist, created_ip) VALUES ($1, $2, 1, $3) RETURNING id`,
        [username, hash, ip],
      );
      const userId = rows[0]!.id;
      await grantCredits(q, { userId, amount: grant, expiresAt: daysFromNow(GUEST_CREDITS_DAYS), source: 'guest' });
      return { token: await sessions.create(q, userId, ip) };
    });
  });

  router.handle(API.credits.space, async ({ user }) => spaceOf(db, user.id, settings));

  router.handle(API.credits.spaceExpand, async ({ user }: { user: SessionUser }) => {
    if (user.is_tourist === 1) throw new ApiError(MSG.guestCannotExpand);
    const maxGb = await settings.operatorNumber('space_max_gb');
    const baseGb = await settings.operatorNumber('space_base_gb');
    await db.tx(async (q) => {
      const { rows } = await q.query<{ extra: number }>('SELECT space_extra_gb AS extra FROM users WHERE id = $1 FOR UPDATE', [user.id]);
      const extra = Number(rows[0]!.extra);
      if (baseGb + extra + LIMITS.spaceExpandGb > maxGb) throw new ApiError(MSG.spaceExpandAtLimit);
      try {
        // The key names the step, so a repeated request for the same step is charged once.
        await spendIn(q, { userId: user.id, amount: LIMITS.spaceExpandCredits, action: `空间扩容${LIMITS.spaceExpandGb}GB`, key: `space-expand:${extra + LIMITS.spaceExpandGb}` });
      } catch (err) {
        if (err instanceof InsufficientCreditsError) throw new ApiError(MSG.insufficientCredits);
        throw err;
      }
      await q.query('UPDATE users SET space_extra_gb = $1 WHERE id = $2', [extra + LIMITS.spaceExpandGb, user.id]);
    });
    return spaceOf(db, user.id, settings);
  });

  router.handle(API.credits.log, async ({ params, user }) => {
    const filters: string[] = [];
    const args: unknown[] = [user.id];
    if (params.start) {
      args.push(params.start);
      filters.push(`day >= $${args.length}::date`);
    }
    if (params.end) {
      args.push(params.end);
      filters.push(`day <= $${args.length}::date`);
    }
    const where = filters.length ? `WHERE ${filters.join(' AND ')}` : '';
    const grantName = `CASE b.source ${Object.entries(GRANT_NAMES).map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} ELSE '积分发放' END`;
    const union = `
      SELECT e.action_name, e.created_at, CASE e.kind WHEN 'spend' THEN -e.amount ELSE e.amount END AS credits, ${CST_DAY('e.created_at')} AS day, e.id AS ord
        FROM credit_entries e WHERE e.user_id = $1
      UNION ALL
      SELECT ${grantName}, b.created_at, b.amount, ${CST_DAY('b.created_at')}, -b.id
        FROM credit_batches b WHERE b.user_id = $1`;
    const { rows: count } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${union}) x ${where}`, args);
    const limit = params.limit > 0 ? params.limit : 20;
    const offset = (Math.max(params.page, 1) - 1) * limit;
    const { rows } = await db.query<{ action_name: string; created_at: Date; credits: number }>(
      `SELECT action_name, created_at, credits FROM (${union}) x ${where} ORDER BY created_at DESC, ord DESC LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return {
      list: rows.map((r) => ({ action_name: r.action_name, create_time: formatDateTime(r.created_at), credits: Number(r.credits) })),
      total: count[0]!.n,
    };
  });

  router.handle(API.credits.daily, async ({ params, user }) => {
    if ((Date.parse(params.end) - Date.parse(params.start)) / 86_400_000 > 366) throw new ApiError('日期范围不能超过一年');
    const { rows } = await db.query<{ day: string; spent: number }>(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(SUM(CASE e.kind WHEN 'spend' THEN e.amount ELSE -e.amount END), 0)::int AS spent
         FROM generate_series($2::date, $3::date, interval '1 day') AS d(day)
         LEFT JOIN credit_entries e ON e.user_id = $1 AND ${CST_DAY('e.created_at')} = d.day::date
        GROUP BY d.day ORDER BY d.day`,
      [user.id, params.start, params.end],
    );
    return { list: rows.map((r) => ({ date: r.day, spent: Math.max(0, Number(r.spent)) })) };
  });

  router.handle(API.credits.expiry, async ({ user }) => {
    const { rows } = await db.query<{ expires_at: Date; remaining: number }>(
      `SELECT b.expires_at, (b.amount - COALESCE(SUM(a.amount), 0))::int AS remaining
         FROM credit_batches b LEFT JOIN credit_allocations a ON a.batch_id = b.id
        WHERE b.user_id = $1 AND b.expires_at > now()
        GROUP BY b.id HAVING b.amount - COALESCE(SUM(a.amount), 0) > 0
        ORDER BY b.expires_at, b.id`,
      [user.id],
    );
    const details = rows.map((r) => ({ expire_time: formatDateTime(r.expires_at), credits: Number(r.remaining) }));
    return { details, total: details.reduce((s, d) => s + d.credits, 0) };
  });

  router.handle(API.credits.rule, async () => ({ content: (await settings.all()).credits_rule ?? '' }));
}

export { creditBalance };
