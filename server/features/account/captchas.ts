/** Login captchas: issued with a server-made image, answered once (a wrong answer uses it up too). */
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../../../src/contract';
import type { Db } from '../../infra/db';
import { captchaAnswer, captchaPng } from './captcha-image';
import { AccountRepository } from './account.repository';

const LIVE_PER_IP = 10;

export class Captchas {
  constructor(private readonly db: Db) {}

  async issue(ip: string): Promise<{ captcha_id: string; image: string }> {
    const id = randomBytes(18).toString('base64url');
    const answer = captchaAnswer();
    // Expired captchas go, and one address keeps only its latest few, so asking in a loop fills nothing.
    await new AccountRepository(this.db).addCaptcha(id, answer, ip, LIMITS.captchaTtlSeconds, LIVE_PER_IP - 1);
    return { captcha_id: id, image: `data:image/png;base64,${captchaPng(answer).toString('base64')}` };
  }

  /** Uses the captcha up and tells whether it was answered right in time (case does not matter). */
  async redeem(id: string, answer: string): Promise<boolean> {
    const row = await new AccountRepository(this.db).takeCaptcha(id);
    return !!row && row.live && row.answer === answer.trim().toUpperCase();
  }
}
