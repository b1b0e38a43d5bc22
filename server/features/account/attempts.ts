/**
 * Attempt limits for guesses (login passwords, old passwords, registration codes and phone numbers).
 *
 * A guess takes its place *before* it is checked: one short transaction locks the subject and the IP
 * (advisory transaction locks, subject first, then IP, so two attempts can never wait on each other in a
 * circle), counts the recent failures of both and writes the attempt as a failure. Concurrent guesses therefore
 * queue on the count, and at most the limit of them is ever checked. A right password clears the subject's
 * failures (clear); a successful registration removes only its own row (release).
 */
import { LIMITS, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Db } from '../../infra/db';

export type AttemptKind = 'login' | 'password' | 'register';

interface AttemptRule {
  perSubject: number;
  perIp: number;
  /** What to answer when the subject is over its limit (the IP's limit always refuses). */
  subjectLimited: string;
  ipLimited: string;
}

const RULES: Record<AttemptKind, AttemptRule> = {
  // Over the account's limit a login asks for a captcha instead of refusing (the caller decides, see reserve).
  login: { perSubject: LIMITS.loginMaxFailuresPerAccount, perIp: LIMITS.loginMaxFailuresPerIp, subjectLimited: MSG.captchaRequired, ipLimited: MSG.loginRateLimited },
  password: { perSubject: LIMITS.loginMaxFailuresPerAccount, perIp: LIMITS.loginMaxFailuresPerIp, subjectLimited: MSG.passwordAttemptsLimited, ipLimited: MSG.passwordAttemptsLimited },
  register: { perSubject: LIMITS.registerMaxFailuresPerCode, perIp: LIMITS.registerMaxFailuresPerIp, subjectLimited: MSG.registerAttemptsLimited, ipLimited: MSG.registerAttemptsLimited },
};

/** Advisory lock classes (two-key form), apart from the migrations' single-key lock. */
const SUBJECT_LOCK = 720_531_010;
const IP_LOCK = 720_531_011;

export interface Reservation {
  /** Forget this attempt (it was right). */
  release(): Promise<void>;
}

export class AttemptLimiter {
  constructor(private readonly db: Db) {}

  /**
   * Takes an attempt's place or throws the rule's ApiError. `overSubjectLimit` runs, still under the locks, when
   * only the subject is over its limit: it may allow the attempt (a solved captcha) by returning true.
   */
  async reserve(kind: AttemptKind, subject: string, ip: string, overSubjectLimit: () => boolean = () => false): Promise<Reservation> {
    const rule = RULES[kind];
    const window = `${LIMITS.loginFailureWindowMinutes} minutes`;
    const id = await this.db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SUBJECT_LOCK, `${kind}:${subject}`]);
      await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [IP_LOCK, `${kind}:${ip}`]);
      const { rows } = await q.query<{ by_subject: number; by_ip: number }>(
        `SELECT (SELECT count(*) FROM login_failures WHERE kind = $1 AND username = $2 AND at > now() - $4::interval)::int AS by_subject,
                (SELECT count(*) FROM login_failures WHERE kind = $1 AND ip = $3 AND at > now() - $4::interval)::int AS by_ip`,
        [kind, subject, ip, window],
      );
      const { by_subject, by_ip } = rows[0]!;
      if (by_ip >= rule.perIp) throw new ApiError(rule.ipLimited);
      if (by_subject >= rule.perSubject && !overSubjectLimit()) throw new ApiError(rule.subjectLimited);
      const inserted = await q.query<{ id: string }>('INSERT INTO login_failures (kind, username, ip) VALUES ($1, $2, $3) RETURNING id', [kind, subject, ip]);
      return inserted.rows[0]!.id;
    });
    return { release: () => this.db.query('DELETE FROM login_failures WHERE id = $1', [id]).then(() => undefined) };
  }

  /** A right login ends the account's run of failures (its captcha requirement with it). */
  async clear(kind: AttemptKind, subject: string): Promise<void> {
    await this.db.query('DELETE FROM login_failures WHERE kind = $1 AND username = $2', [kind, subject]);
  }
}
