import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifiesWebhook } from '../webhook-verify';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../webhook-receiver';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeUser } from './fixtures';
import { currentUserSchema } from '../../src/contract/user.schema';
import { integrationSchema } from '../../src/contract/live.schema';
import { webhookTestResultSchema } from '../../src/contract/webhook-test.schema';
import { createDispatcher } from '../../server/delivery/dispatcher';


// organisation-and-routes 2.2, 5 (account form), 7.1 PATCH /users/{id}, 7.2 and issue 13's test event
describe.each(testDrivers)('user settings and webhook test calls on %s', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let other: { id: string };
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  let receiver: WebhookReceiver;
  let received: ReceivedWebhook[] = [];
  let receiverUrl = '';

  const call = (who: string, method: string, path: string, json?: unknown) => s.api(path, { method, token: tokens[who], json });
  const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;

  beforeAll(async () => {
    s = await startTestServer(driver, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    org = await makeOrg(s.ctx.db, { name: 'User Settings Org' });
    other = await makeOrg(s.ctx.db, { name: 'Elsewhere' });
    for (const [who, orgId, role] of [['owner', org.id, 3], ['admin', org.id, 2], ['member', org.id, 1], ['stranger', other.id, 3]] as const) {
      const u = await makeUser(s.ctx.db, { name: who });
      await addMember(s.ctx.db, orgId, u.id, role);
      ids[who] = u.id;
      tokens[who] = await s.tokenFor(u.id);
    }
    receiver = await startWebhookReceiver('/hooks');
    ({ received, url: receiverUrl } = receiver);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('PATCH /users/{own id}: name trimmed, mobile normalised to E.164, both answered as the current user', async () => {
    const res = await call('member', 'PATCH', `/users/${ids.member}?region=ap-southeast-2`, { name: '  Mere Tane ', mobile: '021 123 4567' });
    expect(res.status).toBe(200);
    const user = currentUserSchema.parse(await res.json());
    expect(user).toMatchObject({ name: 'Mere Tane', mobile: '+64211234567', cognitoIdentityId: ids.member });
    // the mobile alone; the name stays
    const again = currentUserSchema.parse(await (await call('member', 'PATCH', `/users/${ids.member}`, { mobile: '+61 412 345 678' })).json());
    expect(again).toMatchObject({ name: 'Mere Tane', mobile: '+61412345678' });
    // an empty mobile removes it
    expect(currentUserSchema.parse(await (await call('member', 'PATCH', `/users/${ids.member}`, { mobile: '' })).json()).mobile).toBeNull();
  });

  it("PATCH /users: the spec's mobile message, a blank name refused, unknown fields and empty bodies refused", async () => {
    const bad = await call('member', 'PATCH', `/users/${ids.member}`, { mobile: '12345' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: 'INVALID_MOBILE', message: 'Invalid mobile phone number' });
    // a country outside the supported list (spec 9: NZ, AU, US, CA, GB, IE, ZA) is not a valid mobile here
    expect(await codeOf(await call('member', 'PATCH', `/users/${ids.member}`, { mobile: '+33 6 12 34 56 78' }))).toBe('INVALID_MOBILE');
    expect((await call('member', 'PATCH', `/users/${ids.member}`, { name: '   ' })).status).toBe(400);
    expect((await call('member', 'PATCH', `/users/${ids.member}`, { name: 'x'.repeat(61) })).status).toBe(400);
    expect((await call('member', 'PATCH', `/users/${ids.member}`, { email: 'new@x.test' })).status).toBe(400);
    expect((await call('member', 'PATCH', `/users/${ids.member}`, {})).status).toBe(400);
    expect((await call('member', 'PATCH', `/users/${ids.member}`, { name: 'Ok', displaySettings: { timeDisplay: 'Friendly' } })).status).toBe(400);
  });

  it('?region= (the user pool region, organisation-and-routes 8) on the user and member calls: a region name is accepted, anything else refused with 400', async () => {
    expect((await call('member', 'PATCH', `/users/${ids.member}?region=local`, { name: 'Mere Tane' })).status).toBe(200);
    const bad = await call('member', 'PATCH', `/users/${ids.member}?region=${encodeURIComponent('<script>')}`, { name: 'Mere Tane' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('region must be a region name such as ap-southeast-2');
    const member = await call('member', 'PATCH', `/organisations/${org.id}/members/${ids.member}?region=AP_SOUTHEAST`, { cognitoIdentityId: ids.member, notificationRule: null });
    expect(member.status).toBe(400);
  });

  it('PATCH /users displaySettings.timeDisplay: Friendly or AmericanLocal only; read back by current-v2', async () => {
    const res = await call('admin', 'PATCH', `/users/${ids.admin}`, { displaySettings: { timeDisplay: 'AmericanLocal' } });
    expect(res.status).toBe(200);
    expect(currentUserSchema.parse(await res.json()).displaySettings.timeDisplay).toBe('AmericanLocal');
    const email = (await s.ctx.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [ids.admin]))[0].email;
    const current = await call('admin', 'GET', `/users/current-v2?email=${encodeURIComponent(email)}`);
    expect(currentUserSchema.parse(await current.json()).displaySettings.timeDisplay).toBe('AmericanLocal');
    expect((await call('admin', 'PATCH', `/users/${ids.admin}`, { displaySettings: { timeDisplay: 'Metric' } })).status).toBe(400);
    expect((await call('admin', 'PATCH', `/users/${ids.admin}`, { displaySettings: {} })).status).toBe(400);
  });

  it('PATCH /users/{someone else}: 403 for a fellow member, 404 for a stranger or an unknown id, 400 for a non-UUID, 401 unsigned', async () => {
    const before = (await s.ctx.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [ids.owner]))[0].name;
    expect((await call('admin', 'PATCH', `/users/${ids.owner}`, { name: 'Hijacked' })).status).toBe(403);
    const stranger = await call('stranger', 'PATCH', `/users/${ids.owner}`, { name: 'Hijacked' });
    expect(stranger.status).toBe(404);
    expect(await codeOf(stranger)).toBe('USER_NOT_FOUND');
    expect((await call('admin', 'PATCH', '/users/00000000-0000-4000-8000-000000000000', { name: 'Nobody' })).status).toBe(404);
    expect((await call('admin', 'PATCH', '/users/not-a-uuid', { name: 'X' })).status).toBe(400);
    expect((await s.api(`/users/${ids.owner}`, { method: 'PATCH', json: { name: 'X' } })).status).toBe(401);
    expect((await s.ctx.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [ids.owner]))[0].name).toBe(before);
  });

  it('leave: DELETE own membership works for a member, never for the owner (DESIGN.md)', async () => {
    const leaver = await makeUser(s.ctx.db, { name: 'Leaver' });
    await addMember(s.ctx.db, org.id, leaver.id, 2);
    const t = await s.tokenFor(leaver.id);
    const res = await s.api(`/organisations/${org.id}/members/${leaver.id}`, { method: 'DELETE', token: t, json: { cognitoIdentityId: leaver.id } });
    expect(res.status).toBe(200);
    expect((await s.api('/organisations', { token: t }).then((r) => r.json())) as unknown).toEqual({ organisations: [] });
    const owner = await call('owner', 'DELETE', `/organisations/${org.id}/members/${ids.owner}`, { cognitoIdentityId: ids.owner });
    expect(owner.status).toBe(403);
  });

  it('POST .../integrations/{id}/test: managers only, through the outbox, signed with the secret shown to managers', async () => {
    const created = await call('admin', 'POST', `/organisations/${org.id}/integrations`, { type: 'webhook', url: receiverUrl, headers: [{ key: 'X-Team', value: 'ops' }] });
    expect(created.status).toBe(201);
    const hook = integrationSchema.parse(await created.json());
    expect(hook.secret).toMatch(/^whsec_/);

    expect((await call('member', 'POST', `/organisations/${org.id}/integrations/${hook.id}/test`)).status).toBe(403);
    expect((await call('stranger', 'POST', `/organisations/${org.id}/integrations/${hook.id}/test`)).status).toBe(404);
    expect((await call('admin', 'POST', `/organisations/${org.id}/integrations/00000000-0000-4000-8000-000000000000/test`)).status).toBe(404);
    // another organisation's integration id is not found through this organisation
    const theirs = integrationSchema.parse(await (await call('stranger', 'POST', `/organisations/${other.id}/integrations`, { url: 'https://example.com/h', headers: [] })).json());
    expect((await call('admin', 'POST', `/organisations/${org.id}/integrations/${theirs.id}/test`)).status).toBe(404);

    const res = await call('owner', 'POST', `/organisations/${org.id}/integrations/${hook.id}/test`);
    expect(res.status).toBe(202);
    const result = webhookTestResultSchema.parse(await res.json());
    expect(result.url).toBe(receiverUrl);
    // nothing is sent until the dispatcher runs: the call only wrote the outbox
    expect(received).toHaveLength(0);
    await createDispatcher(s.ctx).runOnce();
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got.headers['webhook-id']).toBe(result.webhookId);
    expect(got.headers['x-team']).toBe('ops');
    expect(verifiesWebhook(hook.secret, got.headers, got.body)).toBe(true);
    expect(verifiesWebhook(`whsec_${Buffer.alloc(24).toString('base64')}`, got.headers, got.body)).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'test', organisationId: org.id, notification: null, sensor: null });
  });

  it('GET /api/openapi.json: unsigned, OpenAPI 3.1, every gateway route listed, zod-derived schemas', async () => {
    const res = await s.api('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { anyOf?: unknown[]; properties?: Record<string, unknown> } }> }; tags: string[] }>> };
    expect(doc.openapi).toBe('3.1.0');
    const patchUser = doc.paths['/users/{memberId}'].patch;
    const body = patchUser.requestBody!.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('AmericanLocal');
    const hook = doc.paths['/organisations/{id}/integrations'].post.requestBody!.content['application/json'].schema;
    expect(hook.properties).toHaveProperty('url');
    expect(hook.properties).toHaveProperty('headers');
    expect(doc.paths['/organisations/{id}/integrations/{integrationId}/test'].post.tags).toEqual(['Integrations']);
    // every route of the gateway is in it, and nothing else
    const { createApp } = await import('../../server/http/app');
    const listed = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
    const routes = createApp(s.ctx)
      .routes.filter((r) => r.path.startsWith('/api/') && !r.path.includes('*') && ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
      .map((r) => `${r.method} ${r.path.slice(4).replace(/\/$/, '').replace(/:([A-Za-z0-9_]+)\??/g, '{$1}')}`);
    expect([...listed].sort()).toEqual([...new Set(routes)].sort());
  });
});
