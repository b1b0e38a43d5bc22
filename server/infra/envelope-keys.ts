/** The server's envelope keys: the shared secret with node:crypto underneath (native AES-GCM and HMAC). */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deriveKeys, ENVELOPE_SECRET, type CryptoBackend } from '../../src/contract';

const TAG_BYTES = 16;

/** Nonces come from one CSPRNG fill per 4 KB rather than a system call per reply. */
const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let offset = 0;
function pooledRandom(n: number): Uint8Array {
  if (n > POOL_BYTES) return randomBytes(n);
  if (offset + n > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + n);
  offset += n;
  return out;
}

export const nodeCryptoBackend: CryptoBackend = {
  gcmEncrypt(key, nonce, plain) {
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  },
  gcmDecrypt(key, nonce, sealed) {
    if (sealed.length < TAG_BYTES) throw new Error('short ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  },
  hmacSha256: (key, message) => createHmac('sha256', key).update(message).digest(),
  randomBytes: pooledRandom,
  toBase64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  fromBase64: (text) => {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('not base64');
    return Buffer.from(text, 'base64');
  },
  toHex: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex'),
};

export const serverEnvelopeKeys = deriveKeys(ENVELOPE_SECRET, nodeCryptoBackend);
