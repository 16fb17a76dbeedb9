import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, fetchMFAPreference, setUpTOTP, signIn, signOut, updateMFAPreference, verifyTOTPSetup } from 'aws-amplify/auth';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { cognitoClient, CLIENT } from './security-helpers';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

/**
 * TOTP MFA through the user pool API as Cognito offers it, driven by the real aws-amplify v6 client
 * (setUpTOTP, verifyTOTPSetup, updateMFAPreference, fetchMFAPreference, signIn and confirmSignIn).
 * The server's clock is ours, so codes are computed for the server's time step.
 */
const PASSWORD = 'Demo-pass-2026!';
const EMAIL = 'totp@test.local';

describe.each(testDrivers)('TOTP MFA, Cognito-compatible, on %s (issue: multi-factor authentication)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  let secret = '';
  const cognito = cognitoClient(() => s);
  const code = (at = clock, key = secret) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
  const nextStep = () => (clock += 30_000);
  const failure = (p: Promise<unknown>) => p.then(() => ({ name: 'resolved', message: '' }), (e: Error) => ({ name: e.name, message: e.message }));
  const signInStep = async () => (await signIn({ username: EMAIL, password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })).nextStep.signInStep;
  const idToken = async () => (await fetchAuthSession()).tokens?.idToken?.toString();
  const reauthenticate = async (password: string) => s.api('/reauthenticate', { method: 'POST', token: await idToken(), json: { password } });

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
    Amplify.configure({
      Auth: { Cognito: { userPoolId: s.ctx.config.USER_POOL_ID, userPoolClientId: s.ctx.config.APP_CLIENT_ID, userPoolEndpoint: `${s.url}/identity` } },
    });
    await insertUser(s.ctx.db, { email: EMAIL, name: 'Totp', passwordHash: await hashPassword(PASSWORD), status: 'CONFIRMED', emailVerified: true, profileCreated: true }, clock);
  });
  afterAll(async () => {
    await signOut().catch(() => {});
    await s?.close();
  });

  it('sets up TOTP with setUpTOTP and verifyTOTPSetup, turns it on with updateMFAPreference, and fetchMFAPreference reads it', async () => {
    expect(await signInStep()).toBe('DONE');
    expect(await fetchMFAPreference()).toEqual({ preferred: undefined, enabled: undefined });
    // turning it on before a code proved the app has the secret is refused, as Cognito does
    expect(await failure(updateMFAPreference({ totp: 'PREFERRED' }))).toEqual({ name: 'InvalidParameterException', message: 'User has not verified software token mfa' });
    const details = await setUpTOTP();
    secret = details.sharedSecret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(details.getSetupUri('Tidewatch').href).toContain(`secret=${secret}`);
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    expect(await failure(verifyTOTPSetup({ code: wrong }))).toEqual({ name: 'EnableSoftwareTokenMFAException', message: 'Code mismatch and fail enable Software Token MFA' });
    await verifyTOTPSetup({ code: code() });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await fetchMFAPreference()).toEqual({ preferred: 'TOTP', enabled: ['TOTP'] });
  });

  it('keeps the secret sealed in the database, never as the base32 text', async () => {
    const [row] = await s.ctx.db.query<{ totp_secret: string }>('SELECT totp_secret FROM users WHERE email = $1', [EMAIL]);
    expect(row?.totp_secret).toMatch(/^d:/);
    expect(row?.totp_secret).not.toContain(secret);
    expect((await s.ctx.db.query<{ secret: string }>("SELECT secret FROM server_secrets WHERE name = 'totp-encryption'")).length).toBe(1);
  });

  it('signs in with the SOFTWARE_TOKEN_MFA challenge answered by confirmSignIn; a wrong code and a used code are refused', async () => {
    await signOut();
    nextStep(); // the setup code's step is spent
    expect(await signInStep()).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect(await idToken()).toBeUndefined();
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    expect(await failure(confirmSignIn({ challengeResponse: wrong }))).toEqual({ name: 'CodeMismatchException', message: 'Invalid code received for user' });
    const used = code();
    expect(await confirmSignIn({ challengeResponse: used })).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    expect((await s.api('/organisations', { token: await idToken() })).status).toBe(200);
    await signOut();
    // the same code again, still inside its time window: refused (replay)
    expect(await signInStep()).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect(await failure(confirmSignIn({ challengeResponse: used }))).toEqual({ name: 'CodeMismatchException', message: 'Invalid code received for user' });
    // a code one step old is accepted (the window) when its step is later than the used one
    nextStep();
    nextStep();
    expect(await confirmSignIn({ challengeResponse: code(clock - 30_000) })).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    await signOut();
  });

  it('refuses codes two steps away, and a session made for another challenge', async () => {
    nextStep();
    const first = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: EMAIL, PASSWORD } });
    expect(first.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA', ChallengeParameters: {} });
    expect(first.body.AuthenticationResult).toBeUndefined();
    const answer = (c: string, challenge = 'SOFTWARE_TOKEN_MFA') =>
      cognito('RespondToAuthChallenge', { ChallengeName: challenge, ClientId: CLIENT, Session: first.body.Session, ChallengeResponses: { USERNAME: EMAIL, SOFTWARE_TOKEN_MFA_CODE: c, NEW_PASSWORD: PASSWORD } });
    expect((await answer(code(clock + 60_000))).body.__type).toBe('CodeMismatchException');
    expect((await answer(code(clock - 60_000))).body.__type).toBe('CodeMismatchException');
    expect((await answer(code(), 'NEW_PASSWORD_REQUIRED')).body).toMatchObject({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
    const ok = await answer(code());
    expect(ok.body.AuthenticationResult?.IdToken).toBeDefined();
    // the challenge session lasts 3 minutes
    nextStep();
    clock += 180_000;
    expect((await answer(code())).body).toMatchObject({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
  });

  it('counts wrong codes in the sign-in lockout, and giving the password again does not start the count anew', async () => {
    clock += 16 * 60_000; // the earlier failures are forgotten
    const start = async () =>
      (await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT, AuthParameters: { USERNAME: EMAIL, PASSWORD } })).body as { Session?: string; __type?: string; message?: string };
    const answer = async (session: string, c: string) =>
      (await cognito('RespondToAuthChallenge', { ChallengeName: 'SOFTWARE_TOKEN_MFA', ClientId: CLIENT, Session: session, ChallengeResponses: { USERNAME: EMAIL, SOFTWARE_TOKEN_MFA_CODE: c } })).body;
    const wrong = () => String((Number(code()) + 3) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const session = (await start()).Session!; // a fresh sign-in each time
      expect((await answer(session, wrong())).__type).toBe('CodeMismatchException');
    }
    // the fifth failure locked the account: the password alone is now refused too, and so is the right code
    expect(await start()).toMatchObject({ __type: 'NotAuthorizedException', message: 'Password attempts exceeded' });
    clock += 2_000;
    const session = (await start()).Session!;
    clock += 1_000;
    expect(await answer(session, wrong())).toMatchObject({ __type: 'CodeMismatchException' });
    expect(await answer(session, code())).toMatchObject({ __type: 'NotAuthorizedException', message: 'Password attempts exceeded' });
    clock += 16 * 60_000;
  });

  it('turns MFA off only after the current password is confirmed again on this sign-in (POST /api/reauthenticate)', async () => {
    nextStep();
    expect(await signInStep()).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    await confirmSignIn({ challengeResponse: code() });
    expect(await failure(updateMFAPreference({ totp: 'DISABLED' }))).toEqual({ name: 'NotAuthorizedException', message: 'Confirm your current password first (re-authentication required).' });
    const wrong = await reauthenticate('Not-the-pass-2026!');
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'INCORRECT_PASSWORD' });
    expect(await failure(updateMFAPreference({ totp: 'DISABLED' }))).toMatchObject({ name: 'NotAuthorizedException' });
    expect((await reauthenticate(PASSWORD)).status).toBe(204);
    // the proof lasts five minutes
    clock += 6 * 60_000;
    expect(await failure(updateMFAPreference({ totp: 'DISABLED' }))).toMatchObject({ name: 'NotAuthorizedException' });
    expect((await reauthenticate(PASSWORD)).status).toBe(204);
    await updateMFAPreference({ totp: 'DISABLED' });
    expect(await fetchMFAPreference()).toEqual({ preferred: undefined, enabled: undefined });
    await signOut();
    expect(await signInStep()).toBe('DONE');
    await signOut();
  });

  it('refuses SMS and email MFA, which this user pool does not offer', async () => {
    await signInStep();
    expect(await failure(updateMFAPreference({ sms: 'ENABLED' }))).toMatchObject({ name: 'InvalidParameterException' });
    expect(await failure(updateMFAPreference({ email: 'PREFERRED' }))).toMatchObject({ name: 'InvalidParameterException' });
    await updateMFAPreference({ sms: 'DISABLED', email: 'DISABLED' });
    await signOut();
  });
});
