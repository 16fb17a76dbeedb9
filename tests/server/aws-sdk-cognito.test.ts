import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssociateSoftwareTokenCommand,
  CodeMismatchException,
  CognitoIdentityProviderClient,
  CognitoIdentityProviderServiceException,
  EnableSoftwareTokenMFAException,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  InvalidParameterException,
  NotAuthorizedException,
  ResourceNotFoundException,
  RespondToAuthChallengeCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  SoftwareTokenMFANotFoundException,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

/**
 * The identity endpoint against the AWS SDK's own Cognito client (@aws-sdk/client-cognito-identity-provider),
 * over real HTTP (issue 35: "test with aws-amplify itself and with the AWS SDK's Cognito client"):
 * USER_PASSWORD_AUTH, AssociateSoftwareToken, VerifySoftwareToken, SetUserMFAPreference, the
 * SOFTWARE_TOKEN_MFA challenge answered with RespondToAuthChallenge, Cognito's MFA_SETUP for an
 * account that must have MFA, and the errors: each refusal reaches the caller as the SDK's own
 * exception class, as it would from AWS. The server's clock is the test's, so codes are computed
 * for the server's time step.
 */
const PASSWORD = 'Demo-pass-2026!';
const EMAIL = 'sdk@test.local';
const ADMIN = 'sdk-admin@test.local';

