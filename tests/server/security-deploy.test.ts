import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { loadConfig } from '../../server/config';
import { autovacuumWarning, demoExposureWarning } from '../../server/start';
import { createUser } from '../../server/cli/create-user';
import { freshDb, startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, cognitoClient, externalAddress, rawRequest } from './security-helpers';

describe('demo mode belongs to the embedded default only (issue 9, deployment safety)', () => {
  it('is on with no environment, off with DATABASE_URL or NODE_ENV=production unless asked for', () => {
    expect(loadConfig({})).toMatchObject({ DEMO_MODE: true, SEED_DEMO: true });
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/tw', PUBLIC_URL: 'https://tw.example' })).toMatchObject({ DEMO_MODE: false, SEED_DEMO: false });
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ DEMO_MODE: false, SEED_DEMO: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/tw', PUBLIC_URL: 'https://tw.example', DEMO_MODE: 'true' })).toMatchObject({ DEMO_MODE: true, SEED_DEMO: true });
    expect(loadConfig({ DEMO_MODE: 'true', SEED_DEMO: 'false' })).toMatchObject({ DEMO_MODE: true, SEED_DEMO: false });
  });

  it('the stage (sensor-setup 2: radar hidden in production) is development for the embedded demo, production with DATABASE_URL or NODE_ENV=production, or as STAGE says', () => {
    expect(loadConfig({}).STAGE).toBe('development');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/tw', PUBLIC_URL: 'https://tw.example' }).STAGE).toBe('production');
    expect(loadConfig({ NODE_ENV: 'production' }).STAGE).toBe('production');
    expect(loadConfig({ NODE_ENV: 'production', STAGE: 'development' }).STAGE).toBe('development');
    expect(loadConfig({ STAGE: 'production' }).STAGE).toBe('production');
    expect(() => loadConfig({ STAGE: 'staging' })).toThrow(/STAGE/);
  });

  it("Myriota messages must carry Myriota's signature in a deployment; the embedded demo does not ask unless told to (issue 39)", () => {
    expect(loadConfig({}).MYRIOTA_SIGNATURE).toBe('off');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/tw', PUBLIC_URL: 'https://tw.example' }).MYRIOTA_SIGNATURE).toBe('verify');
    expect(loadConfig({ NODE_ENV: 'production' }).MYRIOTA_SIGNATURE).toBe('verify');
    expect(loadConfig({ MYRIOTA_SIGNATURE: 'verify' }).MYRIOTA_SIGNATURE).toBe('verify');
    expect(() => loadConfig({ MYRIOTA_SIGNATURE: 'maybe' })).toThrow(/MYRIOTA_SIGNATURE/);
  });

  it('start-up warns when demo mode is on and the server listens beyond loopback', () => {
    expect(demoExposureWarning(loadConfig({ HOST: '0.0.0.0' }))).toMatch(/DEMO MODE is on/);
    expect(demoExposureWarning(loadConfig({ HOST: '127.0.0.1' }))).toBeNull();
    expect(demoExposureWarning(loadConfig({ HOST: '0.0.0.0', DEMO_MODE: 'false' }))).toBeNull();
  });
});

describe.each(testDrivers)('start-up checks of the database on %s', (driver) => {
  it('warns when PostgreSQL runs without autovacuum (the tables each uplink rewrites would bloat), and never on PGlite', async () => {
    const { db, drop } = await freshDb(driver);
    try {
      const warning = await autovacuumWarning(db);
      if (driver === 'pglite') return expect(warning).toBeNull();
      const [s] = await db.query<{ a: string; t: string }>("SELECT current_setting('autovacuum') AS a, current_setting('track_counts') AS t");
      if (s.a === 'on' && s.t === 'on') expect(warning).toBeNull();
      else expect(warning).toMatch(new RegExp(`autovacuum is not running \\(autovacuum = ${s.a}, track_counts = ${s.t}\\)`));
    } finally {
      await drop();
    }
  });
});

