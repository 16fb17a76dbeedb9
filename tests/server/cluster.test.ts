import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { loadConfig } from '../../server/config';
import { startServer, type RunningServer } from '../../server/start';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';
import { issueTokens } from '../../server/identity/tokens';
import { exportJWK, generateKeyPair } from 'jose';
import { randomUUID } from 'node:crypto';
import { serviceUrl } from './services';
import { emptyPostgres } from './cluster-helpers';
import { cognitoClient } from './security-helpers';

const pgUrl = serviceUrl('postgres');
const migrationFiles = readdirSync(join(import.meta.dirname, '../../server/db/migrations')).filter((f) => f.endsWith('.sql'));

describe('configuration for a shared database', () => {
  it('DATABASE_URL without PUBLIC_URL refuses to start, naming PUBLIC_URL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.example/tw' })).toThrow(/PUBLIC_URL: is required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/tw', PUBLIC_URL: 'https://tw.example' }).PUBLIC_URL).toBe('https://tw.example');
  });
});

describe.skipIf(!pgUrl)('several processes on one PostgreSQL database (issue 17)', () => {
  it('start at once on an empty database: every one migrates without error, each migration applied once', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    // separate pools stand in for separate processes: each has its own connections
    const dbs = await Promise.all(Array.from({ length: 6 }, () => openDb({ databaseUrl: store.url })));
    try {
      const results = await Promise.allSettled(dbs.map((db) => migrate(db)));
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const applied = results.map((r) => (r.status === 'fulfilled' ? r.value : []));
      // exactly one of them applied the migrations; the rest found them done
      expect(applied.flat().sort()).toEqual([...migrationFiles].sort());
      const rows = await dbs[0].query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([...migrationFiles].sort());
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await store.drop();
    }
  });

  it('two servers started at once accept each other\'s tokens: one issuer, one signing key', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    const config = loadConfig({ DATABASE_URL: store.url, PUBLIC_URL: 'https://tidewatch.example', PORT: '0', HOST: '127.0.0.1', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
    // no db passed: each opens its own pool, migrates and loads the key as a separate process would
    const servers: RunningServer[] = await Promise.all([startServer(config, { background: false }), startServer(config, { background: false })]);
    const [a, b] = servers;
    try {
      expect(a.ctx.key.kid).toBe(b.ctx.key.kid);
      expect(a.ctx.tokens.issuer).toBe(b.ctx.tokens.issuer);
      const PASSWORD = 'Cluster-pass-1234';
      await insertUser(a.ctx.db, { email: 'two@test.local', name: 'Two', passwordHash: await hashPassword(PASSWORD), status: 'CONFIRMED', emailVerified: true, profileCreated: true }, Date.now());
      const signIn = await cognitoClient(() => a)('InitiateAuth', { ClientId: 'tidewatch-web', AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'two@test.local', PASSWORD } });
      expect(signIn.body).toMatchObject({ AuthenticationResult: {} });
      const idToken = signIn.body.AuthenticationResult.IdToken as string;
      for (const s of [a, b]) {
        const res = await fetch(`${s.url}/api/organisations`, { headers: { Authorization: idToken } });
        expect(res.status).toBe(200);
      }
      // the refresh token signed on A renews on B
      const refreshed = await cognitoClient(() => b)('InitiateAuth', { ClientId: 'tidewatch-web', AuthFlow: 'REFRESH_TOKEN_AUTH', AuthParameters: { REFRESH_TOKEN: signIn.body.AuthenticationResult.RefreshToken } });
      expect(refreshed.body.AuthenticationResult?.IdToken).toEqual(expect.any(String));
      // both serve the same JWKS
      const jwks = await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/identity/local_demo/.well-known/jwks.json`)).json()));
      expect(jwks[0]).toEqual(jwks[1]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await store.drop();
    }
  });

  it('a verifier that does not know a token\'s key id re-reads the keys from the database (a key rotated in by another process)', { timeout: 60_000 }, async () => {
    const store = await emptyPostgres();
    const config = loadConfig({ DATABASE_URL: store.url, PUBLIC_URL: 'https://tidewatch.example', PORT: '0', HOST: '127.0.0.1', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
    const a = await startServer(config, { background: false });
    let b: RunningServer | undefined;
    try {
      // a newer key appears after A started (as a rotation would add it); B, started later, signs with it
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
      const kid = randomUUID();
      await a.ctx.db.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4)', [
        kid,
        JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'RS256' }),
        JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }),
        Date.now() + 1000,
      ]);
      b = await startServer(config, { background: false });
      expect(b.ctx.key.kid).toBe(kid);
      const userId = await insertUser(a.ctx.db, { email: 'rot@test.local', name: 'Rot', passwordHash: 'x', status: 'CONFIRMED', emailVerified: true, profileCreated: true }, Date.now());
      const token = (await issueTokens(b.ctx.db, b.ctx.key, b.ctx.tokens, { id: userId, email: 'rot@test.local', name: 'Rot', email_verified: true, is_site_admin: false })).IdToken;
      const viaA = await fetch(`${a.url}/api/organisations`, { headers: { Authorization: token } });
      expect([viaA.status, viaA.status === 200 ? '' : await viaA.text()]).toEqual([200, '']);
      // a key id nobody has is still refused
      const forged = token.replace(/^[^.]+/, Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'nope', typ: 'JWT' })).toString('base64url'));
      expect((await fetch(`${a.url}/api/organisations`, { headers: { Authorization: forged } })).status).toBe(401);
    } finally {
      await b?.stop();
      await a.stop();
      await store.drop();
    }
  });
});
