import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, identityAccounts } from './security-helpers';
import { addMember, makeOrg, makeUser } from './fixtures';
import { currentUserSchema } from '../../src/contract/user.schema';

const PASSWORD = 'Demo-pass-2026!';

describe.each(testDrivers)('account security on %s (issue 9)', (driver) => {
  let s: TestServer;
  const { cognito, account, signIn, tokensOf } = identityAccounts(() => s, PASSWORD);
  const lastCode = async (to: string) => {
    const rows = await s.ctx.db.query<{ payload: { kind: string; text: string } }>(`SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at DESC`, [to]);
    return rows.find((m) => m.payload.kind === 'verification-code')?.payload.text.match(/\b(\d{6})\b/)?.[1];
  };

  beforeAll(async () => {
    s = await startTestServer(driver, { IDENTITY_SELF_SIGN_UP: 'true' }); // the policy tests sign up through the pool
  });
  afterAll(() => s?.close());

  describe('token verification requires exp, token_use and our app client', () => {
    const forge = async (claims: Record<string, unknown>, opts: { exp?: boolean; aud?: string } = {}) => {
      let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: s.ctx.key.kid, typ: 'JWT' }).setIssuer(s.ctx.tokens.issuer).setIssuedAt();
      if (opts.aud) jwt = jwt.setAudience(opts.aud);
      if (opts.exp !== false) jwt = jwt.setExpirationTime('1h');
      return jwt.sign(s.ctx.key.privateKey);
    };

    it('refuses ID tokens without exp, with another audience or without token_use', async () => {
      const id = await account('tokens@sec.test');
      const real = decodeJwt((await tokensOf('tokens@sec.test')).IdToken);
      const base = { sub: id, email: 'tokens@sec.test', email_verified: true, origin_jti: real.origin_jti };
      const good = await forge({ ...base, token_use: 'id' }, { aud: CLIENT });
      expect((await s.api('/organisations', { token: good })).status).toBe(200);
      for (const bad of [
        await forge({ ...base, token_use: 'id' }, { aud: CLIENT, exp: false }),
        await forge({ ...base, token_use: 'id' }, { aud: 'another-client' }),
        await forge({ ...base, token_use: 'id' }),
        await forge({ ...base }, { aud: CLIENT }),
      ]) {
        expect((await s.api('/organisations', { token: bad })).status).toBe(401);
      }
    });

    it('refuses access tokens of another app client or without exp', async () => {
      const id = await account('access@sec.test');
      const real = decodeJwt((await tokensOf('access@sec.test')).AccessToken);
      const base = { sub: id, token_use: 'access', origin_jti: real.origin_jti, username: id };
      expect((await cognito('GetUser', { AccessToken: await forge({ ...base, client_id: CLIENT }) })).status).toBe(200);
      for (const bad of [await forge({ ...base, client_id: 'another-client' }), await forge({ ...base, client_id: CLIENT }, { exp: false })]) {
        expect((await cognito('GetUser', { AccessToken: bad })).body.__type).toBe('NotAuthorizedException');
      }
    });
  });

  it('ChangePassword ends every other session (refresh and the tokens made from it) and keeps its own', async () => {
    await account('change@sec.test');
    const other = await tokensOf('change@sec.test');
    const mine = await tokensOf('change@sec.test');
    const changed = await cognito('ChangePassword', { AccessToken: mine.AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Next-choice-2026#' });
    expect(changed.status).toBe(200);
    expect((await s.api('/organisations', { token: other.IdToken })).status).toBe(401);
    expect((await cognito('GetUser', { AccessToken: other.AccessToken })).body.__type).toBe('NotAuthorizedException');
    expect((await cognito('GetTokensFromRefreshToken', { ClientId: CLIENT, RefreshToken: other.RefreshToken })).body.__type).toBe('NotAuthorizedException');
    expect((await s.api('/organisations', { token: mine.IdToken })).status).toBe(200);
    expect((await cognito('GetTokensFromRefreshToken', { ClientId: CLIENT, RefreshToken: mine.RefreshToken })).status).toBe(200);
  });

  it('an email change stays pending until the new address is verified: the old address signs in meanwhile; asking for it needs the password again on this sign-in', async () => {
    await account('before@sec.test');
    const t = await tokensOf('before@sec.test');
    // the current user's data carries the pending address (the account section shows it after a reload)
    const pendingEmail = async () => {
      const res = await s.api('/users/current-v2?email=before%40sec.test', { token: t.IdToken });
      expect(res.status).toBe(200);
      return currentUserSchema.parse(await res.json()).pendingEmail;
    };
    expect(await pendingEmail()).toBeNull();
    // a stolen session alone cannot move the account (ASVS V7.5.1): the password first, on this sign-in
    const refused = await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'first.choice@sec.test' }] });
    expect(refused.body).toMatchObject({ __type: 'NotAuthorizedException', message: 'Confirm your current password first (re-authentication required).' });
    expect(await pendingEmail()).toBeNull();
    expect(await lastCode('first.choice@sec.test')).toBeFalsy();
    expect((await s.api('/reauthenticate', { method: 'POST', token: t.IdToken, json: { password: 'Not-the-pass-2026!' } })).status).toBe(403);
    expect((await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'first.choice@sec.test' }] })).body.__type).toBe('NotAuthorizedException');
    // another sign-in's proof does not count for this one
    const other = await tokensOf('before@sec.test');
    expect((await s.api('/reauthenticate', { method: 'POST', token: other.IdToken, json: { password: PASSWORD } })).status).toBe(204);
    expect((await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'first.choice@sec.test' }] })).body.__type).toBe('NotAuthorizedException');
    expect((await s.api('/reauthenticate', { method: 'POST', token: t.IdToken, json: { password: PASSWORD } })).status).toBe(204);
    const first = await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'first.choice@sec.test' }] });
    expect(first.body.CodeDeliveryDetailsList).toHaveLength(1);
    expect(await pendingEmail()).toBe('first.choice@sec.test');
    // a second new address replaces the first
    const update = await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'someone.else@sec.test' }] });
    expect(update.body.CodeDeliveryDetailsList).toHaveLength(1);
    expect(await pendingEmail()).toBe('someone.else@sec.test');
    expect((await signIn('someone.else@sec.test')).body.__type).toBe('NotAuthorizedException');
    expect((await signIn('before@sec.test')).status).toBe(200);
    const attrs = (await cognito('GetUser', { AccessToken: t.AccessToken })).body.UserAttributes;
    expect(attrs).toContainEqual({ Name: 'email', Value: 'before@sec.test' });
    expect(attrs).toContainEqual({ Name: 'email_verified', Value: 'true' });

    const code = (await lastCode('someone.else@sec.test'))!;
    expect((await cognito('VerifyUserAttribute', { AccessToken: t.AccessToken, AttributeName: 'email', Code: code })).status).toBe(200);
    expect((await signIn('someone.else@sec.test')).status).toBe(200);
    expect((await signIn('before@sec.test')).body.__type).toBe('NotAuthorizedException');
    expect(await pendingEmail()).toBeNull(); // verified: it is the sign-in address now, nothing pending
  });

  it('entering the current address again withdraws a pending change (the current user shows none)', async () => {
    await account('keep@sec.test');
    const t = await tokensOf('keep@sec.test');
    const pendingEmail = async () => currentUserSchema.parse(await (await s.api('/users/current-v2?email=keep%40sec.test', { token: t.IdToken })).json()).pendingEmail;
    expect((await s.api('/reauthenticate', { method: 'POST', token: t.IdToken, json: { password: PASSWORD } })).status).toBe(204);
    await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'elsewhere@sec.test' }] });
    expect(await pendingEmail()).toBe('elsewhere@sec.test');
    const back = await cognito('UpdateUserAttributes', { AccessToken: t.AccessToken, UserAttributes: [{ Name: 'email', Value: 'keep@sec.test' }] });
    expect(back.body.CodeDeliveryDetailsList).toEqual([]);
    expect(await pendingEmail()).toBeNull();
    // the link mailed to the withdrawn address proves nothing now
    const code = (await lastCode('elsewhere@sec.test'))!;
    expect(code).toBeTruthy();
    const late = await cognito('VerifyUserAttribute', { AccessToken: t.AccessToken, AttributeName: 'email', Code: code });
    expect(late.body.__type).toBe('ExpiredCodeException');
    expect((await signIn('elsewhere@sec.test')).body.__type).toBe('NotAuthorizedException');
    expect((await signIn('keep@sec.test')).status).toBe(200);
  });

  it('refuses common passwords and control characters with the shared policy message', async () => {
    for (const Password of ['Password1!', 'Qwerty123!']) {
      const r = await cognito('SignUp', { ClientId: CLIENT, Username: `common-${Password.length}@sec.test`, Password });
      expect(r.body).toEqual({ __type: 'InvalidPasswordException', message: 'Password did not conform with policy: Password is too common' });
    }
    const ctl = await cognito('SignUp', { ClientId: CLIENT, Username: 'ctl@sec.test', Password: 'Good-pass\u00072026!' });
    // the identity endpoint's input guard (harden-input) or the policy itself: refused either way
    expect(ctl.body.__type).toMatch(/^Invalid(Parameter|Password)Exception$/);
    expect(ctl.body.message).toMatch(/control characters/i);
    await account('weak@sec.test');
    const t = await tokensOf('weak@sec.test');
    const change = await cognito('ChangePassword', { AccessToken: t.AccessToken, PreviousPassword: PASSWORD, ProposedPassword: 'Password1!' });
    expect(change.body.__type).toBe('InvalidPasswordException');
  });
});

