import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey, type JWSHeaderParameters } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/db';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

const KEY_LOCK = 727_002; // advisory lock: processes starting at once must agree on one key
type KeyRow = { kid: string; private_jwk: JWK; public_jwk: JWK };

/**
 * The RS256 key pair lives in the database so every server instance signs and verifies alike.
 * Reading and creating happen under one advisory lock: two processes starting on an empty
 * database otherwise each create a key and refuse each other's tokens.
 */
export async function loadSigningKey(db: Db): Promise<SigningKey> {
  const row = await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [KEY_LOCK]);
    const found = (await q.query<KeyRow>('SELECT * FROM signing_keys ORDER BY created_at DESC, kid LIMIT 1'))[0];
    if (found) return found;
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
    await q.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4)', [
      kid,
      JSON.stringify(privateJwk),
      JSON.stringify(publicJwk),
      Date.now(),
    ]);
    return { kid, private_jwk: privateJwk, public_jwk: publicJwk };
  });
  return {
    kid: row.kid,
    privateKey: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(row.public_jwk, 'RS256')) as CryptoKey,
    publicJwk: row.public_jwk,
  };
}

// public keys of other kids met so far (kids are random UUIDs, so one map serves every database)
const known = new Map<string, CryptoKey>();

/**
 * How often a process re-reads the key table for a key id it does not know. A flood of tokens
 * with forged key ids then costs at most one query per interval (all callers share the one in
 * flight); a rotated key must be in the table this long before it signs (it is: rotation
 * publishes the new key in the JWKS first).
 */
export const KEY_REFRESH_MS = 5_000;
const KID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface KeyDirectory {
  checkedAt: number;
  loading?: Promise<void>;
}
// per process (its own signing key object): when it last read the table
const directories = new WeakMap<SigningKey, KeyDirectory>();

function refreshKeys(db: Queryable, dir: KeyDirectory, now: () => number): Promise<void> {
  dir.loading ??= (async () => {
    const rows = await db.query<{ kid: string; public_jwk: JWK }>('SELECT kid, public_jwk FROM signing_keys');
    for (const r of rows) if (!known.has(r.kid)) known.set(r.kid, (await importJWK(r.public_jwk, 'RS256')) as CryptoKey);
    dir.checkedAt = now();
  })().finally(() => {
    dir.loading = undefined;
  });
  return dir.loading;
}

/**
 * jose's key resolver for verifying: our own key, or a key another process signed with (a key
 * rotation, or a process that started before this one). An unknown key id re-reads the table at
 * most once per KEY_REFRESH_MS (single flight) before the token is refused; a key id that is not
 * a UUID (ours always are) is refused without a query.
 */
export function verificationKey(db: Queryable, key: SigningKey, now: () => number = Date.now) {
  return async (header: JWSHeaderParameters): Promise<CryptoKey> => {
    if (!header.kid || header.kid === key.kid) return key.publicKey;
    const cached = known.get(header.kid);
    if (cached) return cached;
    if (!KID.test(header.kid)) throw new Error('unknown key id');
    let dir = directories.get(key);
    if (!dir) directories.set(key, (dir = { checkedAt: -Infinity }));
    if (dir.loading || now() - dir.checkedAt >= KEY_REFRESH_MS) await refreshKeys(db, dir, now);
    const found = known.get(header.kid);
    if (!found) throw new Error('unknown key id');
    return found;
  };
}

/** Every public key in the database, newest first: the JWKS any process serves. */
export async function publicJwks(db: Queryable): Promise<JWK[]> {
  return (await db.query<{ public_jwk: JWK }>('SELECT public_jwk FROM signing_keys ORDER BY created_at DESC, kid')).map((r) => r.public_jwk);
}
