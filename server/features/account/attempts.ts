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
import { AccountRepository } from './account.repository';

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
    const id = await this.db.tx(async (q) => {
      const account = new AccountRepository(q);
      await account.lockAttempts(kind, subject, ip);
      const { by_subject, by_ip } = await account.recentFailures(kind, subject, ip, LIMITS.loginFailureWindowMinutes);
      if (by_ip >= rule.perIp) throw new ApiError(rule.ipLimited);
      if (by_subject >= rule.perSubject && !overSubjectLimit()) throw new ApiError(rule.subjectLimited);
      return account.recordFailure(kind, subject, ip);
    });
    return { release: () => new AccountRepository(this.db).forgetFailure(id) };
  }

  /** A right login ends the account's run of failures (its captcha requirement with it). */
  async clear(kind: AttemptKind, subject: string): Promise<void> {
    await new AccountRepository(this.db).clearFailures(kind, subject);
  }
}
