/**
 * Credits' SQL beyond the ledger (ledger.ts): redemption codes, the accounts that registration and guests
 * create, bought space, and the usage list and daily chart.
 */
import type { Queryable } from '../../infra/db';

/** Names shown in the usage list for grants, by batch source. */
const GRANT_NAMES: Record<string, string> = { code: '兑换码兑换', operator: '系统赠送', guest: '游客体验赠送' };

/** China time (UTC+8) calendar day of a timestamp, in SQL. */
const CST_DAY = (col: string) => `((${col} AT TIME ZONE 'UTC') + interval '8 hours')::date`;

export interface ClaimedCode {
  code: string;
  credits: number;
  expires_at: Date;
}

export interface SpaceRow {
  /** Bytes of the user's files. */
  used: number;
  extraGb: number;
  isTourist: boolean;
}

export interface UsageRow {
  action_name: string;
  created_at: Date;
  credits: number;
}

export class CreditsRepository {
  constructor(private readonly db: Queryable) {}

  // ---- redemption codes

  /** Adds a code unless it exists already; true when it was added. */
  async addCode(code: string, credits: number, expiresAt: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'INSERT INTO redeem_codes (code, credits, expires_at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING',
      [code, credits, expiresAt],
    );
    return rowCount === 1;
  }

  /** Marks a live unused code used, atomically: of any number of concurrent claims, exactly one gets it. */
  async claimCode(code: string): Promise<ClaimedCode | null> {
    const { rows } = await this.db.query<{ credits: number; expires_at: Date }>(
      'UPDATE redeem_codes SET used_at = now() WHERE code = $1 AND used_at IS NULL AND expires_at > now() RETURNING credits, expires_at',
      [code],
    );
    return rows[0] ? { code, credits: Number(rows[0].credits), expires_at: rows[0].expires_at } : null;
  }

  /** Why an unclaimable code is: 'expired' for an unused one past its expiry, otherwise 'invalid'. */
  async unclaimableReason(code: string): Promise<'expired' | 'invalid'> {
    const { rows } = await this.db.query<{ expired: boolean }>('SELECT expires_at <= now() AS expired FROM redeem_codes WHERE code = $1 AND used_at IS NULL', [code]);
    return rows[0]?.expired ? 'expired' : 'invalid';
  }

  async setCodeUser(code: string, userId: number): Promise<void> {
    await this.db.query('UPDATE redeem_codes SET used_by = $1 WHERE code = $2', [userId, code]);
  }

  // ---- accounts made by registration, guests and the operator

  /** A new account, or null when the username is taken. */
  async createUser(user: { username: string; passwordHash: string; ip?: string; guest?: boolean }): Promise<number | null> {
    const { rows } = await this.db.query<{ id: number }>(
      'INSERT INTO users (username, password_hash, is_tourist, created_ip) VALUES ($1, $2, $3, $4) ON CONFLICT (username) DO NOTHING RETURNING id',
      [user.username, user.passwordHash, user.guest ? 1 : 0, user.ip ?? ''],
    );
    return rows[0]?.id ?? null;
  }

  /** Turns a guest into a registered account in place; null when the username is taken. */
  async registerGuest(guestId: number, username: string, passwordHash: string): Promise<number | null> {
    const { rows } = await this.db.query<{ id: number }>(
      `UPDATE users SET username = $1, password_hash = $2, is_tourist = 0
        WHERE id = $3 AND NOT EXISTS (SELECT 1 FROM users WHERE username = $1) RETURNING id`,
      [username, passwordHash, guestId],
    );
    return rows[0]?.id ?? null;
  }

  async guestsFromIpInLastHour(ip: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users WHERE is_tourist = 1 AND created_ip = $1 AND created_at > now() - interval '1 hour'`,
      [ip],
    );
    return rows[0]!.n;
  }

  // ---- space

  async space(userId: number): Promise<SpaceRow> {
    const { rows } = await this.db.query<{ used: string; extra: number; is_tourist: number }>(
      `SELECT COALESCE((SELECT SUM(size) FROM files WHERE user_id = u.id), 0)::bigint AS used, u.space_extra_gb AS extra, u.is_tourist
         FROM users u WHERE u.id = $1`,
      [userId],
    );
    const row = rows[0]!;
    return { used: Number(row.used), extraGb: Number(row.extra), isTourist: Number(row.is_tourist) === 1 };
  }

  /** The user's bought space, locked until the transaction ends (so one expansion step is bought once). */
  async lockExtraSpace(userId: number): Promise<number> {
    const { rows } = await this.db.query<{ extra: number }>('SELECT space_extra_gb AS extra FROM users WHERE id = $1 FOR UPDATE', [userId]);
    return Number(rows[0]!.extra);
  }

  async setExtraSpace(userId: number, extraGb: number): Promise<void> {
    await this.db.query('UPDATE users SET space_extra_gb = $1 WHERE id = $2', [extraGb, userId]);
  }

  // ---- usage

  /** One page of grants (positive) and spends (negative) and refunds, newest first, within China-time days. */
  async usage(userId: number, range: { start?: string; end?: string }, page: { limit: number; offset: number }): Promise<{ rows: UsageRow[]; total: number }> {
    const filters: string[] = [];
    const args: unknown[] = [userId];
    if (range.start) {
      args.push(range.start);
      filters.push(`day >= $${args.length}::date`);
    }
    if (range.end) {
      args.push(range.end);
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
    const { rows: count } = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${union}) x ${where}`, args);
    const { rows } = await this.db.query<UsageRow>(
      `SELECT action_name, created_at, credits FROM (${union}) x ${where} ORDER BY created_at DESC, ord DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
      args,
    );
    return { rows: rows.map((r) => ({ ...r, credits: Number(r.credits) })), total: count[0]!.n };
  }

  /** Net spend of every China-time day from start to end (refunds subtract), one row a day. */
  async dailySpend(userId: number, start: string, end: string): Promise<{ day: string; spent: number }[]> {
    const { rows } = await this.db.query<{ day: string; spent: number }>(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(SUM(CASE e.kind WHEN 'spend' THEN e.amount ELSE -e.amount END), 0)::int AS spent
         FROM generate_series($2::date, $3::date, interval '1 day') AS d(day)
         LEFT JOIN credit_entries e ON e.user_id = $1 AND ${CST_DAY('e.created_at')} = d.day::date
        GROUP BY d.day ORDER BY d.day`,
      [userId, start, end],
    );
    return rows.map((r) => ({ day: r.day, spent: Number(r.spent) }));
  }
}
