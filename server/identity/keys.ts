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
 * jose's key resolver for verifying: our own key, or a key another process signed with (a key
 * rotation, or a process that started before this one), re-read from the database before the
 * token is refused.
 */
export function verificationKey(db: Queryable, key: SigningKey) {
  return async (header: JWSHeaderParameters): Promise<CryptoKey> => {
    if (!header.kid || header.kid === key.kid) return key.publicKey;
    const cached = known.get(header.kid);
    if (cached) return cached;
    const row = (await db.query<{ public_jwk: JWK }>('SELECT public_jwk FROM signing_keys WHERE kid = $1', [header.kid]))[0];
    if (!row) throw new Error('unknown key id');
    const pub = (await importJWK(row.public_jwk, 'RS256')) as CryptoKey;
    known.set(header.kid, pub);
    return pub;
  };
}

/** Every public key in the database, newest first: the JWKS any process serves. */
export async function publicJwks(db: Queryable): Promise<JWK[]> {
  return (await db.query<{ public_jwk: JWK }>('SELECT public_jwk FROM signing_keys ORDER BY created_at DESC, kid')).map((r) => r.public_jwk);
}
