import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, SITE_FIELDS, PROTOCOL_TITLES } from '../../../src/contract';
import { DB_KINDS, startApp, type TestApp } from '../../../tests/support/app';

describe.each(DB_KINDS)('operator calls (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind);
  });
  afterAll(() => t.close());

  it('refuses operator calls without the key, or with a wrong one', async () => {
    for (const key of [undefined, 'wrong-key']) {
      const res = await fetch(`${t.url}${API.admin.userCreate.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-operator-key': key } : {}) },
        body: JSON.stringify({ username: '13700000000', password: 'abc123' }),
      });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe(1);
    }
    expect((await t.client().call(API.account.login, { username: '13700000000', password: 'abc123' })).msg).toBe(MSG.loginFailed);
  });

  it('creates users with a credit grant and refuses a taken username', async () => {
    expect((await t.operator(API.admin.userCreate, { username: '13700000001', password: 'abc123', credits: 300 })).code).toBe(0);
    expect(await t.operator(API.admin.userCreate, { username: '13700000001', password: 'abc123' })).toMatchObject({ code: 1, msg: MSG.usernameTaken });
    const client = await t.login('13700000001', 'abc123');
    expect((await client.call(API.account.credits, {})).data.credits).toBe(300);
  });

  it.each([
    [{ username: '13700000002', password: 'abc123', credits: -5 }],
    [{ username: '13700000002', password: 'abc123', credits: 'lots' }],
    [{ username: '13700000002', password: 'ab' }],
    [{ password: 'abc123' }],
  ])('validates user creation %j with a Chinese message', async (body) => {
    const reply = await t.operator(API.admin.userCreate, body);
    expect(reply.code).toBe(1);
    expect(reply.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('creates distinct redemption codes', async () => {
    const reply = await t.operator(API.admin.codeCreate, { credits: 100, count: 25, expires_days: 30 });
    expect(reply.code).toBe(0);
    const codes: string[] = reply.data.codes;
    expect(codes).toHaveLength(25);
    expect(new Set(codes).size).toBe(25);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{16}$/);
    const { rows } = await t.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM redeem_codes WHERE credits = 100');
    expect(rows[0]!.n).toBe(25);
  });

  it('sets every site-settings field of the spec, which site info then returns', async () => {
    const settings = Object.fromEntries(SITE_FIELDS.map((f) => [f, `value of ${f}`]));
    expect((await t.operator(API.admin.siteSet, { settings })).data.updated).toHaveLength(SITE_FIELDS.length);
    const site = await t.client().call(API.site.site, {});
    for (const f of SITE_FIELDS) expect(site.data[f]).toBe(`value of ${f}`);
    const privacy = await t.client().call(API.site.protocol, { type: 'privacy' });
    expect(privacy.data).toEqual({ title: PROTOCOL_TITLES.privacy, content: 'value of privacy_agreement' });
  });

  it('refuses unknown settings', async () => {
    expect((await t.operator(API.admin.siteSet, { settings: { nope: 'x' } })).code).toBe(1);
  });
});
