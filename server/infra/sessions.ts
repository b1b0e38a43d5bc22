/** Session tokens: random, stored hashed, expiring, revocable one by one or all at once. */
import { LIMITS } from '../../src/contract';
import type { Db, Queryable } from './db';
import type { SessionUser } from './http';
import { newToken, tokenHash } from './passwords';

export class Sessions {
  constructor(private readonly db: Db) {}

  async create(q: Queryable, userId: number, ip: string): Promise<string> {
    const token = newToken();
    await q.query(
      `INSERT INTO sessions (user_id, token_hash, expires_at, ip) VALUES ($1, $2, now() + make_interval(days => $3), $4)`,
      [userId, tokenHash(token), LIMITS.sessionTtlDays, ip],
    );
    return token;
  }

  async authenticate(token: string): Promise<SessionUser | null> {
    if (token.length > 128) return null;
    const { rows } = await this.db.query<{ id: number; username: string; is_tourist: 0 | 1 }>(
      `SELECT u.id, u.username, u.is_tourist FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [tokenHash(token)],
    );
    const row = rows[0];
    return row ? { id: row.id, username: row.username, is_tourist: Number(row.is_tourist) as 0 | 1, token } : null;
  }

  async revoke(token: string): Promise<void> {
    await this.db.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [tokenHash(token)]);
  }

  async revokeAll(q: Queryable, userId: number): Promise<void> {
    await q.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  }

  /** Removes sessions that ended over a week ago stale attempt failures and expired captchas (the account-sweep job). */
  async sweep(): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM sessions WHERE expires_at < now() - interval '7 days' OR revoked_at < now() - interval '7 days'`,
    );
    await this.db.query(`DELETE FROM login_failures WHERE at < now() - interval '1 day'`);
    await this.db.query('DELETE FROM captchas WHERE expires_at < now()');
    return rowCount;
  }
}