describe.each(testDrivers)('deployment safety on %s', (driver) => {
  describe('demo server listening on every interface', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(driver, { HOST: '0.0.0.0', IDENTITY_SELF_SIGN_UP: 'true' }); // a verification email through SignUp
    });
    afterAll(() => s?.close());

    it('/dev/mailbox answers loopback clients only, whatever X-Forwarded-For says', async () => {
      expect((await fetch(`http://127.0.0.1:${s.port}/dev/mailbox`)).status).toBe(200);
      const outside = await fetch(`http://${externalAddress()}:${s.port}/dev/mailbox`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(outside.status).toBe(404);
    });

    it('a forged Host header never reaches /config.json or email links', async () => {
      const cfg = await rawRequest(`http://127.0.0.1:${s.port}/config.json`, { host: 'evil.example' });
      expect(cfg.text).not.toContain('evil.example');
      expect(JSON.parse(cfg.text).api.endpoint).toBe(`http://localhost:${s.port}/api`);
      expect(JSON.parse(cfg.text).stage).toBe('development');
      const loopbackHost = await rawRequest(`http://127.0.0.1:${s.port}/config.json`, { host: `127.0.0.1:${s.port}` });
      expect(JSON.parse(loopbackHost.text).api.endpoint).toBe(`http://127.0.0.1:${s.port}/api`);

      const signUp = await rawRequest(`http://127.0.0.1:${s.port}/identity`, {
        method: 'POST',
        host: 'evil.example',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp' },
        body: JSON.stringify({ ClientId: CLIENT, Username: 'host-header@deploy.test', Password: 'Strong-pass-2026!' }),
      });
      expect(signUp.status).toBe(200);
      const [mail] = await s.ctx.db.query<{ payload: { text: string } }>('SELECT payload FROM outbox WHERE recipient = $1', ['host-header@deploy.test']);
      expect(mail!.payload.text).toContain('/verify-email?code=');
      expect(mail!.payload.text).not.toContain('evil.example');
    });
  });

  describe('with DATABASE_URL (a real deployment)', () => {
    let s: TestServer;
    beforeAll(async () => {
      // the harness hands the server its database; DATABASE_URL here only says "not the embedded default"
      s = await startTestServer(driver, { DATABASE_URL: 'postgres://db.example/tidewatch', SEED_DEMO: '', PUBLIC_URL: 'https://tidewatch.example' });
    });
    afterAll(() => s?.close());

    it('seeds no demo accounts and serves no mailbox, even to loopback', async () => {
      expect(s.ctx.config.DEMO_MODE).toBe(false);
      expect(await s.ctx.db.query('SELECT 1 FROM users')).toHaveLength(0);
      expect((await fetch(`${s.url}/dev/mailbox`)).status).toBe(404);
    });

    it('links and /config.json use PUBLIC_URL', async () => {
      const cfg = await rawRequest(`${s.url}/config.json`, { host: 'evil.example' });
      expect(JSON.parse(cfg.text)).toMatchObject({ api: { endpoint: 'https://tidewatch.example/api' }, demo: false, stage: 'production' });
    });

    it('create-user makes the first owner and site admin, who must choose a new password and set up two-factor authentication at first sign-in', async () => {
      const cognito = cognitoClient(() => s);
      const made = await createUser(s.ctx.db, { email: 'First.Admin@Deploy.test', siteAdmin: true, org: 'Riverside Council' });
      expect(made.organisation).toMatchObject({ name: 'Riverside Council', slug: 'riverside-council' });
      const first = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: 'first.admin@deploy.test', PASSWORD: made.temporaryPassword } });
      expect(first.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
      const done = await cognito('RespondToAuthChallenge', {
        ClientId: CLIENT,
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: first.body.Session,
        ChallengeResponses: { USERNAME: 'first.admin@deploy.test', NEW_PASSWORD: 'Own-choice-2026!' },
      });
      // a site admin must use two-factor authentication: set up before the first tokens (MFA_SETUP)
      expect(done.body).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } });
      const setup = await cognito('AssociateSoftwareToken', { Session: done.body.Session });
      const code = new TOTP({ secret: Secret.fromBase32(setup.body.SecretCode), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
      const verified = await cognito('VerifySoftwareToken', { Session: setup.body.Session, UserCode: code });
      const signedIn = await cognito('RespondToAuthChallenge', {
        ClientId: CLIENT,
        ChallengeName: 'MFA_SETUP',
        Session: verified.body.Session,
        ChallengeResponses: { USERNAME: 'first.admin@deploy.test' },
      });
      expect(signedIn.status).toBe(200);
      expect(decodeJwt(signedIn.body.AuthenticationResult.IdToken)['cognito:groups']).toEqual(['site-admins']);
      const orgs = await (await s.api('/organisations', { token: signedIn.body.AuthenticationResult.IdToken })).json();
      expect(JSON.stringify(orgs)).toContain('Riverside Council');
      // the temporary password is spent
      const again = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: 'first.admin@deploy.test', PASSWORD: made.temporaryPassword } });
      expect(again.body.__type).toBe('NotAuthorizedException');
      await expect(createUser(s.ctx.db, { email: 'first.admin@deploy.test' })).rejects.toThrow(/already exists/);
    });
  });

  describe('source maps', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-static-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'app-1.js'), 'console.log(1)\n//# sourceMappingURL=app-1.js.map');
    writeFileSync(join(dir, 'assets', 'app-1.js.map'), '{"version":3}');
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('are not served unless SERVE_SOURCE_MAPS=true', async () => {
      for (const [flag, status] of [['false', 404], ['true', 200]] as const) {
        const s = await startTestServer(driver, { STATIC_DIR: dir, SERVE_SOURCE_MAPS: flag });
        try {
          expect((await fetch(`${s.url}/assets/app-1.js`)).status).toBe(200);
          expect((await fetch(`${s.url}/assets/app-1.js.map`)).status).toBe(status);
        } finally {
          await s.close();
        }
      }
    });
  });
});
