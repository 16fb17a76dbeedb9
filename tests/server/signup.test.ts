import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { makeOrg, makeSensor } from './fixtures';
import { scryptParams } from '../../server/identity/passwords';

/** New hashes' prefix: OWASP's N=2^17 (passwords.test.ts), or the test suites' lower cost (vitest.config.ts). */
const SCRYPT_PREFIX = new RegExp(`^scrypt\\$${scryptParams().N}\\$8\\$1\\$`);

const PASSWORD = 'Demo-pass-2026!';

describe.each(testDrivers)('sign-up on %s (monitoring-client 2.3, 5, 7, 8; issue 3 "Sign-up is atomic")', (driver) => {
  let s: TestServer;
  let n = 0;
  // the unsigned calls allow 30 a minute per client address and the file's tests together send more:
  // each test starts in a fresh minute of the server's clock
  let clock = Date.now();
  beforeEach(() => {
    clock += 60_000;
  });
  const unclaimed = async () => makeSensor(s.ctx.db, null, { serial: `C0FF${(0xe000 + n++).toString(16).toUpperCase()}` });
  const body = (sensor: { serial: string; claimCode: string }, over: Record<string, string> = {}) => ({
    serial: sensor.serial,
    claimCode: sensor.claimCode,
    name: 'Ana Example',
    organisationName: 'Riverside Farms',
    email: `ana-${n++}@test.local`,
    password: PASSWORD,
    ...over,
  });
  const post = async (path: string, json: unknown) => {
    const res = await s.api(path, { method: 'POST', json });
    return { status: res.status, body: await res.json() };
  };
  const count = async (sql: string, params: unknown[]) => Number((await s.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0].n);

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
  });
  afterAll(() => s?.close());

  describe('POST /claim-sensor (unsigned)', () => {
    it('accepts the serial and claim code of an unclaimed sensor, whatever the case and surrounding spaces', async () => {
      const sensor = await unclaimed();
      expect(await post('/claim-sensor', { serial: ` ${sensor.serial.toLowerCase()} `, claimCode: `${sensor.claimCode.toUpperCase()}\n` })).toEqual({
        status: 200,
        body: { serial: sensor.serial },
      });
    });

    it('answers INVALID_CLAIM_CODE alike for a wrong code, an unknown serial and a claimed sensor', async () => {
      const sensor = await unclaimed();
      const org = await makeOrg(s.ctx.db);
      const claimed = await makeSensor(s.ctx.db, org.id);
      const answers = [
        await post('/claim-sensor', { serial: sensor.serial, claimCode: '00000000-0000-4000-8000-000000000000' }),
        await post('/claim-sensor', { serial: 'ABCDEF12', claimCode: sensor.claimCode }),
        await post('/claim-sensor', { serial: claimed.serial, claimCode: claimed.claimCode }),
      ];
      for (const a of answers) expect(a).toEqual({ status: 400, body: { code: 'INVALID_CLAIM_CODE', message: expect.stringContaining('Invalid claim code') } });
    });

    it('checks the formats first: INVALID_SERIAL, then INVALID_CLAIM_CODE', async () => {
      expect((await post('/claim-sensor', { serial: 'XYZ', claimCode: 'nope' })).body.code).toBe('INVALID_SERIAL');
      expect((await post('/claim-sensor', { serial: 'ABCDEF', claimCode: 'nope' })).body.code).toBe('INVALID_CLAIM_CODE');
      expect((await post('/claim-sensor', { serial: 'ABCDEF' })).body.code).toBe('INVALID_REQUEST');
    });
  });

  describe('POST /signup (unsigned)', () => {
    it('creates the account, the organisation, the owner membership and moves the sensor in, and emails a verification link', async () => {
      const sensor = await unclaimed();
      const b = body(sensor, { email: '  New.Owner@Test.local ', organisationName: "  O'Brien Water Co. " });
      const r = await post('/signup', b);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ organisation: { id: expect.any(String), slug: 'o-brien-water-co', name: "O'Brien Water Co." } });
      const user = (await s.ctx.db.query<Record<string, unknown>>('SELECT * FROM users WHERE email = $1', ['new.owner@test.local']))[0];
      expect(user).toMatchObject({ name: 'Ana Example', status: 'CONFIRMED', email_verified: false, profile_created: true });
      expect(user.password_hash).toMatch(SCRYPT_PREFIX);
      expect(await s.ctx.db.query('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [r.body.organisation.id, user.id])).toEqual([{ role: 3 }]);
      const moved = (await s.ctx.db.query<{ org_id: string; claimed_at: number }>('SELECT org_id, claimed_at FROM sensors WHERE serial = $1', [sensor.serial]))[0];
      expect(moved.org_id).toBe(r.body.organisation.id);
      expect(moved.claimed_at).toBeGreaterThan(0);
      const mail = (await s.ctx.db.query<{ payload: { kind: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1', ['new.owner@test.local']))[0];
      expect(mail.payload.kind).toBe('verification-code');
      expect(mail.payload.text).toMatch(new RegExp(`${s.url}/verify-email\\?code=\\d{6}`));
      // the new owner signs in with the password chosen in the wizard
      const signIn = await fetch(`${s.url}/identity`, {
        method: 'POST',
        headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth', 'content-type': 'application/x-amz-json-1.1' },
        body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: s.ctx.config.APP_CLIENT_ID, AuthParameters: { USERNAME: 'new.owner@test.local', PASSWORD } }),
      });
      const token = (await signIn.json()).AuthenticationResult.IdToken;
      const orgs = await (await s.api('/organisations', { token })).json();
      expect(orgs.organisations).toMatchObject([{ id: r.body.organisation.id, role: 3 }]);
      const sensors = await s.api(`/organisations/${r.body.organisation.id}/sensors`, { token });
      expect(sensors.status).toBe(200);
      expect(JSON.stringify(await sensors.json())).toContain(sensor.serial);
    });

    it('gives the organisation a unique slug: name, then name-2, name-3', async () => {
      const slugs = [];
      for (const organisationName of ['Twin Lakes', 'Twin-Lakes', "Twin Lakes'"]) slugs.push((await post('/signup', body(await unclaimed(), { organisationName }))).body.organisation.slug);
      expect(slugs).toEqual(['twin-lakes', 'twin-lakes-2', 'twin-lakes-3']);
    });

    it("refuses a name another organisation uses (case and spaces aside) with INVALID_ORG_NAME, creating nothing", async () => {
      expect((await post('/signup', body(await unclaimed(), { organisationName: 'Kauri Springs' }))).status).toBe(200);
      const sensor = await unclaimed();
      for (const organisationName of ['Kauri Springs', '  kauri   SPRINGS ']) {
        const r = await post('/signup', body(sensor, { email: 'second.kauri@test.local', organisationName }));
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: 'INVALID_ORG_NAME', message: 'An organisation with this name already exists. Please choose another name.' });
      }
      expect(await s.ctx.db.query('SELECT 1 FROM users WHERE email = $1', ['second.kauri@test.local'])).toEqual([]);
      expect((await s.ctx.db.query<{ org_id: string | null }>('SELECT org_id FROM sensors WHERE serial = $1', [sensor.serial]))[0]!.org_id).toBeNull();
    });

    it("answers the spec's codes, first failure first, and creates nothing", async () => {
      const sensor = await unclaimed();
      await post('/signup', body(await unclaimed(), { email: 'exists@test.local' }));
      const cases: [Record<string, string>, string, string?][] = [
        [{ serial: 'nothex' }, 'INVALID_SERIAL'],
        [{ claimCode: 'bad' }, 'INVALID_CLAIM_CODE'],
        [{ claimCode: '00000000-0000-4000-8000-000000000000' }, 'INVALID_CLAIM_CODE'],
        [{ name: ' ' }, 'INVALID_NAME'],
        [{ name: 'x'.repeat(61) }, 'INVALID_NAME'],
        [{ organisationName: 'Acme & Co' }, 'INVALID_ORG_NAME', "Only the following symbols are allowed: '.-"],
        [{ organisationName: '2024' }, 'INVALID_ORG_NAME', 'Must contain at least 1 letter'],
        [{ email: 'not-an-email' }, 'INVALID_EMAIL'],
        [{ email: 'EXISTS@test.local' }, 'INVALID_EMAIL', 'An account with this email already exists.'],
        [{ password: 'password1' }, 'INVALID_PASSWORD'],
        [{ serial: 'nothex', email: 'bad' }, 'INVALID_SERIAL'],
      ];
      const users = await count('users', []);
      for (const [over, code, message] of cases) {
        const r = await post('/signup', body(sensor, over));
        expect(r.status, code).toBe(400);
        expect(r.body.code).toBe(code);
        if (message) expect(r.body.message).toBe(message);
      }
      expect(await count('users', [])).toBe(users);
      expect(await count('sensors WHERE serial = $1 AND org_id IS NULL', [sensor.serial])).toBe(1);
    });

    it('is all or nothing: a failure at the last step leaves no account, organisation, membership or claimed sensor', async () => {
      // a fault injected into the last write of the transaction (the verification email)
      await s.ctx.db.exec(`
        CREATE OR REPLACE FUNCTION fail_outbox() RETURNS trigger AS $$
        BEGIN IF NEW.recipient = 'boom@test.local' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER fail_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION fail_outbox();`);
      try {
        const sensor = await unclaimed();
        const r = await post('/signup', body(sensor, { email: 'boom@test.local', organisationName: 'Doomed Org' }));
        expect(r.status).toBe(500);
        expect(await count('users WHERE email = $1', ['boom@test.local'])).toBe(0);
        expect(await count('organisations WHERE name = $1', ['Doomed Org'])).toBe(0);
        expect(await count('sensors WHERE serial = $1 AND org_id IS NULL AND claimed_at IS NULL', [sensor.serial])).toBe(1);
        expect(await count('memberships m LEFT JOIN users u ON u.id = m.user_id WHERE u.id IS NULL', [])).toBe(0);
        // and the same sensor can still be claimed afterwards
        expect((await post('/signup', body(sensor, { organisationName: 'Doomed Org' }))).status).toBe(200);
      } finally {
        await s.ctx.db.exec('DROP TRIGGER fail_outbox ON outbox; DROP FUNCTION fail_outbox();');
      }
    });

    it('a sensor can be claimed only once, even by simultaneous sign-ups', async () => {
      const sensor = await unclaimed();
      const results = await Promise.all([0, 1, 2].map((i) => post('/signup', body(sensor, { organisationName: `Race ${'abc'[i]}` }))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
      for (const r of results.filter((x) => x.status === 400)) expect(r.body.code).toBe('INVALID_CLAIM_CODE');
      expect(await count("organisations WHERE name LIKE 'Race %'", [])).toBe(1);
      expect((await post('/signup', body(sensor))).body.code).toBe('INVALID_CLAIM_CODE');
      expect((await post('/claim-sensor', { serial: sensor.serial, claimCode: sensor.claimCode })).body.code).toBe('INVALID_CLAIM_CODE');
    });
  });
});
