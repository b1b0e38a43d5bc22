/** The account's SQL: users' passwords and profiles, attempt counts for guesses, and login captchas. */
import type { Queryable } from '../../infra/db';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  avatar: string;
  is_tourist: number;
  expire_time: Date | null;
}

/** Advisory lock classes (two-key form), apart from the migrations' single-key lock. */
const SUBJECT_LOCK = 720_531_010;
const IP_LOCK = 720_531_011;

export class AccountRepository {
  constructor(private readonly q: Queryable) {}

  async credentials(username: string): Promise<Pick<UserRow, 'id' | 'password_hash'> | undefined> {
    return (await this.q.query<UserRow>('SELECT id, password_hash FROM users WHERE username = $1', [username])).rows[0];
  }

  async passwordHash(userId: number): Promise<string | undefined> {
    return (await this.q.query<UserRow>('SELECT password_hash FROM users WHERE id = $1', [userId])).rows[0]?.password_hash;
  }

  async setPasswordHash(userId: number, hash: string): Promise<void> {
    await this.q.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, userId]);
  }

  async profile(userId: number): Promise<Pick<UserRow, 'username' | 'avatar' | 'is_tourist' | 'expire_time'> | undefined> {
    return (await this.q.query<UserRow>('SELECT username, avatar, is_tourist, expire_time FROM users WHERE id = $1', [userId])).rows[0];
  }

  /** Inside a transaction: serializes guesses on one subject and one address (subject first, so never in a circle). */
  async lockAttempts(kind: string, subject: string, ip: string): Promise<void> {
    await this.q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SUBJECT_LOCK, `${kind}:${subject}`]);
    await this.q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [IP_LOCK, `${kind}:${ip}`]);
  }

  async recentFailures(kind: string, subject: string, ip: string, windowMinutes: number): Promise<{ by_subject: number; by_ip: number }> {
    const { rows } = await this.q.query<{ by_subject: number; by_ip: number }>(
      `SELECT (SELECT count(*) FROM login_failures WHERE kind = $1 AND username = $2 AND at > now() - make_interval(mins => $4))::int AS by_subject,
              (SELECT count(*) FROM login_failures WHERE kind = $1 AND ip = $3 AND at > now() - make_interval(mins => $4))::int AS by_ip`,
      [kind, subject, ip, windowMinutes],
    );
    return rows[0]!;
  }

  async recordFailure(kind: string, subject: string, ip: string): Promise<string> {
    const { rows } = await this.q.query<{ id: string }>('INSERT INTO login_failures (kind, username, ip) VALUES ($1, $2, $3) RETURNING id', [kind, subject, ip]);
    return rows[0]!.id;
  }

  async forgetFailure(id: string): Promise<void> {
    await this.q.query('DELETE FROM login_failures WHERE id = $1', [id]);
  }

  async clearFailures(kind: string, subject: string): Promise<void> {
    await this.q.query('DELETE FROM login_failures WHERE kind = $1 AND username = $2', [kind, subject]);
  }

  /** Drops expired captchas and all but the address's newest `keep`, then stores a new one. */
  async addCaptcha(id: string, answer: string, ip: string, ttlSeconds: number, keep: number): Promise<void> {
    await this.q.query(
      `DELETE FROM captchas WHERE expires_at < now()
          OR id IN (SELECT id FROM captchas WHERE ip = $1 ORDER BY expires_at DESC OFFSET $2)`,
      [ip, keep],
    );
    await this.q.query(`INSERT INTO captchas (id, answer, ip, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [id, answer, ip, ttlSeconds]);
  }

  /** Removes the captcha and returns its answer and whether it was still live. */
  async takeCaptcha(id: string): Promise<{ answer: string; live: boolean } | undefined> {
    return (await this.q.query<{ answer: string; live: boolean }>('DELETE FROM captchas WHERE id = $1 RETURNING answer, expires_at > now() AS live', [id])).rows[0];
  }
}
