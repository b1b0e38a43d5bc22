import { describe, expect, it } from 'vitest';
import { deriveKeys, openReply, openRequest, sealReply, sealRequest, LIMITS } from './index';

describe('signed envelope', () => {
  const now = 1_800_000_000;

  it('round-trips request parameters, including Chinese text and nested values', () => {
    const params = { text: '大家好<#0.5#>欢迎', n: 3, list: [1, { a: true }] };
    const sealed = sealRequest(params, now);
    expect(sealed.check).toBe('1');
    expect(sealed.data).not.toContain('大家好');
    expect(openRequest(sealed, now)).toEqual({ ok: true, value: params });
  });

  it('uses a fresh nonce each time', () => {
    expect(sealRequest({ a: 1 }, now).data).not.toBe(sealRequest({ a: 1 }, now).data);
  });

  it.each([
    ['sign', (f: Record<string, string>) => ({ ...f, sign: f.sign!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) })],
    ['timestamp', (f: Record<string, string>) => ({ ...f, timestamp: String(now + 1) })],
    ['data', (f: Record<string, string>) => ({ ...f, data: sealRequest({ other: 1 }, now).data })],
    ['check flag', (f: Record<string, string>) => ({ ...f, check: '0' })],
  ])('refuses a changed %s', (_name, tamper) => {
    expect(openRequest(tamper(sealRequest({ a: 1 }, now)), now).ok).toBe(false);
  });

  it('refuses timestamps outside ±300 s and accepts the edge', () => {
    const sealed = sealRequest({}, now);
    expect(openRequest(sealed, now + LIMITS.envelopeSkewSeconds).ok).toBe(true);
    expect(openRequest(sealed, now + LIMITS.envelopeSkewSeconds + 1)).toEqual({ ok: false, reason: 'stale' });
    expect(openRequest(sealed, now - LIMITS.envelopeSkewSeconds - 1)).toEqual({ ok: false, reason: 'stale' });
  });

  it('refuses another secret and malformed signatures', () => {
    const sealed = sealRequest({}, now, deriveKeys('other'));
    expect(openRequest(sealed, now)).toEqual({ ok: false, reason: 'sign' });
    expect(openRequest({ ...sealRequest({}, now), sign: 'zz' }, now)).toEqual({ ok: false, reason: 'sign' });
    expect(openRequest({ check: '1', timestamp: String(now) }, now)).toEqual({ ok: false, reason: 'shape' });
  });

  it('seals and verifies replies', () => {
    const reply = sealReply(0, '操作成功！', { token: 'abc' }, now);
    expect(openReply(reply as never, now)).toEqual({ ok: true, value: { code: 0, msg: '操作成功！', data: { token: 'abc' } } });
    expect(openReply({ ...reply, code: 100 } as never, now).ok).toBe(false);
    expect(openReply({ ...reply, msg: 'changed' } as never, now).ok).toBe(false);
  });
});
