import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type CryptoKey, type JWK } from 'jose';
import type { Queryable } from '../db/db';
import { KEY_REFRESH_MS, verificationKey, type SigningKey } from './keys';

async function keyPair(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const kid = randomUUID();
  return { kid, privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256' } };
}
const sign = (k: Pick<SigningKey, 'privateKey'>, kid: string) => new SignJWT({ sub: 'u' }).setProtectedHeader({ alg: 'RS256', kid }).setIssuedAt().setExpirationTime('1h').sign(k.privateKey);

/** The signing_keys table as a process reads it, counting the reads. */
function table(rows: { kid: string; public_jwk: JWK }[]) {
  const db = {
    reads: 0,
    query: async (sql: string) => {
      expect(sql).toMatch(/FROM signing_keys/);
      db.reads++;
      await new Promise((r) => setTimeout(r, 5)); // a real round trip: concurrent callers overlap it
      return rows.map((r) => ({ ...r }));
    },
  };
  return db as typeof db & Queryable;
}

describe('verification keys: unknown key ids cost at most one read per interval (issue 17)', () => {
  it('a flood of tokens with forged key ids reads the key table once, and every one is refused', async () => {
    const own = await keyPair();
    const attacker = await keyPair();
    const db = table([{ kid: own.kid, public_jwk: own.publicJwk }]);
    let clock = 1_000_000;
    const resolve = verificationKey(db, own, () => clock);
    const forged = await Promise.all(Array.from({ length: 200 }, () => sign(attacker, randomUUID())));
    const results = await Promise.allSettled(forged.map((t) => jwtVerify(t, resolve)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(db.reads).toBe(1);
    // later forged ids inside the interval: no read at all; garbage ids never reach the table
    clock += KEY_REFRESH_MS - 1;
    await expect(jwtVerify(await sign(attacker, randomUUID()), resolve)).rejects.toThrow();
    await expect(jwtVerify(await sign(attacker, "x' OR 1=1 --"), resolve)).rejects.toThrow();
    expect(db.reads).toBe(1);
    // our own key never needs the table
    await expect(jwtVerify(await sign(own, own.kid), resolve)).resolves.toBeTruthy();
    expect(db.reads).toBe(1);
  });

  it('a key another process published is found at the next read and then cached', async () => {
    const own = await keyPair();
    const other = await keyPair();
    const rows = [{ kid: own.kid, public_jwk: own.publicJwk }];
    const db = table(rows);
    let clock = 5_000_000;
    const resolve = verificationKey(db, own, () => clock);
    await expect(jwtVerify(await sign(other, randomUUID()), resolve)).rejects.toThrow(); // a forged id: one read
    expect(db.reads).toBe(1);
    rows.push({ kid: other.kid, public_jwk: other.publicJwk }); // rotation on another process publishes its key
    clock += KEY_REFRESH_MS;
    await expect(jwtVerify(await sign(other, other.kid), resolve)).resolves.toBeTruthy();
    expect(db.reads).toBe(2);
    clock += 10 * KEY_REFRESH_MS;
    await expect(jwtVerify(await sign(other, other.kid), resolve)).resolves.toBeTruthy();
    expect(db.reads).toBe(2); // cached
  });
});
