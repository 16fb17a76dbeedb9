import { describe, expect, it } from 'vitest';
import { hashPassword, scryptParams, verifyPassword } from './passwords';

describe('password hash cost', () => {
  it("is OWASP's scrypt N=2^17, r=8, p=1 unless a test suite lowers it", () => {
    expect(scryptParams({})).toEqual({ N: 131_072, r: 8, p: 1 });
    expect(scryptParams({ TEST_SCRYPT_LOG2_N: '' })).toEqual({ N: 131_072, r: 8, p: 1 });
    expect(scryptParams({ TEST_SCRYPT_LOG2_N: '14' })).toEqual({ N: 16_384, r: 8, p: 1 });
  });

  it('refuses the lowered cost in production and any value outside 10 to 17', () => {
    expect(() => scryptParams({ TEST_SCRYPT_LOG2_N: '14', NODE_ENV: 'production' })).toThrow(/production server does not accept it/);
    for (const bad of ['9', '18', '14.5', 'fast', '-1']) expect(() => scryptParams({ TEST_SCRYPT_LOG2_N: bad })).toThrow(/from 10 to 17/);
  });

  it('verifies a hash at the cost written in it, whatever the cost of new hashes', async () => {
    const hash = await hashPassword('correct horse');
    const [, n] = hash.split('$');
    const strong = hash.replace(/^scrypt\$\d+\$/, 'scrypt$131072$');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    // the same salt and key under another cost is another hash
    if (n !== '131072') expect(await verifyPassword('correct horse', strong)).toBe(false);
  });
});
