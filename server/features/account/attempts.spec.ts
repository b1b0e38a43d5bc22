import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, LIMITS, MSG } from '../../../src/contract';
import { DB_KINDS, startApp, type TestApp } from '../../../tests/support/app';

const BURST = 200;

describe.each(DB_KINDS)('attempt limits and the login captcha (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t.close());
  // Every test starts from a clean slate for this address (all of them come from 127.0.0.1).
  beforeEach(async () => {
    await t.app.ctx.db.query('DELETE FROM login_failures');
  });

  const login = (username: string, password: string, captcha: { captcha_id?: string; captcha?: string } = {}) =>
    t.client().call(API.account.login, { username, password, ...captcha });

  /** A captcha and its answer (read where the server keeps it, as a person would read the picture). */
  async function solvedCaptcha(): Promise<{ captcha_id: string; captcha: string }> {
    const reply = await t.client().call(API.account.captcha, {});
    expect(reply.code).toBe(0);
    const { rows } = await t.app.ctx.db.query<{ answer: string }>('SELECT answer FROM captchas WHERE id = $1', [reply.data.captcha_id]);
    return { captcha_id: reply.data.captcha_id, captcha: rows[0]!.answer };
  }

  const tally = (replies: { msg: string }[]) => {
    const out: Record<string, number> = {};
    for (const r of replies) out[r.msg] = (out[r.msg] ?? 0) + 1;
    return out;
  };

  it(`of ${BURST} simultaneous wrong logins on one account at most the account's limit are evaluated; the right password then needs the captcha`, async () => {
    await t.createUser('13900000001', 'right1');
    const replies = await Promise.all(Array.from({ length: BURST }, (_, i) => login('13900000001', `wrong${i}`)));
    const seen = tally(replies);
    expect(seen[MSG.loginFailed]).toBe(LIMITS.loginMaxFailuresPerAccount);
    expect(seen[MSG.captchaRequired]).toBe(BURST - LIMITS.loginMaxFailuresPerAccount);
    expect(replies.every((r) => r.code === 1)).toBe(true);

    // The right password is not a free pass: without the captcha it is not even looked at.
    expect(await login('13900000001', 'right1')).toMatchObject({ code: 1, msg: MSG.captchaRequired });
    // With it, the owner gets in (the account cannot be locked by someone who knows the number).
    const reply = await login('13900000001', 'right1', await solvedCaptcha());
    expect(reply.code).toBe(0);
    expect(reply.data.token).toBeTruthy();
    // and the run of failures is over.
    expect((await login('13900000001', 'right1')).code).toBe(0);
  });

  it(`of ${BURST} simultaneous wrong logins from one address over many accounts at most the address's limit are evaluated`, async () => {
    const replies = await Promise.all(Array.from({ length: BURST }, (_, i) => login(`1390001${String(i).padStart(4, '0')}`, 'wrong1')));
    const seen = tally(replies);
    expect(seen[MSG.loginFailed]).toBe(LIMITS.loginMaxFailuresPerIp);
    expect(seen[MSG.loginRateLimited]).toBe(BURST - LIMITS.loginMaxFailuresPerIp);
    // The address's limit holds even for a right password and a solved captcha.
    await t.createUser('13900000002', 'right2');
    expect(await login('13900000002', 'right2', await solvedCaptcha())).toMatchObject({ code: 1, msg: MSG.loginRateLimited });
  });

  it('a captcha is single use: a wrong answer uses it up, a right one works once', async () => {
    await t.createUser('13900000003', 'right3');
    for (let i = 0; i < LIMITS.loginMaxFailuresPerAccount; i++) await login('13900000003', `wrong${i}`);

    const wrong = await solvedCaptcha();
    expect(await login('13900000003', 'right3', { ...wrong, captcha: wrong.captcha === 'AAAA' ? 'BBBB' : 'AAAA' })).toMatchObject({ code: 1, msg: MSG.captchaWrong });
    expect(await login('13900000003', 'right3', wrong)).toMatchObject({ code: 1, msg: MSG.captchaWrong });

    // A solved captcha evaluates one guess: a wrong password uses it up and counts as a failure.
    const once = await solvedCaptcha();
    expect(await login('13900000003', 'wrong-again', once)).toMatchObject({ code: 1, msg: MSG.loginFailed });
    expect(await login('13900000003', 'right3', once)).toMatchObject({ code: 1, msg: MSG.captchaWrong });
    // Answers are case-insensitive; an expired captcha is refused.
    const lower = await solvedCaptcha();
    const expired = await solvedCaptcha();
    await t.app.ctx.db.query(`UPDATE captchas SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.captcha_id]);
    expect(await login('13900000003', 'right3', expired)).toMatchObject({ code: 1, msg: MSG.captchaWrong });
    expect((await login('13900000003', 'right3', { ...lower, captcha: lower.captcha.toLowerCase() })).code).toBe(0);
  });

  it('the captcha is a server-made 120×40 PNG of 4 characters from the spec alphabet; the answer is never in the reply', async () => {
    const reply = await t.client().call(API.account.captcha, {});
    const { rows } = await t.app.ctx.db.query<{ answer: string }>('SELECT answer FROM captchas WHERE id = $1', [reply.data.captcha_id]);
    const answer = rows[0]!.answer;
    expect(answer).toMatch(new RegExp(`^[${LIMITS.captcha.alphabet}]{${LIMITS.captcha.length}}$`));
    expect(answer).not.toMatch(/[O0]/);
    expect(JSON.stringify(reply)).not.toContain(answer);

    const png = Buffer.from(String(reply.data.image).replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([LIMITS.captcha.width, LIMITS.captcha.height]);
    // The picture has ink: a good share of dark pixels (the characters) over a light ground.
    const idat = png.subarray(41, 41 + png.readUInt32BE(33));
    const raw = inflateSync(idat);
    let dark = 0;
    for (let y = 0; y < LIMITS.captcha.height; y++) {
      for (let x = 0; x < LIMITS.captcha.width; x++) {
        const at = y * (LIMITS.captcha.width * 3 + 1) + 1 + x * 3;
        if (raw[at]! + raw[at + 1]! + raw[at + 2]! < 3 * 130) dark++;
      }
    }
    expect(dark).toBeGreaterThan(300);
    // Two captchas differ.
    const other = await t.client().call(API.account.captcha, {});
    expect(other.data.captcha_id).not.toBe(reply.data.captcha_id);
  });

  it('wrong old passwords on the password change are limited like logins, even when sent at once', async () => {
    await t.createUser('13900000004', 'first4');
    const client = await t.login('13900000004', 'first4');
    const change = (old: string) => client.call(API.account.changePassword, { old_password: old, password: 'second4', confirm: 'second4' });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => change(`wrong${i}`)));
    const seen = tally(replies);
    expect(seen[MSG.oldPasswordWrong]).toBe(LIMITS.loginMaxFailuresPerAccount);
    expect(seen[MSG.passwordAttemptsLimited]).toBe(50 - LIMITS.loginMaxFailuresPerAccount);
    // The right old password is refused too until the window passes.
    expect(await change('first4')).toMatchObject({ code: 1, msg: MSG.passwordAttemptsLimited });
    await t.app.ctx.db.query(`UPDATE login_failures SET at = now() - make_interval(mins => $1)`, [LIMITS.loginFailureWindowMinutes + 1]);
    expect((await change('first4')).code).toBe(0);
  });

  it('registration by code cannot probe numbers: a code and an address get only a few failed registrations, and a taken number leaves the code unused', async () => {
    await t.createUser('13900000005', 'taken5');
    const [code] = (await t.operator(API.admin.codeCreate, { credits: 10, count: 1, expires_days: 30 })).data.codes as string[];
    const register = (username: string, c = code!) => t.client().call(API.credits.cdkey, { username, password: 'pass12', code: c, client: 'pc' });

    const probes = await Promise.all(Array.from({ length: 40 }, () => register('13900000005')));
    const seen = tally(probes);
    expect(seen[MSG.usernameTaken]).toBe(LIMITS.registerMaxFailuresPerCode);
    expect(seen[MSG.registerAttemptsLimited]).toBe(40 - LIMITS.registerMaxFailuresPerCode);
    // The code still works for its owner once the window has passed, and a success leaves no failure behind.
    expect(await register('13900000006')).toMatchObject({ code: 1, msg: MSG.registerAttemptsLimited });
    await t.app.ctx.db.query(`UPDATE login_failures SET at = now() - make_interval(mins => $1)`, [LIMITS.loginFailureWindowMinutes + 1]);
    const ok = await register('13900000006');
    expect(ok.code).toBe(0);
    expect(ok.data.token).toBeTruthy();

    // One address cannot spread its probes over many codes either.
    const codes = (await t.operator(API.admin.codeCreate, { credits: 10, count: LIMITS.registerMaxFailuresPerIp + 5, expires_days: 30 })).data.codes as string[];
    const spread = await Promise.all(codes.map((c) => register('13900000005', c)));
    expect(tally(spread)[MSG.usernameTaken]).toBe(LIMITS.registerMaxFailuresPerIp);
  });
});
