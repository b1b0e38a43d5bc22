import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { decoyHash, hashPassword, verifyPassword } from '../../infra/passwords';
import { formatDateTime } from '../../infra/time';
import { creditBalance } from '../credits';
import { AttemptLimiter } from './attempts';
import { Captchas } from './captchas';
import type { FeatureContext } from '../../app-context';
import { AccountRepository } from './account.repository';

export function registerAccountRoutes({ router, db, sessions }: FeatureContext): void {
  const attempts = new AttemptLimiter(db);
  const captchas = new Captchas(db);
  const accounts = new AccountRepository(db);

  router.handle(API.account.captcha, async ({ ip }) => captchas.issue(ip));

  router.handle(API.account.login, async ({ params, ip }) => {
    // A captcha sent along is used up now, right or wrong, before anything else is looked at.
    const solved = params.captcha_id ? await captchas.redeem(params.captcha_id, params.captcha ?? '') : false;
    await attempts.reserve('login', params.username, ip, () => {
      if (params.captcha_id && !solved) throw new ApiError(MSG.captchaWrong);
      return solved;
    });
    const user = await accounts.credentials(params.username);
    const ok = await verifyPassword(params.password, user?.password_hash ?? (await decoyHash()));
    // A wrong guess leaves its reservation standing as the failure.
    if (!user || !ok) throw new ApiError(MSG.loginFailed);
    await attempts.clear('login', params.username);
    return { token: await sessions.create(db, user.id, ip) };
  });

  // Registration by code answers 该手机号已注册 for a taken number without using the code up, so each code and
  // each address gets a few failed registrations per window, like logins (README: attempt limits).
  router.guard(API.credits.cdkey, async ({ params, ip }, run) => {
    if (params.username === undefined) return run();
    const attempt = await attempts.reserve('register', params.code.trim().toUpperCase(), ip);
    const result = await run();
    await attempt.release();
    return result;
  });

  router.handle(API.account.logout, async ({ user }) => {
    await sessions.revoke(user.token);
    return {};
  });

  router.handle(API.account.changePassword, async ({ params, user, ip }) => {
    await attempts.reserve('password', String(user.id), ip);
    if (!(await verifyPassword(params.old_password, (await accounts.passwordHash(user.id))!))) throw new ApiError(MSG.oldPasswordWrong);
    await attempts.clear('password', String(user.id));
    const hash = await hashPassword(params.password);
    await db.tx(async (q) => {
      await new AccountRepository(q).setPasswordHash(user.id, hash);
      await sessions.revokeAll(q, user.id);
    });
    return {};
  });

  router.handle(API.account.profile, async ({ user }) => {
    const row = (await accounts.profile(user.id))!;
    return {
      username: row.username,
      avatar: row.avatar,
      expire_time: formatDateTime(row.expire_time),
      is_tourist: Number(row.is_tourist) as 0 | 1,
      credits: await creditBalance(db, user.id),
    };
  });

  router.handle(API.account.credits, async ({ user }) => ({ credits: await creditBalance(db, user.id) }));
}
