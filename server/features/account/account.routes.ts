import { API, LIMITS, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { decoyHash, hashPassword, verifyPassword } from '../../infra/passwords';
import { formatDateTime } from '../../infra/time';
import { creditBalance } from '../credits';
import type { FeatureContext } from '../../app-context';

interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  avatar: string;
  is_tourist: number;
  expire_time: Date | null;
}

export function registerAccountRoutes({ router, db, sessions }: FeatureContext): void {
  router.handle(API.account.login, async ({ params, ip }) => {
    const window = `${LIMITS.loginFailureWindowMinutes} minutes`;
    const { rows: counts } = await db.query<{ by_user: number; by_ip: number }>(
      `SELECT (SELECT count(*) FROM login_failures WHERE username = $1 AND at > now() - $3::interval)::int AS by_user,
              (SELECT count(*) FROM login_failures WHERE ip = $2 AND at > now() - $3::interval)::int AS by_ip`,
      [params.username, ip, window],
    );
    const { by_user, by_ip } = counts[0]!;
    if (by_user >= LIMITS.loginMaxFailuresPerAccount || by_ip >= LIMITS.loginMaxFailuresPerIp) throw new ApiError(MSG.loginRateLimited);

    const { rows } = await db.query<UserRow>('SELECT id, password_hash FROM users WHERE username = $1', [params.username]);
    const user = rows[0];
    const ok = await verifyPassword(params.password, user?.password_hash ?? (await decoyHash()));
    if (!user || !ok) {
      await db.query('INSERT INTO login_failures (username, ip) VALUES ($1, $2)', [params.username, ip]);
      throw new ApiError(MSG.loginFailed);
    }
    await db.query('DELETE FROM login_failures WHERE username = $1', [params.username]);
    return { token: await sessions.create(db, user.id, ip) };
  });

  router.handle(API.account.logout, async ({ user }) => {
    await sessions.revoke(user.token);
    return {};
  });

  router.handle(API.account.changePassword, async ({ params, user }) => {
    const { rows } = await db.query<UserRow>('SELECT password_hash FROM users WHERE id = $1', [user.id]);
    if (!(await verifyPassword(params.old_password, rows[0]!.password_hash))) throw new ApiError(MSG.oldPasswordWrong);
    const hash = await hashPassword(params.password);
    await db.tx(async (q) => {
      await q.query('UPDATE users SET password_hash = $1 WHERE id = $2', [hash, user.id]);
      await sessions.revokeAll(q, user.id);
    });
    return {};
  });

  router.handle(API.account.profile, async ({ user }) => {
    const { rows } = await db.query<UserRow>('SELECT username, avatar, is_tourist, expire_time FROM users WHERE id = $1', [user.id]);
    const row = rows[0]!;
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
