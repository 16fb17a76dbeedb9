import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hashQueue } from './hash-queue';

/** How many scrypt runs this process has done: tests compare the work of two answers by it. */
export const hashWork = { runs: 0 };

// every run waits its turn in the fair queue (hash-queue.ts), so a flood cannot starve others
const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  hashQueue.run(() => {
    hashWork.runs += 1;
    return new Promise<Buffer>((resolve, reject) => scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));
  });

/** OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1 (memory-hard, ~128 MiB). */
export const SCRYPT_LOG2_N = 17;

/**
 * The cost new hashes are made with: OWASP's, unless a test suite that is not about hashing lowers it
 * with TEST_SCRYPT_LOG2_N (10 to 17; vitest.config.ts). A server with NODE_ENV=production refuses
 * to start with it. A stored hash names its own cost, so verifying reads it from the hash.
 */
export function scryptParams(env: NodeJS.ProcessEnv = process.env) {
  const raw = env.TEST_SCRYPT_LOG2_N;
  if (raw === undefined || raw === '') return { N: 2 ** SCRYPT_LOG2_N, r: 8, p: 1 };
  if (env.NODE_ENV === 'production') throw new Error('TEST_SCRYPT_LOG2_N lowers the password hash cost for test suites; a production server does not accept it');
  const log2 = Number(raw);
  if (!Number.isInteger(log2) || log2 < 10 || log2 > SCRYPT_LOG2_N) throw new Error(`TEST_SCRYPT_LOG2_N must be a whole number from 10 to ${SCRYPT_LOG2_N}, not '${raw}'`);
  return { N: 2 ** log2, r: 8, p: 1 };
}

const PARAMS = scryptParams();
const KEYLEN = 32;
const MAXMEM = 256 * 1024 * 1024;

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64) so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...PARAMS, maxmem: MAXMEM });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return timingSafeEqual(key, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one (no user enumeration by timing). */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(12).toString('hex')));