describe.each(testDrivers)('the invite form look-up on %s (issue 9)', (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(driver, { USER_LOOKUPS_PER_MINUTE: '3' });
  });
  afterAll(() => s?.close());

  it('tells a manager only whether the address has an account and its name, a few times a minute', async () => {
    const manager = await makeUser(s.ctx.db);
    const org = await makeOrg(s.ctx.db);
    await addMember(s.ctx.db, org.id, manager.id, 2);
    await makeUser(s.ctx.db, { email: 'someone@lookup.test', name: 'Some One', mobile: '+64211234567' });
    const token = await s.tokenFor(manager.id);
    const found = await s.api('/users?email=Someone@lookup.test', { token });
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ found: true, name: 'Some One' });
    expect(await (await s.api('/users?email=nobody@lookup.test', { token })).json()).toEqual({ found: false });
    await s.api('/users?email=x@lookup.test', { token });
    expect((await s.api('/users?email=y@lookup.test', { token })).status).toBe(429);
    // a member who manages nothing may not look up at all
    const member = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, member.id, 1);
    expect((await s.api('/users?email=someone@lookup.test', { token: await s.tokenFor(member.id) })).status).toBe(403);
  });
});

describe.each(testDrivers)('the identity SignUp is off unless IDENTITY_SELF_SIGN_UP=true, on %s (issue 35)', (driver) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(driver); // the default
  });
  afterAll(() => s?.close());
  const signUp = async (body: object) => {
    const res = await fetch(`${s.url}/identity`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  it("answers Cognito's NotAuthorizedException alike for taken and new addresses, and makes nothing", async () => {
    const taken = await makeUser(s.ctx.db, { email: 'taken@signup-off.test' });
    const refusal = { status: 400, body: { __type: 'NotAuthorizedException', message: 'SignUp is not permitted for this user pool.' } };
    expect(await signUp({ ClientId: CLIENT, Username: taken.email, Password: PASSWORD })).toEqual(refusal);
    expect(await signUp({ ClientId: CLIENT, Username: 'new@signup-off.test', Password: PASSWORD, UserAttributes: [{ Name: 'name', Value: 'New' }] })).toEqual(refusal);
    expect(await signUp({ ClientId: CLIENT, Username: 'weak@signup-off.test', Password: 'x' })).toEqual(refusal); // nothing checked, so nothing told
    expect(await s.ctx.db.query('SELECT 1 FROM users WHERE email IN ($1, $2)', ['new@signup-off.test', 'weak@signup-off.test'])).toEqual([]);
    expect(await s.ctx.db.query('SELECT 1 FROM outbox WHERE recipient IN ($1, $2)', ['new@signup-off.test', taken.email])).toEqual([]);
  });
});
