import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG, ResultCode } from '../../../src/contract';
import { tokenHash } from '../../infra/passwords';
import { DB_KINDS, startApp, type TestApp } from '../../../tests/support/app';

describe.each(DB_KINDS)('accounts and sessions (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
    await t.createUser('13800000001', 'abc123', 500);
    await t.createUser('13800000002', 'xyz789', 20);
  });
  afterAll(() => t.close());

  describe('login', () => {
    it('returns a random session token that is stored only as a hash', async () => {
      const reply = await t.client().call(API.account.login, { username: '13800000001', password: 'abc123' });
      expect(reply.code).toBe(ResultCode.Ok);
      const token: string = reply.data.token;
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
      const stored = await t.app.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
      expect(stored.rows.map((r) => r.token_hash)).toContain(tokenHash(token));
      expect(stored.rows.map((r) => r.token_hash)).not.toContain(token);
    });

    it.each([
      [{ username: '', password: 'abc123' }, MSG.loginUsernameRequired],
      [{ username: '   ', password: 'abc123' }, MSG.loginUsernameRequired],
      [{ username: '13800000001', password: '' }, MSG.loginPasswordRequired],
      [{ password: 'abc123' }, MSG.loginUsernameRequired],
      [{ username: 12345, password: 'abc123' }, MSG.loginUsernameRequired],
      [{ username: 'a'.repeat(65), password: 'abc123' }, '账号不能超过64个字符'],
    ])('refuses %j with "%s"', async (params, message) => {
      const reply = await t.client().call(API.account.login, params);
      expect(reply).toMatchObject({ code: ResultCode.Error, msg: message, status: 200 });
    });

    it('gives one message for a wrong password and for an unknown user', async () => {
      const wrong = await t.client().call(API.account.login, { username: '13800000002', password: 'nope12' });
      const unknown = await t.client().call(API.account.login, { username: '13899999999', password: 'nope12' });
      expect(wrong).toMatchObject({ code: 1, msg: MSG.loginFailed });
      expect(unknown).toMatchObject({ code: 1, msg: MSG.loginFailed });
    });

    it('asks for the captcha after repeated failures, even for the right password', async () => {
      await t.createUser('13800000003', 'right1');
      for (let i = 0; i < LIMITS.loginMaxFailuresPerAccount; i++) {
        expect((await t.client().call(API.account.login, { username: '13800000003', password: `wrong${i}` })).msg).toBe(MSG.loginFailed);
      }
      const reply = await t.client().call(API.account.login, { username: '13800000003', password: 'right1' });
      expect(reply).toMatchObject({ code: 1, msg: MSG.captchaRequired });
      // Another account is not affected by this one's failures.
      expect((await t.client().call(API.account.login, { username: '13800000002', password: 'xyz789' })).code).toBe(0);
    });
  });

  describe('authenticated calls', () => {
    it('answers code 100 without a token, with a made-up token, and with an over-long token', async () => {
      for (const token of [undefined, 'made-up-token', 'x'.repeat(500)]) {
        const reply = await t.client(token).call(API.account.profile, {});
        expect(reply).toMatchObject({ code: ResultCode.SessionExpired, msg: MSG.sessionExpired });
      }
    });

    it('answers code 100 for an expired session', async () => {
      const client = await t.login('13800000001', 'abc123');
      await t.app.ctx.db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [tokenHash(client.token!)]);
      expect((await client.call(API.account.profile, {})).code).toBe(ResultCode.SessionExpired);
    });

    it('site info and login work without a token', async () => {
      expect((await t.client().call(API.site.site, {})).code).toBe(0);
      expect((await t.client().call(API.site.protocol, { type: 'privacy' })).code).toBe(0);
    });

    it("shows each user their own profile and credits only", async () => {
      const a = await t.login('13800000001', 'abc123');
      const b = await t.login('13800000002', 'xyz789');
      const pa = await a.call(API.account.profile, {});
      const pb = await b.call(API.account.profile, {});
      expect(pa.data).toMatchObject({ username: '13800000001', credits: 500, is_tourist: 0 });
      expect(pb.data).toMatchObject({ username: '13800000002', credits: 20, is_tourist: 0 });
      expect((await b.call(API.account.credits, {})).data).toEqual({ credits: 20 });
    });

    it('counts only live credit batches', async () => {
      const id = await t.createUser('13800000004', 'abc123', 100);
      await t.app.ctx.db.query(`INSERT INTO credit_batches (user_id, amount, expires_at, source) VALUES ($1, 50, now() - interval '1 minute', 'test')`, [id]);
      const c = await t.login('13800000004', 'abc123');
      expect((await c.call(API.account.credits, {})).data.credits).toBe(100);
    });
  });

  describe('logout', () => {
    it('revokes the token on the server', async () => {
      const client = await t.login('13800000001', 'abc123');
      expect((await client.call(API.account.logout, {})).code).toBe(0);
      expect((await client.call(API.account.profile, {})).code).toBe(ResultCode.SessionExpired);
    });
  });

  describe('change password', () => {
    it.each([
      [{ old_password: '', password: 'new123', confirm: 'new123' }, MSG.oldPasswordRequired],
      [{ old_password: 'abc123', password: '', confirm: 'new123' }, MSG.newPasswordRequired],
      [{ old_password: 'abc123', password: 'new123', confirm: '' }, MSG.confirmPasswordRequired],
      [{ old_password: 'abc123', password: 'new123', confirm: 'new124' }, MSG.passwordMismatch],
      [{ old_password: 'abc123', password: '12', confirm: '12' }, MSG.passwordTooShort],
    ])('refuses %j with "%s" and changes nothing', async (params, message) => {
      const client = await t.login('13800000002', 'xyz789');
      expect(await client.call(API.account.changePassword, params)).toMatchObject({ code: 1, msg: message });
      expect((await client.call(API.account.profile, {})).code).toBe(0);
    });

    it('refuses a wrong old password', async () => {
      const client = await t.login('13800000002', 'xyz789');
      expect(await client.call(API.account.changePassword, { old_password: 'wrong1', password: 'new123', confirm: 'new123' })).toMatchObject({ code: 1, msg: MSG.oldPasswordWrong });
    });

    it('changes the password and ends every session of the account', async () => {
      await t.createUser('13800000005', 'first1');
      const one = await t.login('13800000005', 'first1');
      const two = await t.login('13800000005', 'first1');
      const reply = await one.call(API.account.changePassword, { old_password: 'first1', password: 'second2', confirm: 'second2' });
      expect(reply.code).toBe(0);
      expect((await one.call(API.account.profile, {})).code).toBe(ResultCode.SessionExpired);
      expect((await two.call(API.account.profile, {})).code).toBe(ResultCode.SessionExpired);
      expect((await t.client().call(API.account.login, { username: '13800000005', password: 'first1' })).msg).toBe(MSG.loginFailed);
      expect((await t.client().call(API.account.login, { username: '13800000005', password: 'second2' })).code).toBe(0);
    });
  });
});
