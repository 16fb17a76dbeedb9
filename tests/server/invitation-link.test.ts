import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, identityAccounts } from './security-helpers';
import { orgsOf, twoOrganisations } from './fixtures';
import { verifyPassword } from '../../server/identity/passwords';
import { INVITE_LINK_MESSAGES } from '../../src/domain/messages';

const DAY = 86_400_000;

/**
 * One-time invitation links (issue 35): the accept link of an invitation to a new address carries a
 * random token, not the account's password: it sets the first password once, dies 7 days after it
 * was sent or when a resend replaces it, and a dead one says why.
 */
describe.each(testDrivers)('invitation links are one-time tokens on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.now();
  let orgA = '';
  let orgB = '';
  let ownerToken = '';
  const accounts = identityAccounts(() => s, 'Unused-pass-2026!');
  const mails = async (to: string) =>
    (await s.ctx.db.query<{ payload: { kind: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at', [to]))
      .map((m) => m.payload)
      .filter((m) => m.kind === 'invitation');
  const linkCodes = async (to: string) => (await mails(to)).map((m) => new URL(/https?:\/\/\S+\/accept\?\S+/.exec(m.text)![0]).searchParams.get('code')!);
  const invite = async (orgId: string, email: string, resend = false) => {
    const res = await s.api(`/organisations/${orgId}/invite${resend ? '?resend=true' : ''}`, { method: 'POST', token: ownerToken, json: resend ? { email } : { email, name: 'New Person', role: 1 } });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const choosePassword = (email: string, session: string, NEW_PASSWORD = 'Own-choice-2026!') =>
    accounts.cognito('RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', ClientId: CLIENT, Session: session, ChallengeResponses: { USERNAME: email, NEW_PASSWORD } });
  const refused = (message: string) => ({ status: 400, body: { __type: 'NotAuthorizedException', message } });

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
    const world = await twoOrganisations(s.ctx.db);
    ({ orgA, orgB } = world);
    ownerToken = await s.tokenFor(world.owner.id);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the link carries a one-time token, not a password: the email has no temporary password, the account’s password is not the code, only its hash is kept', async () => {
    const email = 'no-temp@link.test';
    await invite(orgA, email);
    const [mail] = await mails(email);
    expect(mail!.text).not.toMatch(/temporary password/i);
    expect(mail!.text).toContain('The link works once and expires in 7 days');
    const [code] = await linkCodes(email);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [user] = await s.ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]);
    expect(await verifyPassword(code!, user!.password_hash)).toBe(false);
    const stored = await s.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM invitation_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = $1', [email]);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(code);
    expect((await accounts.signIn(email, code!)).body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  });

  it('the link is usable once: it sets the first password and joins its organisation, then says it was used', async () => {
    const email = 'once@link.test';
    await invite(orgA, email);
    const [code] = await linkCodes(email);
    const first = await accounts.signIn(email, code!);
    const second = await accounts.signIn(email, code!); // the same link opened twice before either answered
    expect((await choosePassword(email, first.body.Session)).status).toBe(200);
    expect(await orgsOf(s.ctx.db, email)).toEqual([orgA]);
    expect(await accounts.signIn(email, code!)).toEqual(refused(INVITE_LINK_MESSAGES.used));
    // a dead link is no failed password: it needs the token, so it counts nothing towards the lockout
    const [row] = await s.ctx.db.query<{ failed_logins: number }>('SELECT failed_logins FROM users WHERE email = $1', [email]);
    expect(row!.failed_logins).toBe(0);
    // the other open challenge of the same link cannot set the password again
    expect((await choosePassword(email, second.body.Session, 'Other-choice-2026!')).body.__type).toBe('NotAuthorizedException');
    expect((await accounts.signIn(email, 'Own-choice-2026!')).body.AuthenticationResult.IdToken).toEqual(expect.any(String));
  });

  it('expires 7 days after it was sent; a resend gives a new link and the old one says it was replaced', async () => {
    const email = 'late@link.test';
    await invite(orgA, email);
    const [old] = await linkCodes(email);
    clock += 7 * DAY;
    expect(await accounts.signIn(email, old!)).toEqual(refused(INVITE_LINK_MESSAGES.expired));
    clock -= 7 * DAY; // back to the owner's session time: the resend is the next step of the test, not a week later
    await s.ctx.db.query('UPDATE invitations SET last_invite_at = last_invite_at - $2 WHERE email = $1', [email, 3_600_000]);
    await invite(orgA, email, true);
    const [, fresh] = await linkCodes(email);
    expect(await accounts.signIn(email, old!)).toEqual(refused(INVITE_LINK_MESSAGES.superseded));
    const challenge = await accounts.signIn(email, fresh!);
    expect(challenge.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect((await choosePassword(email, challenge.body.Session)).status).toBe(200);
    expect(await orgsOf(s.ctx.db, email)).toEqual([orgA]);
  });

  it('a cancelled invitation’s link says so, also from a challenge opened before the cancel', async () => {
    const email = 'cancelled@link.test';
    await invite(orgA, email);
    const [code] = await linkCodes(email);
    const challenge = await accounts.signIn(email, code!);
    expect((await s.api(`/organisations/${orgA}/invite/${encodeURIComponent(email)}`, { method: 'DELETE', token: ownerToken })).status).toBe(200);
    expect(await choosePassword(email, challenge.body.Session)).toEqual(refused(INVITE_LINK_MESSAGES.cancelled));
    expect(await accounts.signIn(email, code!)).toEqual(refused(INVITE_LINK_MESSAGES.cancelled));
    expect(await orgsOf(s.ctx.db, email)).toEqual([]);
  });

  it('each organisation’s link is its own: one sets the password and joins that organisation; the other then says the account has a password', async () => {
    const email = 'two-links@link.test';
    await invite(orgA, email);
    await invite(orgB, email);
    const [a, b] = await linkCodes(email);
    const challenge = await accounts.signIn(email, b!);
    expect((await choosePassword(email, challenge.body.Session)).status).toBe(200);
    expect(await orgsOf(s.ctx.db, email)).toEqual([orgB]);
    expect(await accounts.signIn(email, a!)).toEqual(refused(INVITE_LINK_MESSAGES.hasPassword));
  });

  it('another account’s token, or a made-up one, is only a wrong password', async () => {
    await invite(orgA, 'owner-of-token@link.test');
    const [code] = await linkCodes('owner-of-token@link.test');
    await invite(orgA, 'someone-else@link.test');
    expect(await accounts.signIn('someone-else@link.test', code!)).toEqual(refused('Incorrect username or password.'));
    expect(await accounts.signIn('nobody@link.test', code!)).toEqual(refused('Incorrect username or password.'));
    expect(await accounts.signIn('someone-else@link.test', 'A'.repeat(43))).toEqual(refused('Incorrect username or password.'));
  });
});
