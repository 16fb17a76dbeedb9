import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { addSensorResponseSchema, sensorListSchema } from '../../src/contract/sensor.schema';

describe.each(testDrivers)('sensors gateway on %s (monitoring-client 2.4, 6, 7)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let other: { id: string };
  const tokens: Record<'owner' | 'admin' | 'member' | 'reader' | 'outsider', string> = {} as never;

  beforeAll(async () => {
    s = await startTestServer(driver);
    const db = s.ctx.db;
    org = await makeOrg(db, { name: 'Riverbend' });
    other = await makeOrg(db, { name: 'Elsewhere' });
    const roles = { owner: 3, admin: 2, member: 1, reader: 4 } as const;
    for (const [name, role] of Object.entries(roles)) {
      const u = await makeUser(db);
      await addMember(db, org.id, u.id, role);
      tokens[name as keyof typeof roles] = await s.tokenFor(u.id);
    }
    const outsider = await makeUser(db);
    await addMember(db, other.id, outsider.id, 3);
    tokens.outsider = await s.tokenFor(outsider.id);
    await makeSensor(db, org.id, { name: 'zeta tank', serial: 'AA000001' });
    await makeSensor(db, org.id, { name: 'Alpha weir', serial: 'AA000002' });
    await makeSensor(db, org.id, { name: 'Mid river', serial: 'AA0003' });
    await makeSensor(db, other.id, { name: 'Not yours', serial: 'BB000001' });
  });
  afterAll(() => s?.close());

  const orgSensorCount = async (orgId: string) =>
    Number((await s.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sensors WHERE org_id = $1', [orgId]))[0].n);

  describe('GET /organisations/{orgId}/sensors', () => {
    it('answers the organisation\'s sensors sorted by name, in the contract shape', async () => {
      const res = await s.api(`/organisations/${org.id}/sensors`, { token: tokens.member });
      expect(res.status).toBe(200);
      const body = sensorListSchema.parse(await res.json());
      expect(body.sensors.map((x) => x.name)).toEqual(['Alpha weir', 'Mid river', 'zeta tank']);
      expect(body.sensors[0]).toMatchObject({ serial: 'AA000002', organisationId: org.id, sensorType: 'LS1', radio: { type: 'cellular' } });
    });

    it('refuses another organisation\'s user and a meter reader (tenant rule, roles 6)', async () => {
      const outsider = await s.api(`/organisations/${org.id}/sensors`, { token: tokens.outsider });
      expect(outsider.status).toBe(404);
      expect(await outsider.json()).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
      const reader = await s.api(`/organisations/${org.id}/sensors`, { token: tokens.reader });
      expect(reader.status).toBe(403);
      expect((await s.api(`/organisations/${org.id}/sensors`, { token: null })).status).toBe(401);
    });
  });

  describe('POST /organisations/{orgId}/add-sensor', () => {
    it('lets an admin claim an unclaimed sensor with its code, normalising both (validation 5)', async () => {
      const free = await makeSensor(s.ctx.db, null, { serial: 'C0FFEE10' });
      const res = await s.api(`/organisations/${org.id}/add-sensor`, {
        method: 'POST',
        token: tokens.admin,
        json: { serial: '  c0ffee10 ', claimCode: ` ${free.claimCode.toUpperCase()} ` },
      });
      expect(res.status).toBe(200);
      const body = addSensorResponseSchema.parse(await res.json());
      expect(body.sensor).toMatchObject({ serial: 'C0FFEE10', organisationId: org.id });
    });

    it('refuses a member, and nothing changes (roles 6: Add Sensor is for admins and owners)', async () => {
      const free = await makeSensor(s.ctx.db, null, { serial: 'C0FFEE11' });
      const before = await orgSensorCount(org.id);
      const res = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.member, json: { serial: free.serial, claimCode: free.claimCode } });
      expect(res.status).toBe(403);
      expect(await orgSensorCount(org.id)).toBe(before);
      const row = await s.ctx.db.query<{ org_id: string | null }>('SELECT org_id FROM sensors WHERE id = $1', [free.id]);
      expect(row[0].org_id).toBeNull();
    });

    it('refuses a user of another organisation adding to this one', async () => {
      const free = await makeSensor(s.ctx.db, null);
      const res = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.outsider, json: { serial: free.serial, claimCode: free.claimCode } });
      expect(res.status).toBe(404);
      expect((await s.ctx.db.query<{ org_id: string | null }>('SELECT org_id FROM sensors WHERE id = $1', [free.id]))[0].org_id).toBeNull();
    });

    it('answers INVALID_CLAIM_CODE for a wrong code, an unknown serial and an already claimed sensor', async () => {
      const free = await makeSensor(s.ctx.db, null);
      const wrongCode = { serial: free.serial, claimCode: '00000000-0000-4000-8000-000000000000' };
      const unknown = { serial: 'DEADBEEF', claimCode: free.claimCode };
      const claimedElsewhere = await makeSensor(s.ctx.db, other.id);
      const taken = { serial: claimedElsewhere.serial, claimCode: claimedElsewhere.claimCode };
      for (const json of [wrongCode, unknown, taken]) {
        const res = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.owner, json });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'INVALID_CLAIM_CODE' });
      }
      expect(await orgSensorCount(other.id)).toBe(2);
    });

    it('answers INVALID_SERIAL and INVALID_CLAIM_CODE for malformed input', async () => {
      const bad = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.owner, json: { serial: 'XYZ', claimCode: 'nope' } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'INVALID_SERIAL' });
      const badCode = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.owner, json: { serial: 'ABCDEF', claimCode: 'nope' } });
      expect(await badCode.json()).toMatchObject({ code: 'INVALID_CLAIM_CODE' });
      const missing = await s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.owner, json: { serial: 'ABCDEF' } });
      expect(missing.status).toBe(400);
    });

    it('claims a sensor exactly once when two organisations try at the same time', async () => {
      const free = await makeSensor(s.ctx.db, null);
      const json = { serial: free.serial, claimCode: free.claimCode };
      const [a, b] = await Promise.all([
        s.api(`/organisations/${org.id}/add-sensor`, { method: 'POST', token: tokens.owner, json }),
        s.api(`/organisations/${other.id}/add-sensor`, { method: 'POST', token: tokens.outsider, json }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 400]);
      const owner = (await s.ctx.db.query<{ org_id: string }>('SELECT org_id FROM sensors WHERE id = $1', [free.id]))[0].org_id;
      expect(owner).toBe(a.status === 200 ? org.id : other.id);
    });
  });
});
