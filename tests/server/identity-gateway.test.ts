import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { hashPassword } from '../../server/identity/passwords';
import { insertUser } from '../../server/identity/identity-users';

const PASSWORD = 'Demo-pass-2026!';

describe.each(testDrivers)('profile, organisations and invitations on %s (organisation-and-routes 7.1, 8, 9; issue 3)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  const cognito = async (op: string, body: object) => {
    const res = await fetch(`${s.url}/identity`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${op}` },
      body: JSON.stringify({ ClientId: s.ctx.config.APP_CLIENT_ID, ...body }),
    });
    return { status: res.status, body: await res.json() };
  };
  const call = async (path: string, token: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await s.api(path, { ...init, token });
    return { status: res.status, body: await res.json() };
  };
  const lastMail = async (to: string) =>
    (await s.ctx.db.query<{ payload: { kind: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1', [to]))[0]?.payload;

  beforeAll(async () => {
    s = await startTestServer(driver, { IDENTITY_SELF_SIGN_UP: 'true' }, { now: () => clock }); // a fresh account through SignUp
  });
  afterAll(() => s?.close());

  describe('the signed-in user (POST /create-self, GET /users/current-v2, PATCH /users/{id})', () => {
    it('answers USER_NOT_FOUND until the profile is created; /create-self is idempotent', async () => {
      const up = await cognito('SignUp', { Username: 'fresh@test.local', Password: PASSWORD, UserAttributes: [{ Name: 'name', Value: 'Fresh' }] });
      const id = up.body.UserSub;
      const token = await s.tokenFor(id);
      expect(await call('/users/current-v2?email=fresh%40test.local', token)).toEqual({ status: 404, body: { code: 'USER_NOT_FOUND', message: 'User not found.' } });
      const created = await call('/create-self', token, { method: 'POST', json: { email: 'fresh@test.local', name: 'Fresh Person' } });
      const profile = { cognitoIdentityId: id, email: 'fresh@test.local', name: 'Fresh Person', mobile: null, emailVerified: false, pendingEmail: null, isSiteAdmin: false, displaySettings: { timeDisplay: 'Friendly' } };
      expect(created).toEqual({ status: 200, body: profile });
      expect(await call('/create-self', token, { method: 'POST', json: { name: 'Other Name' } })).toEqual({ status: 200, body: profile });
      expect(await call('/users/current-v2?email=FRESH%40test.local', token)).toEqual({ status: 200, body: profile });
      expect((await call('/users/current-v2?email=someone%40else.local', token)).status).toBe(403);
    });

    it('lets users change their own name, mobile and display settings, and nobody else’s', async () => {
      const me = await makeUser(s.ctx.db, { name: 'Me' });
      const other = await makeUser(s.ctx.db);
      const token = await s.tokenFor(me.id);
      expect((await call(`/users/${me.id}`, token, { method: 'PATCH', json: { name: 'Me Again', mobile: '021 555 0123' } })).body).toMatchObject({ name: 'Me Again', mobile: '+64215550123' });
      expect((await call(`/users/${me.id}`, token, { method: 'PATCH', json: { displaySettings: { timeDisplay: 'AmericanLocal' } } })).body).toMatchObject({
        displaySettings: { timeDisplay: 'AmericanLocal' },
        name: 'Me Again',
      });
      expect(await call(`/users/${me.id}`, token, { method: 'PATCH', json: { mobile: '12' } })).toEqual({ status: 400, body: { code: 'INVALID_MOBILE', message: 'Invalid mobile phone number' } });
      expect((await call(`/users/${me.id}`, token, { method: 'PATCH', json: { name: ' ' } })).body.code).toBe('INVALID_NAME');
      expect((await call(`/users/${me.id}`, token, { method: 'PATCH', json: { displaySettings: { timeDisplay: 'Martian' } } })).body.code).toBe('INVALID_REQUEST');
      expect((await call(`/users/${me.id}`, token, { method: 'PATCH', json: { mobile: null } })).body.mobile).toBeNull();
      // a stranger (no organisation in common) is not found; a fellow member is 403 (tests/server/user-settings.test.ts)
      expect((await call(`/users/${other.id}`, token, { method: 'PATCH', json: { name: 'Hacked' } })).status).toBe(404);
      expect((await s.ctx.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [other.id]))[0].name).not.toBe('Hacked');
    });
  });

  describe('GET /organisations', () => {
    it("lists the caller's organisations with their role; REST credentials only for admins and owners", async () => {
      const user = await makeUser(s.ctx.db);
      const a = await makeOrg(s.ctx.db, { name: 'Alpha Water' });
      const b = await makeOrg(s.ctx.db, { name: 'Beta Council', features: { meterReading: true } });
      await makeOrg(s.ctx.db, { name: 'Not Mine' });
      for (const o of [a, b]) await s.ctx.db.query(`UPDATE organisations SET rest_api = '{"key":"k","token":"t"}' WHERE id = $1`, [o.id]);
      await addMember(s.ctx.db, a.id, user.id, 2);
      await addMember(s.ctx.db, b.id, user.id, 1);
      const r = await call('/organisations', await s.tokenFor(user.id));
      expect(r.status).toBe(200);
      expect(r.body.organisations).toEqual([
        expect.objectContaining({ id: a.id, name: 'Alpha Water', role: 2, restApi: { key: 'k', token: 't' }, measurementUnit: 'Metres' }),
        expect.objectContaining({ id: b.id, name: 'Beta Council', role: 1, restApi: null, features: { isFuel: false, liveMode: true, meterReading: true } }),
      ]);
    });

    it('says whether the organisation has a Sigfox or Myriota sensor, whose callbacks Integration settings then offers (docs/decisions.md)', async () => {
      const user = await makeUser(s.ctx.db);
      const orgs = { cellular: await makeOrg(s.ctx.db), sigfox: await makeOrg(s.ctx.db), myriota: await makeOrg(s.ctx.db), none: await makeOrg(s.ctx.db) };
      for (const [radio, o] of Object.entries(orgs)) {
        await addMember(s.ctx.db, o.id, user.id, radio === 'sigfox' ? 1 : 3);
        await makeSensor(s.ctx.db, o.id, { radio: 'cellular' });
        if (radio === 'sigfox' || radio === 'myriota') await makeSensor(s.ctx.db, o.id, { radio });
      }
      // a Sigfox sensor not claimed by the cellular organisation does not count for it
      await makeSensor(s.ctx.db, null, { radio: 'sigfox' });
      const r = await call('/organisations', await s.tokenFor(user.id));
      const flag = Object.fromEntries(r.body.organisations.map((o: { id: string; radioNetworkSensors: boolean }) => [o.id, o.radioNetworkSensors]));
      expect(flag).toEqual({ [orgs.cellular.id]: false, [orgs.sigfox.id]: true, [orgs.myriota.id]: true, [orgs.none.id]: false });
    });
  });

  describe('POST /organisations/{orgId}/invite', () => {
    let org: { id: string };
    let owner: string;
    let ownerToken: string;
    const invite = (json: unknown, token = ownerToken, query = '') => call(`/organisations/${org.id}/invite${query}`, token, { method: 'POST', json });
    const linkCodeOf = async (email: string) => decodeURIComponent((await lastMail(email)).text.match(/\/accept\?email=[^&]+&code=(\S+)/)![1]);
    const signIn = (USERNAME: string, PASSWORD_: string) => cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME, PASSWORD: PASSWORD_ } });

    beforeAll(async () => {
      org = await makeOrg(s.ctx.db, { name: 'Invite Org' });
      owner = (await makeUser(s.ctx.db, { name: 'Olive Owner' })).id;
      await addMember(s.ctx.db, org.id, owner, 3);
      ownerToken = await s.tokenFor(owner);
    });

    it('invites a new email: an account waiting for its first password, an accept link, and the challenge on sign-in', async () => {
      const r = await invite({ email: 'Invitee@Test.local', name: 'Ivy', role: 2 });
      expect(r).toEqual({ status: 200, body: { email: 'invitee@test.local', status: 'Invited', inviteId: expect.any(String), lastInviteAt: clock } });
      const mail = await lastMail('invitee@test.local');
      expect(mail.kind).toBe('invitation');
      expect(mail.text).toContain('Olive Owner has invited you to join Invite Org');
      expect(mail.text).toMatch(new RegExp(`${s.url}/accept\\?email=invitee%40test\\.local&code=`));
      const code = await linkCodeOf('invitee@test.local');
      const challenge = await signIn('invitee@test.local', code);
      expect(challenge.body).toEqual({
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: expect.any(String),
        ChallengeParameters: { USER_ID_FOR_SRP: expect.any(String), requiredAttributes: '[]', userAttributes: expect.stringContaining('"email":"invitee@test.local"') },
      });
      const respond = (NEW_PASSWORD: string, Session = challenge.body.Session) =>
        cognito('RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', Session, ChallengeResponses: { USERNAME: challenge.body.ChallengeParameters.USER_ID_FOR_SRP, NEW_PASSWORD } });
      expect((await respond('weak')).body.__type).toBe('InvalidPasswordException');
      expect((await respond('Chosen-pass-2026!', 'forged')).body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
      const done = await respond('Chosen-pass-2026!');
      expect(done.status).toBe(200);
      expect(done.body.AuthenticationResult.IdToken).toEqual(expect.any(String));
      const orgs = await call('/organisations', done.body.AuthenticationResult.IdToken);
      expect(orgs.body.organisations).toMatchObject([{ id: org.id, role: 2 }]);
      expect((await respond('Another-pass-2026!')).body.__type).toBe('NotAuthorizedException'); // the session was spent
      expect((await signIn('invitee@test.local', code)).body.__type).toBe('NotAuthorizedException');
      const me = await call('/users/current-v2?email=invitee%40test.local', done.body.AuthenticationResult.IdToken);
      expect(me.body).toMatchObject({ name: 'Ivy', emailVerified: true });
      expect((await invite({ email: 'invitee@test.local', name: 'Ivy', role: 1 })).body).toEqual({ code: 'ALREADY_A_MEMBER', message: 'This user is already a member of your organisation.' });
    });

    it('invites an existing account pending its consent (issue 9); refuses a second open invitation, bad fields, and non-managers', async () => {
      const existing = await makeUser(s.ctx.db, { email: 'existing@test.local' });
      expect((await invite({ email: 'existing@test.local', name: 'Ex', role: 1 })).body).toMatchObject({ status: 'Invited' });
      expect(await s.ctx.db.query('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [org.id, existing.id])).toEqual([]);
      expect((await lastMail('existing@test.local')).text).toContain('has invited you to join Invite Org');
      await invite({ email: 'twice@test.local', name: 'Twice', role: 1 });
      expect((await invite({ email: 'twice@test.local', name: 'Twice', role: 1 })).body.code).toBe('ALREADY_INVITED');
      expect((await invite({ email: 'reader@test.local', name: 'R', role: 4 })).body.code).toBe('INVALID_ROLE'); // no meterReading feature
      expect((await invite({ email: 'nope', name: 'R', role: 1 })).body.code).toBe('INVALID_EMAIL');
      expect((await invite({ email: 'm@test.local', name: 'M', role: 1, mobile: 'abc' })).body.code).toBe('INVALID_MOBILE');
      expect((await invite({ email: 'o@test.local', name: 'O', role: 3 })).status).toBe(400);
      const member = await makeUser(s.ctx.db);
      await addMember(s.ctx.db, org.id, member.id, 1);
      expect((await invite({ email: 'x@test.local', name: 'X', role: 1 }, await s.tokenFor(member.id))).status).toBe(403);
      const outsider = await makeUser(s.ctx.db);
      expect((await invite({ email: 'x@test.local', name: 'X', role: 1 }, await s.tokenFor(outsider.id))).status).toBe(404);
    });

    it('resends at most once per 10 minutes with a new link; the old one stops working', async () => {
      await invite({ email: 'resend@test.local', name: 'Re', role: 1 });
      const first = await linkCodeOf('resend@test.local');
      clock += 9 * 60_000;
      const early = await invite({ email: 'resend@test.local' }, ownerToken, '?resend=true');
      expect(early.status).toBe(429);
      expect(early.body.code).toBe('TOO_MANY_REQUESTS');
      expect(early.body.message).toContain('TOO_MANY_REQUESTS');
      clock += 60_000;
      expect((await invite({ email: 'resend@test.local' }, ownerToken, '?resend=true')).body).toMatchObject({ status: 'Invited', lastInviteAt: clock });
      const second = await linkCodeOf('resend@test.local');
      expect(second).not.toBe(first);
      expect((await signIn('resend@test.local', first)).body.__type).toBe('NotAuthorizedException');
      expect((await signIn('resend@test.local', second)).body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
      expect((await invite({ email: 'never@test.local' }, ownerToken, '?resend=true')).body.code).toBe('INVITATION_NOT_FOUND');
    });

    it('an invitation link dies 7 days after it was sent (issue 35: a one-time token, tests/server/invitation-link.test.ts)', async () => {
      await invite({ email: 'late@test.local', name: 'Late', role: 1 });
      const code = await linkCodeOf('late@test.local');
      clock += 7 * 86_400_000;
      expect((await signIn('late@test.local', code)).body).toEqual({ __type: 'NotAuthorizedException', message: "This invitation link has expired. Ask your organisation's admin to send the invitation again." });
    });
  });

  it('a user who already has a password is never given the new-password challenge', async () => {
    await insertUser(s.ctx.db, { email: 'plain@test.local', name: 'P', passwordHash: await hashPassword(PASSWORD), status: 'CONFIRMED', emailVerified: true, profileCreated: true }, clock);
    const r = await cognito('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: 'plain@test.local', PASSWORD } });
    expect(r.body.ChallengeName).toBeUndefined();
    expect(r.body.AuthenticationResult.IdToken).toEqual(expect.any(String));
  });
});
