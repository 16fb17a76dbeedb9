import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';

describe.each(testDrivers)('an invitation of an existing account waits for its consent on %s (issue 9)', (driver) => {
  let s: TestServer;
  let org: { id: string; name: string };
  let ownerToken: string;
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any }); // eslint-disable-line @typescript-eslint/no-explicit-any
  const invite = async (email: string, role = 2) => json(await s.api(`/organisations/${org.id}/invite`, { method: 'POST', token: ownerToken, json: { email, name: 'Invitee', role } }));
  const memberships = (userId: string) => s.ctx.db.query<{ role: number }>('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [org.id, userId]);

  beforeAll(async () => {
    s = await startTestServer(driver);
    org = await makeOrg(s.ctx.db, { name: 'Consent Org' });
    const owner = await makeUser(s.ctx.db, { name: 'Olive Owner' });
    await addMember(s.ctx.db, org.id, owner.id, 3);
    ownerToken = await s.tokenFor(owner.id);
  });
  afterAll(() => s?.close());

  it('is not a membership until the invitee accepts; the invitee lists and accepts it', async () => {
    const user = await makeUser(s.ctx.db, { email: 'accepts@consent.test' });
    expect((await invite('accepts@consent.test')).body).toMatchObject({ status: 'Invited' });
    expect(await memberships(user.id)).toEqual([]);
    const token = await s.tokenFor(user.id);
    const list = await json(await s.api('/invitations', { token }));
    expect(list.body.invitations).toEqual([expect.objectContaining({ organisation: expect.objectContaining({ id: org.id, name: 'Consent Org' }), role: 2, invitedBy: 'Olive Owner' })]);
    const inviteId = list.body.invitations[0].inviteId;
    // nobody else can answer it
    const stranger = await makeUser(s.ctx.db);
    expect((await s.api(`/invitations/${inviteId}/accept`, { method: 'POST', token: await s.tokenFor(stranger.id) })).status).toBe(404);
    const accepted = await json(await s.api(`/invitations/${inviteId}/accept`, { method: 'POST', token }));
    expect(accepted.body).toMatchObject({ status: 'Accepted', organisation: { id: org.id } });
    expect(await memberships(user.id)).toEqual([{ role: 2 }]);
    expect((await json(await s.api('/invitations', { token }))).body.invitations).toEqual([]);
    expect((await s.api(`/invitations/${inviteId}/decline`, { method: 'POST', token })).status).toBe(404);
  });

  it('can be declined: no membership, and the organisation may invite again', async () => {
    const user = await makeUser(s.ctx.db, { email: 'declines@consent.test' });
    await invite('declines@consent.test');
    const token = await s.tokenFor(user.id);
    const [pending] = (await json(await s.api('/invitations', { token }))).body.invitations;
    expect((await json(await s.api(`/invitations/${pending.inviteId}/decline`, { method: 'POST', token }))).body).toMatchObject({ status: 'Declined' });
    expect(await memberships(user.id)).toEqual([]);
    expect((await json(await s.api('/invitations', { token }))).body.invitations).toEqual([]);
    expect((await invite('declines@consent.test')).body).toMatchObject({ status: 'Invited' });
  });

  it('a resend asks again and still does not add the account', async () => {
    const user = await makeUser(s.ctx.db, { email: 'resend@consent.test' });
    await invite('resend@consent.test');
    await s.ctx.db.query('UPDATE invitations SET last_invite_at = last_invite_at - 3600000 WHERE email = $1', ['resend@consent.test']);
    const again = await json(await s.api(`/organisations/${org.id}/invite?resend=true`, { method: 'POST', token: ownerToken, json: { email: 'resend@consent.test' } }));
    expect(again.body).toMatchObject({ status: 'Invited' });
    expect(await memberships(user.id)).toEqual([]);
  });

  it('refuses a malformed invitation id', async () => {
    const user = await makeUser(s.ctx.db);
    expect((await s.api('/invitations/not-a-uuid/accept', { method: 'POST', token: await s.tokenFor(user.id) })).status).toBe(400);
  });
});

describe.each(testDrivers)('an organisation sends at most INVITATIONS_PER_HOUR new invitations an hour on %s (issue 35)', (driver) => {
  let s: TestServer;
  let clock = Date.UTC(2026, 0, 5, 9);
  const LIMIT = 3;

  beforeAll(async () => {
    s = await startTestServer(driver, { INVITATIONS_PER_HOUR: String(LIMIT) }, { now: () => clock });
  });
  afterAll(() => s?.close());

  it('answers the next one 429 TOO_MANY_REQUESTS with Retry-After, sends and stores nothing for it, and leaves other organisations alone', async () => {
    const org = await makeOrg(s.ctx.db);
    const owner = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, owner.id, 3);
    const invite = async (orgId: string, email: string) =>
      s.api(`/organisations/${orgId}/invite`, { method: 'POST', token: await s.tokenFor(owner.id), json: { email, name: 'Invitee', role: 2 } });
    for (let i = 0; i < LIMIT; i++) {
      expect((await invite(org.id, `limit-${i}@rate.test`)).status).toBe(200);
      clock += 60_000;
    }
    // a cancelled invitation still counts: cancelling does not make room
    expect((await s.api(`/organisations/${org.id}/invite/${encodeURIComponent('limit-0@rate.test')}`, { method: 'DELETE', token: await s.tokenFor(owner.id) })).status).toBeLessThan(300);
    const refused = await invite(org.id, 'one-too-many@rate.test');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: 'Your organisation has sent too many invitations in the last hour. Please try again later.' });
    expect(refused.headers.get('retry-after')).toBe(String(3600 - 3 * 60));
    expect(await s.ctx.db.query('SELECT 1 FROM users WHERE email = $1', ['one-too-many@rate.test'])).toEqual([]);
    expect(await s.ctx.db.query('SELECT 1 FROM outbox WHERE recipient = $1', ['one-too-many@rate.test'])).toEqual([]);

    // another organisation's managers are not held back
    const other = await makeOrg(s.ctx.db);
    await addMember(s.ctx.db, other.id, owner.id, 3);
    expect((await invite(other.id, 'elsewhere@rate.test')).status).toBe(200);

    // an hour after the first, there is room for one more again
    clock += 3600_000 - 3 * 60_000 + 1;
    expect((await invite(org.id, 'one-too-many@rate.test')).status).toBe(200);
    expect((await invite(org.id, 'and-another@rate.test')).status).toBe(429);
  });
});
