import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, cognitoClient, type CognitoAnswer } from './security-helpers';
import { dummyHash, hashPassword, hashWork } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

const PASSWORD = 'Demo-pass-2026!';
const WRONG = 'Wrong-pass-2026!';

/** The answer of one call and the password hashing it cost. */
async function measured(call: () => Promise<CognitoAnswer>) {
  const before = hashWork.runs;
  const answer = await call();
  return { status: answer.status, body: answer.body, hashes: hashWork.runs - before };
}

describe.each(testDrivers)('identity abuse on %s (issue 9)', (driver) => {
  describe('known and unknown addresses answer alike, with the same hashing work', () => {
    let s: TestServer;
    const clock = Date.now();
    const cognito = cognitoClient(() => s);
    const signIn = (email: string, password: string) =>
      measured(() => cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: email, PASSWORD: password } }));
    beforeAll(async () => {
      s = await startTestServer(driver, {}, { now: () => clock });
      await dummyHash();
      const hash = await hashPassword(PASSWORD);
      for (const email of ['known@abuse.test', 'confirmed@abuse.test'])
        await insertUser(s.ctx.db, { email, name: 'K', passwordHash: hash, status: 'CONFIRMED', emailVerified: true, profileCreated: true }, clock);
    });
    afterAll(() => s?.close());

    it('sign-in and lockout: the same answers, one hash each, for a real and an unknown address', async () => {
      const known = [];
      const unknown = [];
      for (let i = 0; i < 7; i++) {
        known.push(await signIn('known@abuse.test', WRONG));
        unknown.push(await signIn('nobody@abuse.test', WRONG));
      }
      // locked now: even the right password of the real account answers like the unknown one
      known.push(await signIn('known@abuse.test', PASSWORD));
      unknown.push(await signIn('nobody@abuse.test', PASSWORD));
      expect(known).toEqual(unknown);
      expect(known.map((a) => a.hashes)).toEqual(Array(8).fill(1));
      expect(known.map((a) => a.body.message)).toEqual([...Array(5).fill('Incorrect username or password.'), ...Array(3).fill('Password attempts exceeded')]);
    }, 180_000);

    it('ConfirmForgotPassword and ConfirmSignUp answer alike for real, confirmed and unknown addresses', async () => {
      await cognito('ForgotPassword', { ClientId: CLIENT, Username: 'confirmed@abuse.test' });
      await cognito('ForgotPassword', { ClientId: CLIENT, Username: 'ghost@abuse.test' });
      const reset = (Username: string) => measured(() => cognito('ConfirmForgotPassword', { ClientId: CLIENT, Username, ConfirmationCode: '000000', Password: 'Next-choice-2026#' }));
      const confirm = (Username: string) => measured(() => cognito('ConfirmSignUp', { ClientId: CLIENT, Username, ConfirmationCode: '000000' }));
      const answers = [];
      for (const email of ['confirmed@abuse.test', 'ghost@abuse.test', 'known@abuse.test']) answers.push([await reset(email), await confirm(email)]);
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[2]).toEqual(answers[1]);
      expect(answers[1]![0]).toMatchObject({ body: { __type: 'CodeMismatchException' }, hashes: 0 });
      expect(JSON.stringify(answers)).not.toContain('CONFIRMED');
    });
  });

  describe('rate limits', () => {
    let s: TestServer;
    const cognito = cognitoClient(() => s);
    const attempt = (email: string, from: string) =>
      cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: email, PASSWORD: WRONG } }, { 'x-forwarded-for': from });
    beforeAll(async () => {
      s = await startTestServer(driver, { TRUST_PROXY: '1', IDENTITY_RATE_PER_ADDRESS: '4', IDENTITY_RATE_PER_ACCOUNT: '6' });
    });
    afterAll(() => s?.close());

    it('per client address and per target account, on every operation, answer TooManyRequestsException', async () => {
      for (let i = 0; i < 4; i++) expect((await attempt(`a${i}@limit.test`, '203.0.113.1')).body.__type).toBe('NotAuthorizedException');
      expect((await attempt('a9@limit.test', '203.0.113.1')).body.__type).toBe('TooManyRequestsException');
      const forgot = await cognito('ForgotPassword', { ClientId: CLIENT, Username: 'x@limit.test' }, { 'x-forwarded-for': '203.0.113.1' });
      expect(forgot.body.__type).toBe('TooManyRequestsException');
      // another address is not held back by the first one's flood
      expect((await attempt('b@limit.test', '203.0.113.2')).body.__type).toBe('NotAuthorizedException');
      // one account tried from many addresses
      for (let i = 0; i < 6; i++) expect((await attempt('target@limit.test', `198.51.100.${i}`)).body.__type).toBe('NotAuthorizedException');
      expect((await attempt('target@limit.test', '198.51.100.77')).body.__type).toBe('TooManyRequestsException');
    }, 180_000);

    it('a forged left-most X-Forwarded-For entry does not dodge the limit: the proxy’s entry counts (issue 35)', async () => {
      // TRUST_PROXY=1: the one proxy appends the address it saw; everything left of it the client wrote
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push((await attempt(`f${i}@limit.test`, `192.0.2.${i}, 203.0.113.50`)).body.__type);
      expect(answers).toEqual([...Array(4).fill('NotAuthorizedException'), 'TooManyRequestsException']);
    }, 180_000);

    it('without TRUST_PROXY, X-Forwarded-For is ignored: the socket address counts', async () => {
      const direct = await startTestServer(driver, { IDENTITY_RATE_PER_ADDRESS: '2' });
      const call = cognitoClient(() => direct);
      try {
        const answers = [];
        for (let i = 0; i < 3; i++)
          answers.push((await call('ForgotPassword', { ClientId: CLIENT, Username: `c${i}@limit.test` }, { 'x-forwarded-for': `192.0.2.${i}` })).body.__type);
        expect(answers).toEqual([undefined, undefined, 'TooManyRequestsException']);
      } finally {
        await direct.close();
      }
    }, 120_000);
  });
});
