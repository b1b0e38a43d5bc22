import { describe, expect, it } from 'vitest';
import { API, MSG, ResultCode, LIMITS, encryptJson, sealRequest, signFields, deriveKeys } from '../../src/contract';
import { DB_KINDS, useApp } from '../../tests/support/app';

describe.each(DB_KINDS)('signed envelope over HTTP (%s)', (kind) => {
  const t = useApp(kind);

  const site = API.site.site;

  it('answers a correctly sealed call with a sealed reply', async () => {
    const reply = await t.client().call(site, {});
    expect(reply.code).toBe(ResultCode.Ok);
    expect(reply.data.site_title).toBe('AI超级分身');
  });

  it('rejects a tampered signature with code 1 and the generic message', async () => {
    const fields = sealRequest({});
    const sign = fields.sign.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const reply = await t.client().raw('GET', site.path, { ...fields, sign });
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected, status: 400 });
  });

  it('rejects data altered after signing', async () => {
    const fields = sealRequest({ username: 'a', password: 'b' });
    const reply = await t.client().raw('POST', API.account.login.path, { ...fields, data: encryptJson({ username: 'x', password: 'y' }) });
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected });
  });

  it.each([
    ['too old', -LIMITS.envelopeSkewSeconds - 5],
    ['from the future', LIMITS.envelopeSkewSeconds + 5],
  ])('rejects a timestamp %s', async (_label, offset) => {
    const fields = sealRequest({}, Math.floor(Date.now() / 1000) + offset);
    const reply = await t.client().raw('GET', site.path, fields);
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected });
  });

  it('accepts a timestamp within the allowed skew', async () => {
    const fields = sealRequest({}, Math.floor(Date.now() / 1000) - LIMITS.envelopeSkewSeconds + 30);
    expect((await t.client().raw('GET', site.path, fields)).code).toBe(ResultCode.Ok);
  });

  it('rejects data it cannot decrypt, even when correctly signed', async () => {
    const base = { check: '1', timestamp: String(Math.floor(Date.now() / 1000)), data: 'bm90IG91ciBjaXBoZXJ0ZXh0' };
    const reply = await t.client().raw('GET', site.path, { ...base, sign: signFields(base) });
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected });
  });

  it('rejects data sealed with another secret', async () => {
    const other = deriveKeys('someone-else');
    const fields = sealRequest({}, undefined, other);
    expect((await t.client().raw('GET', site.path, fields)).msg).toBe(MSG.envelopeRejected);
  });

  it('rejects a call without the envelope fields', async () => {
    const reply = await t.client().raw('POST', API.account.login.path, { username: 'a', password: 'b' });
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected });
  });

  it('refuses an oversized body with code 1, not a 500', async () => {
    const fields = sealRequest({ username: 'x'.repeat(LIMITS.envelopeMaxBodyBytes), password: 'y' });
    const reply = await t.client().raw('POST', API.account.login.path, fields);
    expect(reply.status).toBe(413);
    expect(reply).toMatchObject({ code: ResultCode.Error, msg: MSG.envelopeRejected });
  });

  it('refuses broken JSON on an operator call with code 1', async () => {
    const res = await fetch(`${t.url}${API.admin.siteSet.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"settings":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 1 });
  });

  it('answers unknown API paths with code 1 and 404', async () => {
    const res = await fetch(`${t.url}/api/no/such/call`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 1, msg: MSG.notFound });
  });

  it('sets nosniff and no-store on API replies', async () => {
    const res = await fetch(`${t.url}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
