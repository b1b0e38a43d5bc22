/** Login captchas: issued with a server-made image, answered once (a wrong answer uses it up too). */
import { randomBytes } from 'node:crypto';
import { LIMITS } from '../../../src/contract';
import type { Db } from '../../infra/db';
import { captchaAnswer, captchaPng } from './captcha-image';

const LIVE_PER_IP = 10;

export class Captchas {
  constructor(private readonly db: Db) {}

  async issue(ip: string): Promise<{ captcha_id: string; image: string }> {
    const id = randomBytes(18).toString('base64url');
    const answer = captchaAnswer();
    // Expired captchas go, and one address keeps only its latest few, so asking in a loop fills nothing.
    await this.db.query(
      `DELETE FROM captchas WHERE expires_at < now()
          OR id IN (SELECT id FROM captchas WHERE ip = $1 ORDER BY expires_at DESC OFFSET $2)`,
      [ip, LIVE_PER_IP - 1],
    );
    await this.db.query(`INSERT INTO captchas (id, answer, ip, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [
      id, answer, ip, LIMITS.captchaTtlSeconds,
    ]);
    return { captcha_id: id, image: `data:image/png;base64,${captchaPng(answer).toString('base64')}` };
  }

  /** Uses the captcha up and tells whether it was answered right in time (case does not matter). */
  async redeem(id: string, answer: string): Promise<boolean> {
    const { rows } = await this.db.query<{ answer: string; live: boolean }>(
      'DELETE FROM captchas WHERE id = $1 RETURNING answer, expires_at > now() AS live',
      [id],
    );
    const row = rows[0];
    return !!row && row.live && row.answer === answer.trim().toUpperCase();
  }
}
