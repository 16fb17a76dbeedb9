import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { CLIENT, identityAccounts } from './security-helpers';
import { orgsOf, twoOrganisations } from './fixtures';

/**
 * Each invitation is accepted or declined on its own (issue 35): a new address invited by two
 * organisations that chooses its password from one invitation's link (a one-time token of that
 * invitation) joins that organisation only, and is asked about the other in the app; one that
 * resets its password instead of following a link joins none until it answers each.
 */
describe.each(testDrivers)('each invitation accepted on its own, on %s (issue 35)', (driver) => {
  let s: TestServer;
  let orgA = '';
  let orgB = '';
  let ownerToken = '';
  const accounts = identityAccounts(() => s, 'Unused-pass-2026!');
  const outbox = async (to: string, kind: string) =>
    (await s.ctx.db.query<{ payload: { kind: string; text: string } }>('SELECT payload FROM outbox WHERE recipient = $1 ORDER BY created_at', [to])).filter((m) => m.payload.kind === kind).map((m) => m.payload.text);
  const invite = async (orgId: string, email: string) => {
    const res = await s.api(`/organisations/${orgId}/invite`, { method: 'POST', token: ownerToken, json: { email, name: 'New Person', role: 1 } });
    expect(res.status).toBe(200);
  };
  const pending = async (idToken: string) => {
    const res = await s.api('/invitations', { token: idToken });
    return ((await res.json()) as { invitations: { inviteId: string; organisation: { id: string } }[] }).invitations;
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    const world = await twoOrganisations(s.ctx.db);
    ({ orgA, orgB } = world);
    ownerToken = await s.tokenFor(world.owner.id);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('choosing a password from one invitation’s email joins that organisation only; the other waits for an answer', async () => {
    const email = 'two-invites@each.test';
    await invite(orgA, email);
    await invite(orgB, email);
    const [, second] = (await outbox(email, 'invitation')).map((t) => new URL(/https?:\/\/\S+\/accept\?\S+/.exec(t)![0]).searchParams.get('code')!);
    const challenge = await accounts.signIn(email, second!);
    expect(challenge.body.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const done = await accounts.cognito('RespondToAuthChallenge', {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ClientId: CLIENT,
      Session: challenge.body.Session,
      ChallengeResponses: { USERNAME: email, NEW_PASSWORD: 'Own-choice-2026!' },
    });
    const idToken = done.body.AuthenticationResult.IdToken as string;
    expect(await orgsOf(s.ctx.db, email)).toEqual([orgB]);
    const waiting = await pending(idToken);
    expect(waiting.map((i) => i.organisation.id)).toEqual([orgA]);
    const accepted = await s.api(`/invitations/${waiting[0]!.inviteId}/accept`, { method: 'POST', token: idToken });
    expect(accepted.status).toBe(200);
    expect((await orgsOf(s.ctx.db, email)).sort()).toEqual([orgA, orgB].sort());
  });

  it('a reset password instead of a link joins no organisation; each invitation is then answered on its own', async () => {
    const email = 'reset-instead@each.test';
    await invite(orgA, email);
    await invite(orgB, email);
    expect((await accounts.cognito('ForgotPassword', { ClientId: CLIENT, Username: email })).status).toBe(200);
    const code = /reset code is (\d{6})/.exec((await outbox(email, 'reset-code'))[0]!)![1]!;
    const reset = await accounts.cognito('ConfirmForgotPassword', { ClientId: CLIENT, Username: email, ConfirmationCode: code, Password: 'Own-choice-2026!' });
    expect(reset.status).toBe(200);
    expect(await orgsOf(s.ctx.db, email)).toEqual([]);
    const { IdToken } = await accounts.tokensOf(email, 'Own-choice-2026!');
    const waiting = await pending(IdToken);
    expect(waiting.map((i) => i.organisation.id).sort()).toEqual([orgA, orgB].sort());
    const declined = await s.api(`/invitations/${waiting.find((i) => i.organisation.id === orgA)!.inviteId}/decline`, { method: 'POST', token: IdToken });
    expect(declined.status).toBe(200);
    expect((await pending(IdToken)).map((i) => i.organisation.id)).toEqual([orgB]);
    expect(await orgsOf(s.ctx.db, email)).toEqual([]);
  });
});
