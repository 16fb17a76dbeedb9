import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { memberListSchema, type Member } from '../../src/contract/member.schema';
import { organisationSchema } from '../../src/contract/organisation.schema';
import { connectWs } from './live-helpers';

// organisation-and-routes 7.1 with the rules of 4, 5 and 6: organisation update, members,
// role and rule changes, remove / leave, cancel invitation.
describe.each(testDrivers)('organisation settings calls on %s', (driver) => {
  let s: TestServer;
  let org: { id: string; name: string };
  let other: { id: string };
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const call = (who: string, method: string, path: string, json?: unknown) => s.api(path, { method, token: tokens[who], json });
  const members = async (): Promise<Member[]> => {
    const res = await call('owner', 'GET', `/organisations/${org.id}/members`);
    expect(res.status).toBe(200);
    return memberListSchema.parse(await res.json()).members;
  };
  const roleOf = async (who: string) => (await members()).find((m) => m.cognitoIdentityId === ids[who])?.role;
  const setRole = (who: string, target: string, role: number) =>
    call(who, 'PATCH', `/organisations/${org.id}/members/${ids[target]}?region=ap-southeast-2`, { cognitoIdentityId: ids[target], role });
  const remove = (who: string, target: string) => call(who, 'DELETE', `/organisations/${org.id}/members/${ids[target]}`, { cognitoIdentityId: ids[target] });
  const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;

  beforeAll(async () => {
    s = await startTestServer(driver);
    other = await makeOrg(s.ctx.db, { name: 'Other Org' });
    const stranger = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, other.id, stranger.id, 3);
    ids.stranger = stranger.id;
    tokens.stranger = await s.tokenFor(stranger.id);
  });
  afterAll(() => s?.close());

  // a fresh organisation per test: owner, two admins, a member, a meter reader
  beforeEach(async () => {
    org = await makeOrg(s.ctx.db, { name: 'Settings Org', features: { meterReading: false } });
    for (const [who, role] of [['owner', 3], ['admin', 2], ['admin2', 2], ['member', 1], ['reader', 1]] as const) {
      const u = await makeUser(s.ctx.db, { name: who });
      await addMember(s.ctx.db, org.id, u.id, role);
      ids[who] = u.id;
      tokens[who] = await s.tokenFor(u.id);
    }
  });

  it('PUT organisation: managers rename (trimmed, re-slugged, old slug kept) and set the unit; others 403, strangers 404', async () => {
    const res = await call('admin', 'PUT', `/organisations/${org.id}`, { name: "  Tom's Water Co.  ", measurementUnit: 'Inches' });
    expect(res.status).toBe(200);
    const o = organisationSchema.parse(await res.json());
    expect(o).toMatchObject({ name: "Tom's Water Co.", slug: 'tom-s-water-co', measurementUnit: 'Inches', role: 2 });
    expect(o.formerSlugs?.length).toBe(1);
    expect((await call('member', 'PUT', `/organisations/${org.id}`, { name: 'X', measurementUnit: 'Metres' })).status).toBe(403);
    expect((await call('stranger', 'PUT', `/organisations/${org.id}`, { name: 'X', measurementUnit: 'Metres' })).status).toBe(404);
    expect((await call('owner', 'PUT', `/organisations/${org.id}`, { name: 'X', measurementUnit: 'Feet' })).status).toBe(400);
  });

  it('PUT organisation: the council file encoding (issue 36, item 24): UTF-8 by default, Windows-1252 when a manager chooses it, kept when absent, anything else 400', async () => {
    const encodingOf = async () => {
      const res = await call('member', 'GET', '/organisations');
      return organisationSchema.array().parse(((await res.json()) as { organisations: unknown[] }).organisations).find((o) => o.id === org.id)?.councilFileEncoding;
    };
    expect(await encodingOf()).toBe('UTF-8');
    const res = await call('admin', 'PUT', `/organisations/${org.id}`, { name: 'Settings Org', measurementUnit: 'Metres', councilFileEncoding: 'Windows-1252' });
    expect(res.status).toBe(200);
    expect(organisationSchema.parse(await res.json()).councilFileEncoding).toBe('Windows-1252');
    expect(await encodingOf()).toBe('Windows-1252');
    // a save without the field (another client, or an organisation without meter reading) keeps it
    expect((await call('owner', 'PUT', `/organisations/${org.id}`, { name: 'Settings Org', measurementUnit: 'Inches' })).status).toBe(200);
    expect(await encodingOf()).toBe('Windows-1252');
    for (const bad of ['latin1', 'utf-8', 42, null]) {
      const refused = await call('owner', 'PUT', `/organisations/${org.id}`, { name: 'Settings Org', measurementUnit: 'Metres', councilFileEncoding: bad });
      expect(refused.status).toBe(400);
    }
    expect((await call('member', 'PUT', `/organisations/${org.id}`, { name: 'Settings Org', measurementUnit: 'Metres', councilFileEncoding: 'UTF-8' })).status).toBe(403);
    expect(await encodingOf()).toBe('Windows-1252');
  });

  it('PUT organisation: the four name rules with the spec messages, nothing stored on failure', async () => {
    const cases: [string, string][] = [
      ['   ', 'Name too short'],
      ['a'.repeat(101), 'Name too long'],
      ['Acme & Sons', "Only the following symbols are allowed: '.-"],
      ['123 - 456', 'Must contain at least 1 letter'],
    ];
    for (const [name, message] of cases) {
      const res = await call('owner', 'PUT', `/organisations/${org.id}`, { name, measurementUnit: 'Inches' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'INVALID_ORG_NAME', message });
    }
    const [row] = await s.ctx.db.query<{ name: string; measurement_unit: string }>('SELECT name, measurement_unit FROM organisations WHERE id = $1', [org.id]);
    expect(row).toEqual({ name: 'Settings Org', measurement_unit: 'Metres' });
  });

  it('a rename never takes a slug another organisation has or had', async () => {
    await s.ctx.db.query(`UPDATE organisations SET slug = 'taken-name' WHERE id = $1`, [other.id]);
    const res = await call('owner', 'PUT', `/organisations/${org.id}`, { name: 'Taken Name', measurementUnit: 'Metres' });
    expect(organisationSchema.parse(await res.json()).slug).toBe('taken-name-2');
    await s.ctx.db.query(`UPDATE organisations SET slug = 'moved-on' WHERE id = $1`, [other.id]); // 'taken-name' is now other's history
    const again = await call('owner', 'PUT', `/organisations/${org.id}`, { name: 'TAKEN name', measurementUnit: 'Metres' });
    expect(organisationSchema.parse(await again.json()).slug).toBe('taken-name-2'); // still slugs to itself: kept
  });

  it('GET members: members and pending invitations with role, status and expiry; every role may read, strangers 404', async () => {
    const now = Date.now();
    await s.ctx.db.query(
      `INSERT INTO invitations (id, org_id, email, name, role, last_invite_at, created_at) VALUES (gen_random_uuid(), $1, 'new@x.test', 'New', 1, $2, $2)`,
      [org.id, now],
    );
    const list = await members();
    expect(list.filter((m) => m.status === 'Active')).toHaveLength(5);
    expect(list.find((m) => m.status === 'Invited')).toMatchObject({ email: 'new@x.test', role: 1, lastInviteAt: now, inviteExpiresAt: now + 7_776_000_000 });
    expect((await call('member', 'GET', `/organisations/${org.id}/members`)).status).toBe(200);
    expect((await call('stranger', 'GET', `/organisations/${org.id}/members`)).status).toBe(404);
  });

  it('PATCH role: managers only; never own row; never the owner; meter reader only with meterReading', async () => {
    expect((await setRole('admin', 'member', 2)).status).toBe(200);
    expect(await roleOf('member')).toBe(2);
    expect((await setRole('admin', 'member', 1)).status).toBe(200);
    const byMember = await setRole('member', 'reader', 2);
    expect(byMember.status).toBe(403);
    expect((await setRole('stranger', 'member', 2)).status).toBe(404);
    const own = await setRole('admin', 'admin', 1);
    expect([own.status, await codeOf(own)]).toEqual([403, 'CANNOT_ACT_ON_SELF']);
    const owner = await setRole('admin', 'owner', 1);
    expect([owner.status, await codeOf(owner)]).toEqual([403, 'OWNER_ROLE_FIXED']);
    expect(await roleOf('owner')).toBe(3);
    expect((await setRole('owner', 'member', 3)).status).toBe(400); // no one is made owner here
    const reader = await setRole('owner', 'reader', 4);
    expect([reader.status, await codeOf(reader)]).toEqual([400, 'INVALID_ROLE']);
    await s.ctx.db.query(`UPDATE organisations SET features = features || '{"meterReading":true}' WHERE id = $1`, [org.id]);
    expect((await setRole('owner', 'reader', 4)).status).toBe(200);
    expect(await roleOf('reader')).toBe(4);
    const wrongBody = await call('owner', 'PATCH', `/organisations/${org.id}/members/${ids.member}`, { cognitoIdentityId: ids.admin, role: 2 });
    expect(wrongBody.status).toBe(400);
    expect((await setRole('owner', 'stranger', 2)).status).toBe(404);
  });

  it('a role change takes effect at once: a demoted admin is refused on the next call', async () => {
    expect((await setRole('admin', 'member', 2)).status).toBe(200);
    expect((await setRole('owner', 'admin', 1)).status).toBe(200);
    expect((await setRole('admin', 'member', 1)).status).toBe(403);
    expect((await call('admin', 'PUT', `/organisations/${org.id}`, { name: 'Nope', measurementUnit: 'Metres' })).status).toBe(403);
  });

  it('PATCH notification rule: set and cleared (null); managers only', async () => {
    const path = `/organisations/${org.id}/members/${ids.member}`;
    const set = await call('admin', 'PATCH', path, { cognitoIdentityId: ids.member, notificationRule: { email: false, sms: true } });
    expect(set.status).toBe(200);
    expect((await set.json()).notificationRule).toEqual({ email: false, sms: true });
    expect((await call('member', 'PATCH', path, { cognitoIdentityId: ids.member, notificationRule: null })).status).toBe(403);
    const cleared = await call('admin', 'PATCH', path, { cognitoIdentityId: ids.member, notificationRule: null });
    expect((await cleared.json()).notificationRule).toBeNull();
  });

  it('two managers changing the same member at once: both answered, the stored role is one of theirs', async () => {
    const [a, b] = await Promise.all([setRole('admin', 'member', 2), setRole('admin2', 'member', 1)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([1, 2]).toContain(await roleOf('member'));
  });

  it('two admins demoting each other at once: exactly one wins, the other is refused', async () => {
    const [a, b] = await Promise.all([setRole('admin', 'admin2', 1), setRole('admin2', 'admin', 1)]);
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect([await roleOf('admin'), await roleOf('admin2')].sort()).toEqual([1, 2]);
  });

  // PGlite has one connection, so a request cannot wait on a lock held by the test there
  it.runIf(driver === 'postgres')('a manager demoted while their change waits for the lock is refused once it runs', async () => {
    let pending: Promise<Response> | undefined;
    await s.ctx.db.tx(async (q) => {
      await q.query('SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2 FOR UPDATE', [org.id, ids.member]);
      await q.query('UPDATE memberships SET role = 1 WHERE org_id = $1 AND user_id = $2', [org.id, ids.admin]);
      pending = setRole('admin', 'member', 2); // passes the first check, then waits for our locks
      await new Promise((r) => setTimeout(r, 400));
    });
    const res = await pending!;
    expect(res.status).toBe(403);
    expect(await roleOf('member')).toBe(1);
  });

  it('DELETE member: managers remove; members 403; strangers 404; owner protected; removal is immediate', async () => {
    expect((await remove('member', 'reader')).status).toBe(403);
    expect((await remove('stranger', 'member')).status).toBe(404);
    const owner = await remove('admin', 'owner');
    expect([owner.status, await codeOf(owner)]).toEqual([403, 'OWNER_PROTECTED']);
    expect((await remove('admin', 'member')).status).toBe(200);
    expect(await roleOf('member')).toBeUndefined();
    expect((await call('member', 'GET', `/organisations/${org.id}/members`)).status).toBe(404);
    expect((await remove('admin', 'member')).status).toBe(404);
    const noBody = await s.api(`/organisations/${org.id}/members/${ids.reader}`, { method: 'DELETE', token: tokens.admin });
    expect(noBody.status).toBe(400);
  });

  it("removal ends the member's live connection at once, not at the broker's next re-check (60 s)", async () => {
    const c = await connectWs(s, tokens.member);
    await c.subscribeAsync(`orgs/${org.id}/#`);
    const closed = new Promise<number>((r) => c.once('close', () => r(Date.now())));
    const t0 = Date.now();
    expect((await remove('admin', 'member')).status).toBe(200);
    expect((await closed) - t0).toBeLessThan(5_000);
    const again = await connectWs(s, tokens.member);
    await expect(again.subscribeAsync(`orgs/${org.id}/#`)).rejects.toThrow(/Subscribe error/);
    await again.endAsync();
  });

  it("making a member a meter reader ends their live connection on this process and refuses the organisation's data after it", async () => {
    await s.ctx.db.query(`UPDATE organisations SET features = features || '{"meterReading": true}'::jsonb WHERE id = $1`, [org.id]);
    const c = await connectWs(s, tokens.member);
    await c.subscribeAsync(`orgs/${org.id}/#`);
    // no wait for the broker's 60-second re-check: the close comes from the role change itself
    const closed = new Promise<void>((r) => c.once('close', () => r()));
    expect((await setRole('admin', 'member', 4)).status).toBe(200);
    await closed;
    const again = await connectWs(s, tokens.member);
    await expect(again.subscribeAsync(`orgs/${org.id}/#`)).rejects.toThrow(/Subscribe error/);
    await again.endAsync();
    // and their next gateway call sees the new role: meter readers read settings, never sensors
    expect((await call('member', 'GET', `/organisations/${org.id}/members`)).status).toBe(200);
    expect((await call('member', 'GET', `/organisations/${org.id}/sensors`)).status).toBe(403);
  });

  it('leave: any role but the owner leaves with its own id; the last owner can never leave', async () => {
    const res = await remove('member', 'member');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ cognitoIdentityId: ids.member, left: true, unassignedRouteTasks: 0 });
    expect((await remove('admin', 'admin')).status).toBe(200);
    const owner = await remove('owner', 'owner');
    expect([owner.status, await codeOf(owner)]).toEqual([403, 'OWNER_CANNOT_LEAVE']);
    expect(await roleOf('owner')).toBe(3);
  });

  // issue 36: a member who goes no longer holds route tasks nobody else can take
  describe('route tasks of a member who is removed or leaves', () => {
    let taskNo = 0;
    const task = async (orgId: string, assignee: string | null, state: 'waiting' | 'active' | 'complete' | 'exported') => {
      const id = crypto.randomUUID();
      const started = state === 'waiting' ? null : 1_700_000_000_000;
      const completed = state === 'complete' || state === 'exported' ? 1_700_000_100_000 : null;
      await s.ctx.db.query(
        `INSERT INTO route_tasks (id, org_id, task_number, route_name, assigned_to, started_at, completed_at, exported, created_at)
         VALUES ($1, $2, $3, 'R1', $4, $5, $6, $7, 1)`,
        [id, orgId, ++taskNo, assignee, started, completed, state === 'exported'],
      );
      return id;
    };
    const assigneeOf = async (id: string) => (await s.ctx.db.query<{ assigned_to: string | null }>('SELECT assigned_to FROM route_tasks WHERE id = $1', [id]))[0].assigned_to;
    const unfinished = (who: string, target: string) => call(who, 'GET', `/organisations/${org.id}/members/${ids[target]}/unfinished-route-tasks`);
    let t: Record<'waiting' | 'active' | 'complete' | 'exported' | 'otherMember' | 'otherOrg', string>;

    beforeEach(async () => {
      await s.ctx.db.query(`UPDATE organisations SET features = features || '{"meterReading": true}'::jsonb WHERE id = $1`, [org.id]);
      // the member reads in another organisation too: those tasks are not this organisation's to free
      await addMember(s.ctx.db, other.id, ids.member, 1);
      t = {
        waiting: await task(org.id, ids.member, 'waiting'),
        active: await task(org.id, ids.member, 'active'),
        complete: await task(org.id, ids.member, 'complete'),
        exported: await task(org.id, ids.member, 'exported'),
        otherMember: await task(org.id, ids.admin2, 'waiting'),
        otherOrg: await task(other.id, ids.member, 'active'),
      };
    });

    it('the count: unfinished (Waiting, Active) tasks in this organisation; managers for anyone, anyone for themself', async () => {
      const res = await unfinished('admin', 'member');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ cognitoIdentityId: ids.member, unfinishedRouteTasks: 2 });
      expect(await (await unfinished('member', 'member')).json()).toMatchObject({ unfinishedRouteTasks: 2 });
      expect(await (await unfinished('owner', 'admin2')).json()).toMatchObject({ unfinishedRouteTasks: 1 });
      expect(await (await unfinished('owner', 'owner')).json()).toMatchObject({ unfinishedRouteTasks: 0 });
      expect((await unfinished('member', 'admin2')).status).toBe(403);
      expect((await unfinished('stranger', 'member')).status).toBe(404);
      expect(await codeOf(await unfinished('admin', 'stranger'))).toBe('MEMBER_NOT_FOUND');
      expect((await call('admin', 'GET', `/organisations/${org.id}/members/not-a-uuid/unfinished-route-tasks`)).status).toBe(400);
    });

    it('removal unassigns exactly those tasks in the same call; complete, exported, other members and other organisations keep theirs', async () => {
      const res = await remove('admin', 'member');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ cognitoIdentityId: ids.member, left: false, unassignedRouteTasks: 2 });
      expect(await assigneeOf(t.waiting)).toBeNull();
      expect(await assigneeOf(t.active)).toBeNull();
      for (const kept of [t.complete, t.exported, t.otherOrg]) expect(await assigneeOf(kept)).toBe(ids.member);
      expect(await assigneeOf(t.otherMember)).toBe(ids.admin2);
      // the route list shows them unassigned
      const list = (await (await call('admin', 'GET', `/organisations/${org.id}/routes`)).json()) as { routes: { id: string; assignedTo: unknown }[] };
      expect(list.routes.find((x) => x.id === t.active)?.assignedTo).toBeNull();
    });

    it('leaving unassigns the leaver’s unfinished tasks; a refused removal changes nothing', async () => {
      expect((await remove('member', 'admin2')).status).toBe(403);
      expect(await assigneeOf(t.otherMember)).toBe(ids.admin2);
      const res = await remove('member', 'member');
      expect(await res.json()).toEqual({ cognitoIdentityId: ids.member, left: true, unassignedRouteTasks: 2 });
      expect(await assigneeOf(t.waiting)).toBeNull();
      expect(await assigneeOf(t.complete)).toBe(ids.member);
      expect(await assigneeOf(t.otherOrg)).toBe(ids.member);
    });
  });

  it('DELETE invite: managers cancel an open invitation (case-insensitive email); then 404; members 403; strangers 404', async () => {
    const now = Date.now();
    await s.ctx.db.query(
      `INSERT INTO invitations (id, org_id, email, name, role, last_invite_at, created_at) VALUES (gen_random_uuid(), $1, 'gone@x.test', 'Gone', 1, $2, $2)`,
      [org.id, now],
    );
    const path = `/organisations/${org.id}/invite/${encodeURIComponent('Gone@X.test')}`;
    expect((await call('member', 'DELETE', path)).status).toBe(403);
    expect((await call('stranger', 'DELETE', path)).status).toBe(404);
    expect((await call('admin', 'DELETE', path)).status).toBe(200);
    expect((await members()).some((m) => m.email === 'gone@x.test')).toBe(false);
    const again = await call('admin', 'DELETE', path);
    expect([again.status, await codeOf(again)]).toEqual([404, 'INVITATION_NOT_FOUND']);
  });
});
