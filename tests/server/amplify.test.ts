import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmUserAttribute,
  fetchAuthSession,
  fetchUserAttributes,
  resetPassword,
  sendUserAttributeVerificationCode,
  signIn,
  signOut,
} from 'aws-amplify/auth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg } from './fixtures';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

/**
 * The real aws-amplify v6 client (what the browser runs) against our identity endpoint, in Node.
 * No browser globals are needed: without `window` Amplify keeps its tokens in memory.
 */
const PASSWORD = 'Demo-pass-2026!';
const NEW_PASSWORD = 'Fresh-pass-2026?';

describe.each(testDrivers)('aws-amplify v6 against /identity on %s (DESIGN "Identity and the gateway")', (driver) => {
  let s: TestServer;
  const outboxText = async (to: string, kind: string) =>
    (await s.ctx.db.query<{ payload: { kind: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at DESC', [to])).find(
      (m) => m.payload.kind === kind,
    )?.payload.text ?? '';
  const idToken = async (forceRefresh = false) => (await fetchAuthSession({ forceRefresh })).tokens?.idToken?.toString();
  const status = async (token: string | undefined) => (await s.api('/organisations', { token })).status;
  const failure = (p: Promise<unknown>) => p.then(() => ({ name: 'resolved', message: '' }), (e: Error) => ({ name: e.name, message: e.message }));

  beforeAll(async () => {
    s = await startTestServer(driver);
    Amplify.configure({
      Auth: { Cognito: { userPoolId: s.ctx.config.USER_POOL_ID, userPoolClientId: s.ctx.config.APP_CLIENT_ID, userPoolEndpoint: `${s.url}/identity` } },
    });
    const hash = await hashPassword(PASSWORD);
    await insertUser(s.ctx.db, { email: 'amp@test.local', name: 'Amp', passwordHash: hash, status: 'CONFIRMED', emailVerified: false, profileCreated: true }, Date.now());
  });
  afterAll(async () => {
    await signOut().catch(() => {});
    await s?.close();
  });

  it('signs in, fetches and force-refreshes tokens the gateway accepts, then signs out revoking the session', async () => {
    expect(await signIn({ username: 'amp@test.local', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })).toEqual({
      isSignedIn: true,
      nextStep: { signInStep: 'DONE' },
    });
    const first = await idToken();
    expect(await status(first)).toBe(200);
    const refreshed = await idToken(true); // GetTokensFromRefreshToken
    expect(refreshed).toBeDefined();
    expect(refreshed).not.toBe(first);
    expect(await status(refreshed)).toBe(200);
    await signOut(); // RevokeToken, since the access token carries origin_jti
    expect(await idToken()).toBeUndefined();
    expect(await status(first)).toBe(401);
    expect(await status(refreshed)).toBe(401);
  });

  it('reads the Cognito error names the spec maps to messages: a wrong password and an unknown user alike', async () => {
    const wrong = await failure(signIn({ username: 'amp@test.local', password: 'Wrong-pass-2026!', options: { authFlowType: 'USER_PASSWORD_AUTH' } }));
    const unknown = await failure(signIn({ username: 'ghost@test.local', password: 'Wrong-pass-2026!', options: { authFlowType: 'USER_PASSWORD_AUTH' } }));
    expect(wrong).toEqual({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect(unknown).toEqual(wrong);
  });

  it('verifies the email with the code of the emailed link (sendUserAttributeVerificationCode, confirmUserAttribute)', async () => {
    await signIn({ username: 'amp@test.local', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect((await fetchUserAttributes()).email_verified).toBe('false');
    expect(await sendUserAttributeVerificationCode({ userAttributeKey: 'email' })).toEqual({ attributeName: 'email', deliveryMedium: 'EMAIL', destination: 'a***@t***' });
    const code = (await outboxText('amp@test.local', 'verification-code')).match(/verify-email\?code=(\d{6})/)?.[1];
    expect(code).toBeDefined();
    await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: code! });
    expect((await fetchUserAttributes()).email_verified).toBe('true');
    await signOut();
  });

  it('an invited user signs in with the emailed temporary password, sets a new one and joins the organisation', async () => {
    const org = await makeOrg(s.ctx.db, { name: 'Amplify Water' });
    const hash = await hashPassword(PASSWORD);
    const ownerId = await insertUser(s.ctx.db, { email: 'amp-owner@test.local', name: 'Owner', passwordHash: hash, status: 'CONFIRMED', emailVerified: true, profileCreated: true }, Date.now());
    await addMember(s.ctx.db, org.id, ownerId, 3);
    const invited = await s.api(`/organisations/${org.id}/invite`, { method: 'POST', token: await s.tokenFor(ownerId), json: { email: 'newbie@test.local', name: 'Newbie', role: 1 } });
    expect(invited.status).toBe(200);
    const link = (await outboxText('newbie@test.local', 'invitation')).match(/\/accept\?email=([^&\s]+)&code=(\S+)/);
    expect(link).not.toBeNull();
    const temporary = decodeURIComponent(link![2]);
    const first = await signIn({ username: decodeURIComponent(link![1]), password: temporary, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(first).toEqual({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED', missingAttributes: [] } });
    expect(await confirmSignIn({ challengeResponse: NEW_PASSWORD })).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    const orgs = await (await s.api('/organisations', { token: await idToken() })).json();
    expect(orgs.organisations).toMatchObject([{ id: org.id, name: 'Amplify Water', role: 1 }]);
    await signOut();
    expect((await signIn({ username: 'newbie@test.local', password: NEW_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })).isSignedIn).toBe(true);
    await signOut();
  });

  it('resets a forgotten password with the code from the outbox, then signs in with the new password', async () => {
    expect(await resetPassword({ username: 'amp@test.local' })).toEqual({
      isPasswordReset: false,
      nextStep: { resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE', codeDeliveryDetails: { deliveryMedium: 'EMAIL', destination: 'a***@t***', attributeName: 'email' } },
    });
    const code = (await outboxText('amp@test.local', 'reset-code')).match(/\b(\d{6})\b/)?.[1];
    const bad = await failure(confirmResetPassword({ username: 'amp@test.local', confirmationCode: code === '000000' ? '000001' : '000000', newPassword: NEW_PASSWORD }));
    expect(bad.name).toBe('CodeMismatchException');
    await confirmResetPassword({ username: 'amp@test.local', confirmationCode: code!, newPassword: NEW_PASSWORD });
    const old = await failure(signIn({ username: 'amp@test.local', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } }));
    expect(old.name).toBe('NotAuthorizedException');
    expect((await signIn({ username: 'amp@test.local', password: NEW_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })).isSignedIn).toBe(true);
    await signOut();
  });
});
