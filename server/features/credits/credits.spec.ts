import { describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, ResultCode } from '../../../src/contract';
import { DB_KINDS, useApp, type ApiTestClient } from '../../../tests/support/app';

describe.each(DB_KINDS)('credits, registration, guests and space over HTTP (%s)', (kind) => {
  const t = useApp(kind);
  let seq = 0;
  const phone = () => `1520000${String(++seq).padStart(4, '0')}`;
  const codes = async (credits: number, count = 1, expires_days = 30): Promise<string[]> =>
    (await t.operator(API.admin.codeCreate, { credits, count, expires_days })).data.codes;
  const user = (credits = 0): Promise<ApiTestClient> => t.user(phone(), credits);

  describe('redeem', () => {
    it('adds the code\'s credits as a batch with the code\'s expiry; a code works once', async () => {
      const c = await user(10);
      const [code] = await codes(120, 1, 15);
      const reply = await c.call(API.credits.cdkey, { code: code!.toLowerCase() });
      expect(reply).toMatchObject({ code: 0, data: { credits: 120 } });
      expect((await c.call(API.account.credits, {})).data.credits).toBe(130);
      const { rows } = await t.app.ctx.db.query<{ b: Date; c: Date }>(
        'SELECT b.expires_at AS b, c.expires_at AS c FROM credit_batches b JOIN redeem_codes c ON c.code = b.source_ref WHERE c.code = $1',
        [code],
      );
      expect(rows[0]!.b.getTime()).toBe(rows[0]!.c.getTime());
      expect(await c.call(API.credits.cdkey, { code })).toMatchObject({ code: 1, msg: MSG.codeInvalid });
    });

    it.each([
      [{ code: '' }, MSG.registerCodeRequired],
      [{ code: '   ' }, MSG.registerCodeRequired],
      [{ code: 'X'.repeat(65) }, '兑换码不能超过64个字符'],
      [{ code: 'NOSUCHCODE' }, MSG.codeInvalid],
      [{}, MSG.registerCodeRequired],
    ])('refuses %j with "%s" and changes nothing', async (params, message) => {
      const c = await user(5);
      expect(await c.call(API.credits.cdkey, params)).toMatchObject({ code: 1, msg: message });
      expect((await c.call(API.account.credits, {})).data.credits).toBe(5);
    });

    it('refuses an expired code', async () => {
      const c = await user();
      const [code] = await codes(50);
      await t.app.ctx.db.query(`UPDATE redeem_codes SET expires_at = now() - interval '1 second' WHERE code = $1`, [code]);
      expect(await c.call(API.credits.cdkey, { code })).toMatchObject({ code: 1, msg: MSG.codeExpired });
    });

    it('asks for a session when neither logged in nor registering', async () => {
      const [code] = await codes(50);
      expect((await t.client().call(API.credits.cdkey, { code })).code).toBe(ResultCode.SessionExpired);
    });
  });

  describe('registration by code', () => {
    it('creates the account, logs it in and grants the credits', async () => {
      const [code] = await codes(300);
      const username = phone();
      const reply = await t.client().call(API.credits.cdkey, { username, password: 'pass12', code, client: 'pc' });
      expect(reply).toMatchObject({ code: 0, data: { credits: 300 } });
      const me = await t.client(reply.data.token).call(API.account.profile, {});
      expect(me.data).toMatchObject({ username, credits: 300, is_tourist: 0 });
    });

    it.each([
      [{ username: '12345', password: 'pass12' }, MSG.registerPhoneInvalid],
      [{ username: '1380000', password: 'pass12' }, MSG.registerPhoneInvalid],
      [{ username: '13800000000', password: '12' }, MSG.passwordTooShort],
      [{ username: '13800000000' }, MSG.loginPasswordRequired],
    ])('refuses %j with "%s" and leaves the code unused', async (params, message) => {
      const [code] = await codes(10);
      expect(await t.client().call(API.credits.cdkey, { ...params, code })).toMatchObject({ code: 1, msg: message });
      const { rows } = await t.app.ctx.db.query('SELECT 1 FROM redeem_codes WHERE code = $1 AND used_at IS NULL', [code]);
      expect(rows).toHaveLength(1);
    });

    it('refuses a taken phone number and leaves the code unused', async () => {
      const taken = phone();
      await t.createUser(taken, 'abc123');
      const [code] = await codes(10);
      expect(await t.client().call(API.credits.cdkey, { username: taken, password: 'pass12', code })).toMatchObject({ code: 1, msg: MSG.usernameTaken });
      expect((await t.app.ctx.db.query('SELECT 1 FROM redeem_codes WHERE code = $1 AND used_at IS NULL', [code])).rows).toHaveLength(1);
    });

    it('100 concurrent registrations with one code create exactly one account', async () => {
      const [code] = await codes(77);
      const names = Array.from({ length: 100 }, () => phone());
      const replies = await Promise.all(names.map((username) => t.client().call(API.credits.cdkey, { username, password: 'pass12', code })));
      expect(replies.filter((r) => r.code === 0)).toHaveLength(1);
      // The others are refused: the code is used up, or (registration attempts being limited per code) not even tried.
      const refused = replies.filter((r) => r.code !== 0);
      expect(refused.every((r) => r.code === 1 && ([MSG.codeInvalid, MSG.registerAttemptsLimited] as string[]).includes(r.msg))).toBe(true);
      expect(refused.filter((r) => r.msg === MSG.codeInvalid).length).toBeLessThanOrEqual(LIMITS.registerMaxFailuresPerCode);
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const { rows } = await t.app.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = ANY($1)`, [names]);
      expect(rows[0]!.n).toBe(1);
    });
  });

  describe('guests', () => {
    it('is off until the operator sets guest_credits', async () => {
      expect(await t.client().call(API.credits.tourist, {})).toMatchObject({ code: 1, msg: MSG.guestDisabled });
      expect((await t.client().call(API.site.site, {})).data.guest_enabled).toBe(0);
    });

    it('gives a guest the operator\'s grant; a guest cannot redeem or expand; registering keeps the same account', async () => {
      await t.operator(API.admin.siteSet, { settings: { guest_credits: '50' } });
      expect((await t.client().call(API.site.site, {})).data.guest_enabled).toBe(1);
      const reply = await t.client().call(API.credits.tourist, {});
      expect(reply.code).toBe(0);
      const guest = t.client(reply.data.token);
      const before = (await guest.call(API.account.profile, {})).data;
      expect(before).toMatchObject({ is_tourist: 1, credits: 50 });
      const [code] = await codes(200);
      expect(await guest.call(API.credits.cdkey, { code })).toMatchObject({ code: 1, msg: MSG.guestCannotRedeem });
      expect(await guest.call(API.credits.spaceExpand, {})).toMatchObject({ code: 1, msg: MSG.guestCannotExpand });
      expect((await guest.call(API.credits.space, {})).data.can_expand).toBe(0);
      const guestId = (await t.app.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [before.username])).rows[0]!.id;

      const username = phone();
      const registered = await guest.call(API.credits.cdkey, { username, password: 'pass12', code, client: 'pc' });
      expect(registered).toMatchObject({ code: 0, data: { credits: 200 } });
      const me = t.client(registered.data.token);
      expect((await me.call(API.account.profile, {})).data).toMatchObject({ username, is_tourist: 0, credits: 250 });
      const { rows } = await t.app.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
      expect(rows[0]!.id).toBe(guestId);
      expect((await guest.call(API.account.profile, {})).code).toBe(ResultCode.SessionExpired);
    });
  });

  describe('space', () => {
    it('reports used and total, expands for 5000 credits, and stops at the operator\'s limit', async () => {
      await t.operator(API.admin.siteSet, { settings: { space_base_gb: '1', space_max_gb: '11' } });
      const c = await user(LIMITS.spaceExpandCredits * 3);
      expect((await c.call(API.credits.space, {})).data).toEqual({ used: 0, total: 1024, total_format: '1GB', can_expand: 1 });
      const first = await c.call(API.credits.spaceExpand, {});
      expect(first.data).toMatchObject({ total: 6 * 1024, total_format: '6GB', can_expand: 1 });
      expect((await c.call(API.account.credits, {})).data.credits).toBe(LIMITS.spaceExpandCredits * 2);
      const second = await c.call(API.credits.spaceExpand, {});
      expect(second.data).toMatchObject({ total_format: '11GB', can_expand: 0 });
      expect(await c.call(API.credits.spaceExpand, {})).toMatchObject({ code: 1, msg: MSG.spaceExpandAtLimit });
      expect((await c.call(API.account.credits, {})).data.credits).toBe(LIMITS.spaceExpandCredits);
    });

    it('refuses an expansion the user cannot pay for and charges nothing', async () => {
      await t.operator(API.admin.siteSet, { settings: { space_max_gb: '50' } });
      const c = await user(LIMITS.spaceExpandCredits - 1);
      expect(await c.call(API.credits.spaceExpand, {})).toMatchObject({ code: 1, msg: MSG.insufficientCredits });
      expect((await c.call(API.credits.space, {})).data.total_format).toBe('1GB');
      expect((await c.call(API.account.credits, {})).data.credits).toBe(LIMITS.spaceExpandCredits - 1);
    });
  });

  describe('usage list, daily chart, expiry', () => {
    it('lists grants and spends with signs, newest first, with a total; filters by date; isolates users', async () => {
      const c = await user(LIMITS.spaceExpandCredits + 100);
      const other = await user(999);
      await c.call(API.credits.spaceExpand, {});
      const log = await c.call(API.credits.log, { page: 1, limit: 10 });
      expect(log.data.total).toBe(2);
      expect(log.data.list.map((l: { credits: number }) => l.credits)).toEqual([-LIMITS.spaceExpandCredits, LIMITS.spaceExpandCredits + 100]);
      expect(log.data.list[0].action_name).toContain('扩容');
      expect(log.data.list[1].action_name).toBe('系统赠送');
      expect((await other.call(API.credits.log, { page: 1, limit: 10 })).data.total).toBe(1);
      const future = await c.call(API.credits.log, { start: '2999-01-01', end: '2999-01-02', page: 1, limit: 10 });
      expect(future.data).toEqual({ list: [], total: 0 });
      const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
      const daily = await c.call(API.credits.daily, { start: '2020-01-01' < today ? today : today, end: today });
      expect(daily.data.list).toEqual([{ date: today, spent: LIMITS.spaceExpandCredits }]);
    });

    it.each([
      [{ start: '2024-02-10', end: '2024-02-01' }, MSG.dateRangeInvalid],
      [{ start: 'yesterday', end: '2024-02-01' }, MSG.dateInvalid],
    ])('refuses a bad range %j', async (params, message) => {
      const c = await user();
      expect(await c.call(API.credits.log, { ...params, page: 1, limit: 10 })).toMatchObject({ code: 1, msg: message });
      expect(await c.call(API.credits.daily, params)).toMatchObject({ code: 1, msg: message });
    });

    it('fills every day of the chart range and refuses over a year', async () => {
      const c = await user();
      const days = (await c.call(API.credits.daily, { start: '2024-02-27', end: '2024-03-02' })).data.list;
      expect(days.map((d: { date: string }) => d.date)).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02']);
      expect(days.every((d: { spent: number }) => d.spent === 0)).toBe(true);
      expect(await c.call(API.credits.daily, { start: '2020-01-01', end: '2024-01-01' })).toMatchObject({ code: 1, msg: MSG.dateRangeTooLong });
    });

    it('lists live batches by expiry with their remainders and the total', async () => {
      const c = await user(100);
      const [code] = await codes(40, 1, 5);
      await c.call(API.credits.cdkey, { code });
      const expiry = await c.call(API.credits.expiry, {});
      expect(expiry.data.total).toBe(140);
      expect(expiry.data.details.map((d: { credits: number }) => d.credits)).toEqual([40, 100]);
      expect(expiry.data.details[0].expire_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    it('serves the points rule', async () => {
      const c = await user();
      expect((await c.call(API.credits.rule, {})).data.content).toContain('积分');
    });
  });
});
