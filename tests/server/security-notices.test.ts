import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, identityAccounts } from './security-helpers';

const PASSWORD = 'Demo-pass-2026!';

/**
 * Security notices (ASVS V6.3.7; security issue 35): an email to the account's address after a
 * password change, a password reset, an email change (to the old address too), MFA turned on or
 * off, and a sign-in after a lockout. Nothing else sends one, and none carries a secret.
 */
describe.each(testDrivers)('security notices on %s', (driver) => {
  let s: TestServer;
  const { cognito, account, signIn, tokensOf } = identityAccounts(() => s, PASSWORD, 'Nia');
  const mail = (to: string) => s.ctx.db.query<{ payload: { kind: string; subject: string; text: string } }>(`SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at`, [to]);
  const notices = async (to: string) => (await mail(to)).filter((m) => m.payload.kind === 'security-notice').map((m) => m.payload.subject.replace(/^Tidewatch: /, ''));
  const codeIn = async (to: string, kind: string) => (await mail(to)).filter((m) => m.payload.kind === kind).at(-1)?.payload.text.match(/\b(\d{6})\b/)?.[1];

  beforeAll(async () => {
    s = await startTestServer(driver);
  });
  afterAll(() => s?.close());

  it('after a password change, and not after a refused one', async () => {
    await account('change@notice.test');
    const t = await tokensOf('change@notice.test');
    expect((await cognito('ChangePassword', { AccessToken: t.AccessToken, PreviousPassword: 'Wrong-pass-2026!', ProposedPassword: 'Other-pass-2026!' })).status).toBe(400);
    expect(await notices('change@notice.test')).toEqual([]);
    expect((await cognito('ChangePassword', { AccessToken: t.AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Other-pass-2026!' })).status).toBe(200);
    expect(await notices('change@notice.test')).toEqual(['Your password was changed']);
    const [notice] = (await mail('change@notice.test')).filter((m) => m.payload.kind === 'security-notice');
    expect(notice.payload.text).toMatch(/reset your password now at http:\/\/\S+\/forgot-password/);
    expect(notice.payload.text).not.toContain('Other-pass-2026!');
  });

  it('after a password reset', async () => {
    await account('reset@notice.test');
    await cognito('ForgotPassword', { ClientId: CLIENT, Username: 'reset@notice.test' });
    const code = (await codeIn('reset@notice.test', 'reset-code'))!;
    expect((await cognito('ConfirmForgotPassword', { ClientId: CLIENT, Username: 'reset@notice.test', ConfirmationCode: code, Password: 'Reset-pass-2026!' })).status).toBe(200);
    expect(await notices('reset@notice.test')).toEqual(['Your password was reset']);
  });

  it('after an email change, to the new address and the old one (which is told where it went, masked)', async () => {
    await account('old@notice.test');
    const t = await tokensOf('old@notice.test');
    expect((await s.api('/reauthenticate', { method: 'POST', token: t.IdToken, json: { password: PASSWORD } })).status).toBe(204);
    expect((await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'new@notice.test' }] })).status).toBe(200);
    expect(await notices('old@notice.test')).toEqual([]); // only pending so far
    const code = (await codeIn('new@notice.test', 'verification-code'))!;
    expect((await cognito('VerifyUserAttribute', { AccessToken: t.AccessToken, AttributeName: 'email', Code: code })).status).toBe(200);
    expect(await notices('old@notice.test')).toEqual(['Your sign-in email was changed']);
    expect(await notices('new@notice.test')).toEqual(['This is now your sign-in address']);
    const moved = (await mail('old@notice.test')).find((m) => m.payload.kind === 'security-notice')!;
    expect(moved.payload.text).toContain('changed to n***@n***');
    expect(moved.payload.text).not.toContain('new@notice.test');
  });

  it('when two-factor authentication is turned on and off', async () => {
    await account('mfa@notice.test');
    const t = await tokensOf('mfa@notice.test');
    const { SecretCode } = (await cognito('AssociateSoftwareToken', { AccessToken: t.AccessToken })).body as { SecretCode: string };
    const code = new TOTP({ secret: Secret.fromBase32(SecretCode), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    expect((await cognito('VerifySoftwareToken', { AccessToken: t.AccessToken, UserCode: code })).status).toBe(200);
    expect(await notices('mfa@notice.test')).toEqual([]); // verified, not yet on
    const prefer = (Enabled: boolean) => cognito('SetUserMFAPreference', { AccessToken: t.AccessToken, SoftwareTokenMfaSettings: { Enabled, PreferredMfa: Enabled } });
    expect((await prefer(true)).status).toBe(200);
    expect((await prefer(true)).status).toBe(200); // already on: no second notice
    expect(await notices('mfa@notice.test')).toEqual(['Two-factor authentication was turned on']);
    // a sign-in's offer of recovery codes can be skipped (a reload): the notice says where they are made
    const on = (await mail('mfa@notice.test')).find((m) => m.payload.kind === 'security-notice')!;
    expect(on.payload.text).toMatch(/if you did not make them when you set it up, make them under Two-factor authentication in Account settings \(http:\/\/\S+\/settings\/account\)/);
    expect((await prefer(false)).status).toBe(400); // not re-authenticated: refused, no notice
    expect((await s.api('/reauthenticate', { method: 'POST', token: t.IdToken, json: { password: PASSWORD } })).status).toBe(204);
    expect((await prefer(false)).status).toBe(200);
    expect(await notices('mfa@notice.test')).toEqual(['Two-factor authentication was turned on', 'Two-factor authentication was turned off']);
  });

  it('on the first sign-in after the account was locked by failed attempts, and not on ordinary sign-ins', async () => {
    await account('locked@notice.test');
    await tokensOf('locked@notice.test');
    for (let i = 0; i < 2; i++) expect((await signIn('locked@notice.test', 'Wrong-pass-2026!')).status).toBe(400);
    await tokensOf('locked@notice.test'); // two failures lock nothing
    expect(await notices('locked@notice.test')).toEqual([]);
    for (let i = 0; i < 5; i++) expect((await signIn('locked@notice.test', 'Wrong-pass-2026!')).status).toBe(400); // the 5th locks for 1 s
    await new Promise((r) => setTimeout(r, 1_100));
    await tokensOf('locked@notice.test');
    await tokensOf('locked@notice.test');
    expect(await notices('locked@notice.test')).toEqual(['New sign-in after failed attempts']);
  });
});