describe.each(testDrivers)('the AWS SDK’s Cognito client against the identity endpoint, on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.parse('2026-12-03T08:00:00Z');
  let client: CognitoIdentityProviderClient;
  let clientId = '';
  let secret = '';
  let accessToken = '';

  const codeOf = (key: string, at = clock) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
  const wrongCodeOf = (key: string) => String((Number(codeOf(key)) + 1) % 1_000_000).padStart(6, '0');
  const nextStep = () => (clock += 30_000);
  /** The exception the SDK threw (its class, name, message and HTTP status), or 'resolved'. */
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'resolved' as const,
      (e: unknown) => e as CognitoIdentityProviderServiceException,
    );
  const signIn = (username: string, password = PASSWORD) =>
    client.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: username, PASSWORD: password } }));

  beforeAll(async () => {
    s = await startTestServer(driver, { DEMO_MODE: 'false' }, { now: () => clock }); // site admins must have MFA outside demo mode
    clientId = s.ctx.config.APP_CLIENT_ID;
    client = new CognitoIdentityProviderClient({
      endpoint: `${s.url}/identity`,
      region: 'ap-southeast-2',
      // the user pool operations used here are unsigned at AWS too; the keys only keep the SDK from
      // looking for credentials on the machine
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      maxAttempts: 1,
    });
    const passwordHash = await hashPassword(PASSWORD);
    await insertUser(s.ctx.db, { email: EMAIL, name: 'Sdk', passwordHash, status: 'CONFIRMED', emailVerified: true, profileCreated: true }, clock);
    const admin = await insertUser(s.ctx.db, { email: ADMIN, name: 'Sdk Admin', passwordHash, status: 'CONFIRMED', emailVerified: true, profileCreated: true }, clock);
    // a site admin must have MFA: the sign-in answers MFA_SETUP
    await s.ctx.db.query('UPDATE users SET is_site_admin = true WHERE id = $1', [admin]);
  });
  afterAll(async () => {
    client?.destroy();
    await s?.close();
  });

  it('signs in with USER_PASSWORD_AUTH; a wrong password is NotAuthorizedException, an unknown client ResourceNotFoundException', async () => {
    const wrong = await refusal(signIn(EMAIL, 'Not-the-password-1!'));
    expect(wrong).toBeInstanceOf(NotAuthorizedException);
    expect(wrong).toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.', $metadata: { httpStatusCode: 400 } });
    const unknown = await refusal(signIn('nobody@test.local'));
    expect(unknown, 'an unknown account reads as a wrong password').toBeInstanceOf(NotAuthorizedException);
    const badClient = await refusal(client.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: 'not-our-client', AuthParameters: { USERNAME: EMAIL, PASSWORD } })));
    expect(badClient).toBeInstanceOf(ResourceNotFoundException);
    expect(badClient).toMatchObject({ message: 'User pool client not-our-client does not exist.' });

    const ok = await signIn(EMAIL);
    expect(ok.ChallengeName).toBeUndefined();
    expect(ok.AuthenticationResult).toMatchObject({ TokenType: 'Bearer', ExpiresIn: expect.any(Number) });
    expect(ok.AuthenticationResult?.RefreshToken).toEqual(expect.any(String));
    accessToken = ok.AuthenticationResult!.AccessToken!;
    const me = await client.send(new GetUserCommand({ AccessToken: accessToken }));
    expect(me.UserAttributes?.find((a) => a.Name === 'email')?.Value).toBe(EMAIL);
    expect(me.PreferredMfaSetting).toBeUndefined();
  });

  it('sets TOTP up with AssociateSoftwareToken and VerifySoftwareToken, and turns it on with SetUserMFAPreference', async () => {
    const early = await refusal(client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } })));
    expect(early, 'on before a code proved the app has the key').toBeInstanceOf(InvalidParameterException);
    expect(early).toMatchObject({ message: 'User has not verified software token mfa' });
    const noKey = await refusal(client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: '123456' })));
    expect(noKey).toBeInstanceOf(SoftwareTokenMFANotFoundException);

    const associated = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    secret = associated.SecretCode!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(associated.Session, 'a signed-in setup has no sign-in session to continue').toBeUndefined();
    const wrong = await refusal(client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: wrongCodeOf(secret), FriendlyDeviceName: 'phone' })));
    expect(wrong).toBeInstanceOf(EnableSoftwareTokenMFAException);
    expect(wrong).toMatchObject({ message: 'Code mismatch and fail enable Software Token MFA' });
    expect(await client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: codeOf(secret), FriendlyDeviceName: 'phone' }))).toMatchObject({ Status: 'SUCCESS' });

    const sms = await refusal(client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SMSMfaSettings: { Enabled: true } })));
    expect(sms, 'SMS MFA is not offered').toBeInstanceOf(InvalidParameterException);
    await client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
    const me = await client.send(new GetUserCommand({ AccessToken: accessToken }));
    expect({ preferred: me.PreferredMfaSetting, list: me.UserMFASettingList }).toEqual({ preferred: 'SOFTWARE_TOKEN_MFA', list: ['SOFTWARE_TOKEN_MFA'] });

    // turning it off needs this sign-in's password again (POST /api/reauthenticate), which the SDK cannot give
    const off = await refusal(client.send(new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: false } })));
    expect(off).toBeInstanceOf(NotAuthorizedException);
    expect(off).toMatchObject({ message: 'Confirm your current password first (re-authentication required).' });
  });

  it('answers the SOFTWARE_TOKEN_MFA challenge with RespondToAuthChallenge; a wrong or replayed code is CodeMismatchException, a forged session NotAuthorizedException', async () => {
    nextStep(); // the setup code's step is spent
    const started = await signIn(EMAIL);
    expect(started.AuthenticationResult, 'no tokens for the password alone').toBeUndefined();
    expect(started.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(started.Session).toEqual(expect.any(String));
    const answer = (code: string, session = started.Session!) =>
      client.send(new RespondToAuthChallengeCommand({ ClientId: clientId, ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeResponses: { USERNAME: EMAIL, SOFTWARE_TOKEN_MFA_CODE: code } }));

    const wrong = await refusal(answer(wrongCodeOf(secret)));
    expect(wrong).toBeInstanceOf(CodeMismatchException);
    expect(wrong).toMatchObject({ name: 'CodeMismatchException', message: 'Invalid code received for user', $metadata: { httpStatusCode: 400 } });
    const forged = await refusal(answer(codeOf(secret), `${started.Session!.slice(0, -4)}AAAA`));
    expect(forged).toBeInstanceOf(NotAuthorizedException);
    expect(forged).toMatchObject({ message: 'Invalid session for the user, session is expired.' });

    const code = codeOf(secret);
    const done = await answer(code);
    expect(done.ChallengeName).toBeUndefined();
    expect(done.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
    accessToken = done.AuthenticationResult!.AccessToken!;
    expect((await s.api('/organisations', { token: done.AuthenticationResult!.IdToken })).status).toBe(200);

    // the same code again in its own time step: a replay
    const again = await signIn(EMAIL);
    const replay = await refusal(answer(code, again.Session!));
    expect(replay).toBeInstanceOf(CodeMismatchException);
    // the session lasts 3 minutes
    clock += 3 * 60_000 + 1_000;
    const late = await refusal(answer(codeOf(secret), again.Session!));
    expect(late).toBeInstanceOf(NotAuthorizedException);
    expect(late).toMatchObject({ message: 'Invalid session for the user, session is expired.' });
  });

  it('sets TOTP up inside the sign-in of an account that must have it (MFA_SETUP, with Session instead of an access token)', async () => {
    nextStep();
    const started = await signIn(ADMIN);
    expect(started.AuthenticationResult).toBeUndefined();
    expect(started).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } });
    const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: started.Session }));
    const adminSecret = associated.SecretCode!;
    expect(adminSecret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await refusal(client.send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: wrongCodeOf(adminSecret) })));
    expect(wrong).toBeInstanceOf(EnableSoftwareTokenMFAException);
    const finish = (session: string | undefined) =>
      client.send(new RespondToAuthChallengeCommand({ ClientId: clientId, ChallengeName: 'MFA_SETUP', Session: session, ChallengeResponses: { USERNAME: ADMIN } }));
    const unproved = await refusal(finish(associated.Session));
    expect(unproved, 'MFA_SETUP is answered only with the session of a proved key').toBeInstanceOf(NotAuthorizedException);

    const verified = await client.send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: codeOf(adminSecret) }));
    expect(verified.Status).toBe('SUCCESS');
    expect(verified.Session).toEqual(expect.any(String));
    const done = await finish(verified.Session);
    expect(done.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
    const me = await client.send(new GetUserCommand({ AccessToken: done.AuthenticationResult!.AccessToken }));
    expect(me.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');
    // the next sign-in asks for the code
    expect((await signIn(ADMIN)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });

  it('maps the other refusals to the SDK’s classes: a revoked access token, SignUp turned off', async () => {
    await client.send(new GlobalSignOutCommand({ AccessToken: accessToken }));
    const revoked = await refusal(client.send(new GetUserCommand({ AccessToken: accessToken })));
    expect(revoked).toBeInstanceOf(NotAuthorizedException);
    expect(revoked).toMatchObject({ message: 'Access Token has been revoked' });
    const noSetup = await refusal(client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken })));
    expect(noSetup).toBeInstanceOf(NotAuthorizedException);
    const signUp = await refusal(client.send(new SignUpCommand({ ClientId: clientId, Username: 'new@test.local', Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: 'new@test.local' }] })));
    expect(signUp, 'administrators create users (IDENTITY_SELF_SIGN_UP off)').toBeInstanceOf(NotAuthorizedException);
    expect(signUp).toMatchObject({ message: 'SignUp is not permitted for this user pool.' });
  });
});
