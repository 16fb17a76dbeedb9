import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, setUpTOTP, signIn, signOut, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { identityAccounts } from './security-helpers';

/**
 * A lost authenticator (issue 35): recovery codes, made after TOTP MFA is on (the password proved
 * again on this sign-in), shown once, kept only as hashes, each accepted once at the sign-in's code
 * step through aws-amplify's confirmSignIn (the SOFTWARE_TOKEN_MFA challenge) in place of a code.
 */
const PASSWORD = 'Demo-pass-2026!';
const EMAIL = 'lost-phone@recovery.test';

describe.each(testDrivers)('MFA recovery codes on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  let secret = '';
  let codes: string[] = [];
  const accounts = identityAccounts(() => s, PASSWORD);
  const totp = (at = clock) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
  const failure = (p: Promise<unknown>) => p.then(() => ({ name: 'resolved', message: '' }), (e: Error) => ({ name: e.name, message: e.message }));
  const idToken = async () => (await fetchAuthSession()).tokens?.idToken?.toString();
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await s.api(path, { method, token: await idToken(), json });
    return { status: res.status, body: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
  };
  const signInStep = async () => (await signIn({ username: EMAIL, password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })).nextStep.signInStep;
  const notices = async () =>
    (await s.ctx.db.query<{ payload: { kind: string; subject: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at', [EMAIL]))
      .filter((m) => m.payload.kind === 'security-notice')
      .map((m) => m.payload.subject.replace(/^Tidewatch: /, ''));

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
    Amplify.configure({
      Auth: { Cognito: { userPoolId: s.ctx.config.USER_POOL_ID, userPoolClientId: s.ctx.config.APP_CLIENT_ID, userPoolEndpoint: `${s.url}/identity` } },
    });
    await accounts.account(EMAIL);
  });
  afterAll(async () => {
    await signOut().catch(() => {});
    await s?.close();
  });

  it('makes ten codes once MFA is on and the password was proved again; only their hashes are kept', async () => {
    expect(await signInStep()).toBe('DONE');
    expect(await call('POST', '/mfa/recovery-codes')).toMatchObject({ status: 409, body: { code: 'MFA_NOT_ON' } });
    secret = (await setUpTOTP()).sharedSecret;
    await verifyTOTPSetup({ code: totp() });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await call('POST', '/mfa/recovery-codes')).toMatchObject({ status: 403, body: { code: 'REAUTHENTICATION_REQUIRED' } });
    expect((await call('POST', '/reauthenticate', { password: PASSWORD })).status).toBe(204);
    const made = await call('POST', '/mfa/recovery-codes');
    expect(made.status).toBe(200);
    codes = made.body.codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{4}(-[a-hjkmnp-z2-9]{4}){3}$/);
    expect(await call('GET', '/mfa/recovery-codes')).toEqual({ status: 200, body: { remaining: 10 } });
    const stored = JSON.stringify(await s.ctx.db.query('SELECT * FROM mfa_recovery_codes'));
    for (const c of codes) {
      expect(stored).not.toContain(c);
      expect(stored).not.toContain(c.replace(/-/g, ''));
    }
    expect(await notices()).toContain('New recovery codes were made');
    await signOut();
  });

  it('signs in with a recovery code in place of the app’s code, once; the account is told', async () => {
    clock += 30_000;
    expect(await signInStep()).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    // as people type it from paper: another case, no hyphens
    expect(await confirmSignIn({ challengeResponse: codes[0]!.toUpperCase().replace(/-/g, ' ') })).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    expect(await call('GET', '/mfa/recovery-codes')).toEqual({ status: 200, body: { remaining: 9 } });
    expect(await notices()).toContain('A recovery code was used to sign in');
    await signOut();
    expect(await signInStep()).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect(await failure(confirmSignIn({ challengeResponse: codes[0]! }))).toEqual({ name: 'CodeMismatchException', message: 'Invalid code received for user' });
    // a made-up code is a wrong code, counted in the sign-in lockout
    const before = (await s.ctx.db.query<{ failed_logins: number }>('SELECT failed_logins FROM users WHERE email = $1', [EMAIL]))[0]!.failed_logins;
    expect(await failure(confirmSignIn({ challengeResponse: 'abcd-efgh-jkmn-pqrs' }))).toMatchObject({ name: 'CodeMismatchException' });
    const after = (await s.ctx.db.query<{ failed_logins: number }>('SELECT failed_logins FROM users WHERE email = $1', [EMAIL]))[0]!.failed_logins;
    expect(after).toBe(before + 1);
    expect(await confirmSignIn({ challengeResponse: codes[1]! })).toMatchObject({ isSignedIn: true });
  });

  it('new codes replace the old, and turning MFA off removes them', async () => {
    expect((await call('POST', '/reauthenticate', { password: PASSWORD })).status).toBe(204);
    const fresh = (await call('POST', '/mfa/recovery-codes')).body.codes as string[];
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    await updateMFAPreference({ totp: 'DISABLED' });
    expect(await call('GET', '/mfa/recovery-codes')).toEqual({ status: 200, body: { remaining: 0 } });
    await signOut();
    // without MFA the code step is not reached: the password alone signs in
    expect(await signInStep()).toBe('DONE');
    await signOut();
  });
});
