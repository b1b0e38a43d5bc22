import { describe, expect, it } from 'vitest';
import { deriveKeys, openReply, openRequest, sealReply, sealRequest, signFields } from './index';
import { nodeCryptoBackend } from '../../server/infra/envelope-keys';

describe('envelope backends agree byte for byte', () => {
  const browser = deriveKeys();
  const server = deriveKeys(undefined, nodeCryptoBackend);

  it('the server opens what the browser sealed, and the browser opens what the server sealed', () => {
    expect(openRequest(sealRequest({ text: '你好<#1#>' }, undefined, browser), undefined, server)).toEqual({ ok: true, value: { text: '你好<#1#>' } });
    expect(openReply(sealReply(0, 'ok', { a: [1, 2] }, undefined, server) as never, undefined, browser)).toEqual({ ok: true, value: { code: 0, msg: 'ok', data: { a: [1, 2] } } });
  });

  it('both refuse a flipped ciphertext byte', () => {
    const sealed = sealRequest({ a: 1 }, undefined, browser);
    const bytes = Buffer.from(sealed.data, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const forged = { ...sealed, data: bytes.toString('base64') };
    // re-signed, so only the ciphertext is wrong
    forged.sign = signFields({ check: forged.check, timestamp: forged.timestamp, data: forged.data });
    expect(openRequest(forged, undefined, server)).toEqual({ ok: false, reason: 'data' });
    expect(openRequest(forged, undefined, browser)).toEqual({ ok: false, reason: 'data' });
  });
});
