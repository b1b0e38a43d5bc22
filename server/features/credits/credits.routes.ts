import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { CreditsRepository } from './credits.repository';
import { expandSpace, redeem, registerByCode, spaceOf, startGuest } from './credits.service';
import { liveBatches } from './ledger';

export function registerCreditsRoutes({ router, db, sessions, settings }: FeatureContext): void {
  const credits = new CreditsRepository(db);

  router.handle(API.credits.cdkey, async ({ params, user, ip }) => {
    if (params.username !== undefined && params.password !== undefined) {
      const guestId = user?.is_tourist === 1 ? user.id : undefined;
      return registerByCode({ db, sessions }, { username: params.username, password: params.password, code: params.code, guestId, ip });
    }
    if (!user) throw new ApiError(MSG.sessionExpired, 100);
    if (user.is_tourist === 1) throw new ApiError(MSG.guestCannotRedeem);
    return redeem(db, user.id, params.code);
  });

  router.handle(API.credits.tourist, async ({ ip }) => {
    const grant = await settings.operatorNumber('guest_credits');
    if (grant <= 0) throw new ApiError(MSG.guestDisabled);
    return startGuest({ db, sessions }, grant, ip);
  });

  router.handle(API.credits.space, async ({ user }) => spaceOf(db, user.id, settings));

  router.handle(API.credits.spaceExpand, async ({ user }) => {
    if (user.is_tourist === 1) throw new ApiError(MSG.guestCannotExpand);
    await expandSpace(db, user.id, settings);
    return spaceOf(db, user.id, settings);
  });

  router.handle(API.credits.log, async ({ params, user }) => {
    const { limit, offset } = requestedPage(params, 20);
    const { rows, total } = await credits.usage(user.id, { start: params.start, end: params.end }, { limit, offset });
    return { list: rows.map((r) => ({ action_name: r.action_name, create_time: formatDateTime(r.created_at), credits: r.credits })), total };
  });

  router.handle(API.credits.daily, async ({ params, user }) => {
    const days = await credits.dailySpend(user.id, params.start, params.end);
    return { list: days.map((d) => ({ date: d.day, spent: Math.max(0, d.spent) })) };
  });

  router.handle(API.credits.expiry, async ({ user }) => {
    const details = (await liveBatches(db, user.id)).map((b) => ({ expire_time: formatDateTime(b.expiresAt), credits: b.remaining }));
    return { details, total: details.reduce((s, d) => s + d.credits, 0) };
  });

  router.handle(API.credits.rule, async () => ({ content: (await settings.all()).credits_rule ?? '' }));
}
