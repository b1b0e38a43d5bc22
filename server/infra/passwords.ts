/** Password hashes (scrypt, Node's own) and session tokens (256 random bits, stored as SHA-256). */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LEN = 32;

function derive(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** The work factor of new hashes. A stored hash names its own, so verifying never depends on this. */
let hashCost = N;

/**
 * For test servers running inside a test process, which make thousands of accounts: new hashes at 1/16 of the cost,
 * same scheme and same checks (at 50 ms a hash, the accounts alone cost the suite minutes of CPU).
 */
export function cheapenPasswordHashesForTests(): void {
  hashCost = 1_024;
  decoy = undefined;
}

/** Back to the production cost (a spec file that runs after test servers in the same process checks that cost). */
export function restorePasswordHashCost(): void {
  hashCost = N;
  decoy = undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, hashCost);
  return `scrypt$${hashCost}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to verify against when the user does not exist, so both paths take the same time. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
