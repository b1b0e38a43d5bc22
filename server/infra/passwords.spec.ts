/** Password hashes: scrypt at 2^14 in production; a hash names its own cost, so one made cheaper still verifies. */
import { beforeEach, describe, expect, it } from 'vitest';
import { cheapenPasswordHashesForTests, decoyHash, hashPassword, restorePasswordHashCost, verifyPassword } from './passwords';

describe('password hashes', () => {
  // Test servers started earlier in this process (spec files share it) made new hashes cheap.
  beforeEach(restorePasswordHashCost);

  it('are scrypt at N=16384, r=8, p=1 with a fresh salt, and verify only the right password', async () => {
    const [first, second] = await Promise.all([hashPassword('abc123'), hashPassword('abc123')]);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('abc123', first)).toBe(true);
    expect(await verifyPassword('abc124', first)).toBe(false);
    // Compatibility forms of the same characters are one password (NFKC).
    expect(await verifyPassword('ａｂｃ１２３', first)).toBe(true);
    expect(await verifyPassword('abc123', 'bcrypt$whatever')).toBe(false);
  });

  it('made cheaper for test servers: new hashes name the lower cost and verify; the production ones still verify', async () => {
    const strong = await hashPassword('abc123');
    cheapenPasswordHashesForTests();
    const cheap = await hashPassword('abc123');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('abc123', cheap)).toBe(true);
    expect(await verifyPassword('abc124', cheap)).toBe(false);
    expect(await verifyPassword('abc123', strong)).toBe(true);
    expect(await decoyHash()).toMatch(/^scrypt\$1024\$/);
  });
});
