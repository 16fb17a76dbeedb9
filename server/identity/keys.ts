import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/** The RS256 key pair lives in the database so every server instance signs and verifies alike. */
export async function loadSigningKey(db: Db): Promise<SigningKey> {
  let row = (await db.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>('SELECT * FROM signing_keys ORDER BY created_at DESC LIMIT 1'))[0];
  if (!row) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
    await db.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      kid,
      JSON.stringify(privateJwk),
      JSON.stringify(publicJwk),
      Date.now(),
    ]);
    row = (await db.query<{ kid: string; private_jwk: JWK; public_jwk: JWK }>('SELECT * FROM signing_keys ORDER BY created_at DESC LIMIT 1'))[0];
  }
  return {
    kid: row.kid,
    privateKey: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey,
    publicKey: (await importJWK(row.public_jwk, 'RS256')) as CryptoKey,
    publicJwk: row.public_jwk,
  };
}
