/** What credits' calls and the operator's calls share: codes, accounts with a first grant, space. */
import { randomBytes, randomInt } from 'node:crypto';
import { LIMITS, MSG } from '../../../src/contract';
import type { Db, Queryable } from '../../infra/db';
import { ApiError } from '../../infra/http';
import { hashPassword } from '../../infra/passwords';
import type { Sessions } from '../../infra/sessions';
import type { SiteSettings } from '../../app-context';
import { CreditsRepository, type ClaimedCode } from './credits.repository';
import { daysFromNow, grantCredits, spendOrRefuse } from './ledger';

const MB = 1024 * 1024;
const GUEST_CREDITS_DAYS = 30;
const GUESTS_PER_IP_PER_HOUR = 10;

/** Redemption codes: 16 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newRedeemCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** `count` new distinct codes worth `credits` each (a code that happens to exist already is drawn again). */
export function issueRedeemCodes(db: Db, batch: { credits: number; count: number; expiresDays: number }): Promise<string[]> {
  return db.tx(async (q) => {
    const codes = new CreditsRepository(q);
    const issued: string[] = [];
    while (issued.length < batch.count) {
      const code = newRedeemCode();
      if (await codes.addCode(code, batch.credits, daysFromNow(batch.expiresDays))) issued.push(code);
    }
    return issued;
  });
}

/** The operator's new account with its first grant; refuses a taken username. */
export async function createAccount(db: Db, account: { username: string; password: string; credits: number; expiresDays: number }): Promise<number> {
  const passwordHash = await hashPassword(account.password);
  return db.tx(async (q) => {
    const id = await new CreditsRepository(q).createUser({ username: account.username, passwordHash });
    if (id === null) throw new ApiError(MSG.usernameTaken);
    if (account.credits > 0) {
      await grantCredits(q, { userId: id, amount: account.credits, expiresAt: daysFromNow(account.expiresDays), source: 'operator' });
    }
    return id;
  });
}

/** Claims a code atomically (of any number of concurrent attempts, exactly one gets it), inside the caller's transaction. */
async function claimCode(repo: CreditsRepository, rawCode: string): Promise<ClaimedCode> {
  const code = rawCode.trim().toUpperCase();
  const claimed = await repo.claimCode(code);
  if (!claimed) throw new ApiError((await repo.unclaimableReason(code)) === 'expired' ? MSG.codeExpired : MSG.codeInvalid);
  return claimed;
}

/** Gives a claimed code's credits to the user, with the code's expiry. */
async function grantClaimed(q: Queryable, repo: CreditsRepository, userId: number, claimed: ClaimedCode): Promise<void> {
  await repo.setCodeUser(claimed.code, userId);
  await grantCredits(q, { userId, amount: claimed.credits, expiresAt: claimed.expires_at, source: 'code', sourceRef: claimed.code });
}

export function redeem(db: Db, userId: number, code: string): Promise<{ credits: number }> {
  return db.tx(async (q) => {
    const repo = new CreditsRepository(q);
    const claimed = await claimCode(repo, code);
    await grantClaimed(q, repo, userId, claimed);
    return { credits: claimed.credits };
  });
}

/**
 * Registration by code: a new account, or — for a guest — the guest's own account, so it keeps everything it
 * made. All in one transaction: a refused registration leaves the code unused.
 */
export async function registerByCode(
  { db, sessions }: { db: Db; sessions: Sessions },
  form: { username: string; password: string; code: string; guestId?: number; ip: string },
): Promise<{ credits: number; token: string }> {
  const passwordHash = await hashPassword(form.password);
  return db.tx(async (q) => {
    const repo = new CreditsRepository(q);
    const claimed = await claimCode(repo, form.code);
    const userId =
      form.guestId !== undefined
        ? await repo.registerGuest(form.guestId, form.username, passwordHash)
        : await repo.createUser({ username: form.username, passwordHash, ip: form.ip });
    if (userId === null) throw new ApiError(MSG.usernameTaken);
    if (form.guestId !== undefined) await sessions.revokeAll(q, userId);
    await grantClaimed(q, repo, userId, claimed);
    return { credits: claimed.credits, token: await sessions.create(q, userId, form.ip) };
  });
}

/** A guest account with the operator's grant, a few an hour per address. */
export async function startGuest({ db, sessions }: { db: Db; sessions: Sessions }, grant: number, ip: string): Promise<{ token: string }> {
  const passwordHash = await hashPassword(randomBytes(18).toString('base64url'));
  return db.tx(async (q) => {
    const repo = new CreditsRepository(q);
    if ((await repo.guestsFromIpInLastHour(ip)) >= GUESTS_PER_IP_PER_HOUR) throw new ApiError(MSG.guestLimit);
    const userId = await repo.createUser({ username: `游客${randomBytes(4).toString('hex').toUpperCase()}`, passwordHash, ip, guest: true });
    if (userId === null) throw new Error('guest username collided');
    await grantCredits(q, { userId, amount: grant, expiresAt: daysFromNow(GUEST_CREDITS_DAYS), source: 'guest' });
    return { token: await sessions.create(q, userId, ip) };
  });
}

export async function spaceOf(q: Queryable, userId: number, settings: SiteSettings) {
  const row = await new CreditsRepository(q).space(userId);
  const totalGb = (await settings.operatorNumber('space_base_gb')) + row.extraGb;
  const maxGb = await settings.operatorNumber('space_max_gb');
  return {
    used: Math.round((row.used / MB) * 100) / 100,
    total: totalGb * 1024,
    total_format: `${totalGb}GB`,
    can_expand: (!row.isTourist && totalGb + LIMITS.spaceExpandGb <= maxGb ? 1 : 0) as 0 | 1,
  };
}

/** Buys one expansion step, unless it would pass the operator's cap. */
export async function expandSpace(db: Db, userId: number, settings: SiteSettings): Promise<void> {
  const maxGb = await settings.operatorNumber('space_max_gb');
  const baseGb = await settings.operatorNumber('space_base_gb');
  await db.tx(async (q) => {
    const repo = new CreditsRepository(q);
    const extra = await repo.lockExtraSpace(userId);
    if (baseGb + extra + LIMITS.spaceExpandGb > maxGb) throw new ApiError(MSG.spaceExpandAtLimit);
    // The key names the step, so a repeated request for the same step is charged once.
    await spendOrRefuse(q, { userId, amount: LIMITS.spaceExpandCredits, action: `空间扩容${LIMITS.spaceExpandGb}GB`, key: `space-expand:${extra + LIMITS.spaceExpandGb}` });
    await repo.setExtraSpace(userId, extra + LIMITS.spaceExpandGb);
  });
}
