import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import { confirmSignIn, fetchAuthSession, fetchMFAPreference, signIn, signOut, updateMFAPreference } from 'aws-amplify/auth';
import { Secret, TOTP } from 'otpauth';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, identityAccounts } from './security-helpers';
import { addMember, makeOrg, makeSensor } from './fixtures';
import { siteAdminMfaRequired } from '../../server/http/mfa-rule';

/**
 * MFA required by role (issue 35): an organisation's owner may require two-factor authentication of
 * its managers, and site admins must have it (outside demo mode, whose accounts' passwords are
 * published). Sign-in of such a user without it answers Cognito's MFA_SETUP challenge, which
 * aws-amplify v6 reads as CONTINUE_SIGN_IN_WITH_TOTP_SETUP and finishes with confirmSignIn(code);
 * a session they already hold is refused the organisation's data (and site admin powers) with
 * 403 MFA_REQUIRED until MFA is on.
 */
const PASSWORD = 'Demo-pass-2026!';

describe.each(testDrivers)('MFA required by role on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  const ids: Record<string, string> = {};
  let required = ''; // the organisation that requires MFA of its managers
  let other = ''; // one that does not
  let sensor = '';
  const accounts = identityAccounts(() => s, PASSWORD);
  const code = (key: string, at = clock) => new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
  const failure = (p: Promise<unknown>) => p.then(() => ({ name: 'resolved', message: '' }), (e: Error) => ({ name: e.name, message: e.message }));
  const idToken = async () => (await fetchAuthSession()).tokens?.idToken?.toString();
  const get = async (path: string, token: string) => {
    const res = await s.api(path, { token });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const turnOnMfaInDb = (id: string) => s.ctx.db.query("UPDATE users SET totp_enabled = true, totp_secret = 'fixture' WHERE id = $1", [id]);

  beforeAll(async () => {
    s = await startTestServer(driver, { DEMO_MODE: 'false' }, { now: () => clock });
    Amplify.configure({
      Auth: { Cognito: { userPoolId: s.ctx.config.USER_POOL_ID, userPoolClientId: s.ctx.config.APP_CLIENT_ID, userPoolEndpoint: `${s.url}/identity` } },
    });
    for (const who of ['owner', 'admin', 'member', 'siteadmin']) ids[who] = await accounts.account(`${who}@mfa-role.test`);
    await s.ctx.db.query('UPDATE users SET is_site_admin = true WHERE id = $1', [ids.siteadmin]);
    required = (await makeOrg(s.ctx.db, { name: 'Strict Water' })).id;
    other = (await makeOrg(s.ctx.db, { name: 'Relaxed Water' })).id;
    await addMember(s.ctx.db, required, ids.owner!, 3);
    await addMember(s.ctx.db, required, ids.admin!, 2);
    await addMember(s.ctx.db, required, ids.member!, 1);
    await addMember(s.ctx.db, other, ids.admin!, 3);
    sensor = (await makeSensor(s.ctx.db, required)).id;
  });
  afterAll(async () => {
    await signOut().catch(() => {});
    await s?.close();
  });

  it('only the owner changes the setting, and only with their own MFA on', async () => {
    const put = async (who: string, on: boolean) => {
      const res = await s.api(`/organisations/${required}/security`, { method: 'PUT', token: await s.tokenFor(ids[who]!), json: { managerMfaRequired: on } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect((await put('admin', true)).status).toBe(403);
    expect((await put('member', true)).status).toBe(403);
    expect(await put('owner', true)).toMatchObject({ status: 409, body: { code: 'MFA_NOT_SET_UP' } });
    await turnOnMfaInDb(ids.owner!);
    expect(await put('owner', true)).toMatchObject({ status: 200, body: { managerMfaRequired: true, mfaSetupNeeded: false } });
  });

  it('refuses a manager without MFA, with a session from before, the organisation’s data (403 MFA_REQUIRED); members and other organisations are not affected', async () => {
    const admin = await s.tokenFor(ids.admin!);
    for (const path of [`/organisations/${required}/sensors`, `/organisations/${required}/members`, `/organisations/${required}/sensors/${sensor}/measurements?startTime=0&endTime=${clock}`])
      expect(await get(path, admin), path).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED', message: expect.stringContaining('two-factor authentication') } });
    // the organisation list says which organisation waits for it, so the app can say so
    const list = (await get('/organisations', admin)).body.organisations as { id: string; mfaSetupNeeded: boolean; managerMfaRequired: boolean }[];
    expect(list.find((o) => o.id === required)).toMatchObject({ managerMfaRequired: true, mfaSetupNeeded: true });
    expect(list.find((o) => o.id === other)).toMatchObject({ managerMfaRequired: false, mfaSetupNeeded: false });
    expect((await get(`/organisations/${other}/sensors`, admin)).status).toBe(200);
    expect((await get(`/organisations/${required}/sensors`, await s.tokenFor(ids.member!))).status).toBe(200);
    expect((await get(`/organisations/${required}/sensors`, await s.tokenFor(ids.owner!))).status).toBe(200);
  });

  it('asks the manager at sign-in to set TOTP up (MFA_SETUP: aws-amplify’s CONTINUE_SIGN_IN_WITH_TOTP_SETUP), then lets them in', async () => {
    const first = await signIn({ username: 'admin@mfa-role.test', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(first.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
    expect(await idToken()).toBeUndefined();
    const secret = (first.nextStep as { totpSetupDetails: { sharedSecret: string } }).totpSetupDetails.sharedSecret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = String((Number(code(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(await failure(confirmSignIn({ challengeResponse: wrong }))).toEqual({ name: 'EnableSoftwareTokenMFAException', message: 'Code mismatch and fail enable Software Token MFA' });
    expect(await confirmSignIn({ challengeResponse: code(secret) })).toEqual({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    expect(await fetchMFAPreference()).toEqual({ preferred: 'TOTP', enabled: ['TOTP'] });
    expect((await get(`/organisations/${required}/sensors`, (await idToken())!)).status).toBe(200);
    // the session from before works again too: the rule reads the account, not the token
    expect((await get(`/organisations/${required}/sensors`, await s.tokenFor(ids.admin!))).status).toBe(200);
    // the required second factor cannot be turned off
    expect((await s.api('/reauthenticate', { method: 'POST', token: await idToken(), json: { password: PASSWORD } })).status).toBe(204);
    expect(await failure(updateMFAPreference({ totp: 'DISABLED' }))).toMatchObject({ name: 'InvalidParameterException', message: expect.stringContaining('cannot be turned off') });
    await signOut();
    // the next sign-in asks for the code
    clock += 30_000;
    const next = await signIn({ username: 'admin@mfa-role.test', password: PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
    expect(next.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    await confirmSignIn({ challengeResponse: code(secret) });
    await signOut();
  });

  it('finishes MFA_SETUP only with the session of a proved secret', async () => {
    await s.ctx.db.query('UPDATE users SET totp_enabled = false, totp_secret = NULL WHERE id = $1', [ids.admin!]);
    clock += 30_000; // the last code's time step is spent
    const start = await accounts.signIn('admin@mfa-role.test');
    expect(start.body).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } });
    expect(start.body.AuthenticationResult).toBeUndefined();
    const finish = (session: string) => accounts.cognito('RespondToAuthChallenge', { ChallengeName: 'MFA_SETUP', ClientId: CLIENT, Session: session, ChallengeResponses: { USERNAME: 'admin@mfa-role.test' } });
    expect((await finish(start.body.Session)).body).toMatchObject({ __type: 'NotAuthorizedException' });
    const associated = await accounts.cognito('AssociateSoftwareToken', { Session: start.body.Session });
    expect(associated.body).toMatchObject({ SecretCode: expect.any(String), Session: expect.any(String) });
    expect((await finish(associated.body.Session)).body).toMatchObject({ __type: 'NotAuthorizedException' });
    // another challenge's session does not open the setup
    expect((await accounts.cognito('AssociateSoftwareToken', { Session: 'not-a-session' })).body).toMatchObject({ __type: 'NotAuthorizedException' });
    const verified = await accounts.cognito('VerifySoftwareToken', { Session: associated.body.Session, UserCode: code(associated.body.SecretCode) });
    expect(verified.body).toMatchObject({ Status: 'SUCCESS', Session: expect.any(String) });
    expect((await finish(verified.body.Session)).body.AuthenticationResult?.IdToken).toBeDefined();
  });

  it('site admins must have MFA (outside demo mode): sign-in asks for the setup, and an old session has no site admin power', async () => {
    expect(siteAdminMfaRequired({ DEMO_MODE: true })).toBe(false);
    expect(siteAdminMfaRequired({ DEMO_MODE: false })).toBe(true);
    const token = await s.tokenFor(ids.siteadmin!);
    expect(await get('/admin/firmware', token)).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED', message: expect.stringContaining('Site admins') } });
    expect((await accounts.signIn('siteadmin@mfa-role.test')).body).toMatchObject({ ChallengeName: 'MFA_SETUP' });
    await turnOnMfaInDb(ids.siteadmin!);
    expect((await get('/admin/firmware', token)).status).toBe(200);
    // a member of no organisation that requires it signs in with the password alone
    expect((await accounts.signIn('member@mfa-role.test')).body.AuthenticationResult?.IdToken).toBeDefined();
  });

  it('an invited admin of the organisation sets MFA up right after choosing a password, before any token', async () => {
    const invited = await s.api(`/organisations/${required}/invite`, { method: 'POST', token: await s.tokenFor(ids.owner!), json: { email: 'new-admin@mfa-role.test', name: 'New Admin', role: 2 } });
    expect(invited.status).toBe(200);
    const [mail] = await s.ctx.db.query<{ payload: { text: string } }>("SELECT payload FROM outbox WHERE recipient = 'new-admin@mfa-role.test' AND payload->>'kind' = 'invitation'");
    const code = new URL(/https?:\/\/\S+\/accept\?\S+/.exec(mail!.payload.text)![0]).searchParams.get('code')!;
    const first = await accounts.signIn('new-admin@mfa-role.test', code);
    expect(first.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const chosen = await accounts.cognito('RespondToAuthChallenge', {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ClientId: CLIENT,
      Session: first.body.Session,
      ChallengeResponses: { USERNAME: 'new-admin@mfa-role.test', NEW_PASSWORD: 'Own-choice-2026!' },
    });
    expect(chosen.body).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } });
    expect(chosen.body.AuthenticationResult).toBeUndefined();
  });

  it('turning the requirement off lets managers without MFA in again', async () => {
    await s.ctx.db.query('UPDATE users SET totp_enabled = false, totp_secret = NULL WHERE id = $1', [ids.admin!]);
    const admin = await s.tokenFor(ids.admin!);
    expect((await get(`/organisations/${required}/sensors`, admin)).status).toBe(403);
    const off = await s.api(`/organisations/${required}/security`, { method: 'PUT', token: await s.tokenFor(ids.owner!), json: { managerMfaRequired: false } });
    expect(off.status).toBe(200);
    expect((await get(`/organisations/${required}/sensors`, admin)).status).toBe(200);
    expect((await accounts.signIn('admin@mfa-role.test')).body.AuthenticationResult?.IdToken).toBeDefined();
  });
});
