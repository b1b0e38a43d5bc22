/** Operator calls behind `npm run admin` (loopback and operator key only; see CallRouter). */
import { randomInt } from 'node:crypto';
import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { hashPassword } from '../../infra/passwords';
import { daysFromNow, grantCredits } from '../credits/ledger';
import type { FeatureContext } from '../../app-context';

/** Redemption codes: 16 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newRedeemCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export function registerAdminRoutes({ router, db, settings }: FeatureContext): void {
  router.handle(API.admin.userCreate, async ({ params }) => {
    const hash = await hashPassword(params.password);
    return db.tx(async (q) => {
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO users (username, password_hash) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING RETURNING id',
        [params.username, hash],
      );
      if (!rows[0]) throw new ApiError(MSG.usernameTaken);
      const id = rows[0].id;
      if (params.credits > 0) {
        await grantCredits(q, { userId: id, amount: params.credits, expiresAt: daysFromNow(params.expires_days), source: 'operator' });
      }
      return { id, username: params.username, credits: params.credits };
    });
  });

  router.handle(API.admin.codeCreate, async ({ params }) => {
    const codes: string[] = [];
    await db.tx(async (q) => {
      while (codes.length < params.count) {
        const code = newRedeemCode();
        const { rowCount } = await q.query(
          `INSERT INTO redeem_codes (code, credits, expires_at) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`,
          [code, params.credits, daysFromNow(params.expires_days)],
        );
        if (rowCount === 1) codes.push(code);
      }
    });
    return { codes };
  });

  router.handle(API.admin.siteSet, async ({ params }) => ({ updated: await settings.set(params.settings as Record<string, string>) }));
}
