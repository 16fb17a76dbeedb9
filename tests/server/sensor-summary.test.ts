import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { sensorResponseSchema } from '../../src/contract/sensor.schema';
import { SUMMARY_FIELDS, sensorSummaryBodySchema } from '../../src/contract/sensor-summary.schema';

// The compact list (DESIGN.md "At a customer's size") and the one-sensor read beside the spec's list.
describe.each(testDrivers)('compact sensor list on %s', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let member: string;
  let outsider: string;
  let alpha: { id: string; serial: string };
  let broken: { id: string; serial: string };

  beforeAll(async () => {
    s = await startTestServer(driver);
    const db = s.ctx.db;
    org = await makeOrg(db, { name: 'Riverbend' });
    const other = await makeOrg(db, { name: 'Elsewhere' });
    const u = await makeUser(db);
    await addMember(db, org.id, u.id, 1);
    member = await s.tokenFor(u.id);
    const o = await makeUser(db);
    await addMember(db, other.id, o.id, 3);
    outsider = await s.tokenFor(o.id);
    await makeSensor(db, org.id, { name: 'zeta tank', serial: 'AA000001', config: { schedulerEnabled: false, measurementInterval: 5, transmissionInterval: 30 } });
    alpha = await makeSensor(db, org.id, { name: 'Alpha weir', serial: 'AA000002', displayInfo: { referenceLines: [], offsetMeasurement: 3000, minLevel: 0, maxLevel: 2000 } });
    broken = await makeSensor(db, org.id, { name: 'Mid river', serial: 'AA0003' });
    await makeSensor(db, other.id, { name: 'Not yours', serial: 'BB000001' });
    await db.query(
      `UPDATE sensors SET latitude = -41.29, longitude = 174.78, conversion_configs = '[{"type":"VOLUME_CYLINDER","diameter":2}]',
         latest_data = '{"lastSeen":1700000000000,"battery":55,"alertAsserted":true,"lastMeasurement":{"time":1699999990000,"rawDistance":1200}}' WHERE id = $1`,
      [alpha.id],
    );
    // a stored value of the wrong type goes through as stored: the client marks it, the list still comes
    await db.query(`UPDATE sensors SET latest_data = '{"battery":"low","lastSeen":"yesterday"}' WHERE id = $1`, [broken.id]);
  });
  afterAll(() => s?.close());

  it('answers view=summary as one array per sensor in the fields order, sorted by name, with server time', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors?view=summary`, { token: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/db;dur=\d+(\.\d+)?.*total;dur=\d+(\.\d+)?/);
    const body = sensorSummaryBodySchema.parse(await res.json());
    expect(body.fields).toEqual([...SUMMARY_FIELDS]);
    const named = body.rows.map((r) => Object.fromEntries(body.fields.map((f, i) => [f, (r as unknown[])[i]])));
    expect(named.map((r) => r.name)).toEqual(['Alpha weir', 'Mid river', 'zeta tank']);
    expect(named[0]).toEqual({
      id: alpha.id,
      serial: 'AA000002',
      name: 'Alpha weir',
      latitude: -41.29,
      longitude: 174.78,
      schedulerEnabled: true,
      lastSeen: 1700000000000,
      alertAsserted: true,
      offlineAsserted: null,
      battery: 55,
      measurementTime: 1699999990000,
      rawDistance: 1200,
      offsetMeasurement: 3000,
      minLevel: 0,
      maxLevel: 2000,
      conversion: { type: 'VOLUME_CYLINDER', diameter: 2 },
    });
    expect(named[1]).toMatchObject({ serial: 'AA0003', battery: 'low', lastSeen: 'yesterday', measurementTime: null, latitude: null });
    expect(named[2]).toMatchObject({ serial: 'AA000001', schedulerEnabled: false });
  });

  it('keeps the spec\'s full list without a view, with server time too', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors`, { token: member });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/total;dur=/);
    const body = (await res.json()) as { sensors: { serial: string; radio: unknown }[] };
    expect(body.sensors.map((x) => x.serial)).toEqual(['AA000002', 'AA0003', 'AA000001']);
    expect(body.sensors[0].radio).toEqual({ type: 'cellular' });
  });

  it('refuses an unknown view with a 400 that says what is allowed', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors?view=compact`, { token: member });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'INVALID_QUERY', message: 'view must be "summary" (or left out for the full records), not "compact".' });
    const empty = await s.api(`/organisations/${org.id}/sensors?view=`, { token: member });
    expect(empty.status).toBe(400);
  });

  it('answers a stranger 404 whatever the query', async () => {
    for (const q of ['?view=summary', '?view=bad']) {
      const res = await s.api(`/organisations/${org.id}/sensors${q}`, { token: outsider });
      expect(res.status).toBe(404);
    }
  });

  it('reads one sensor\'s full record, and 404s one of another organisation or a malformed id', async () => {
    const res = await s.api(`/organisations/${org.id}/sensors/${alpha.id}`, { token: member });
    expect(res.status).toBe(200);
    const { sensor } = sensorResponseSchema.parse(await res.json());
    expect(sensor).toMatchObject({ id: alpha.id, serial: 'AA000002', conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2 }], latestData: { battery: 55 } });
    const mine = await s.api(`/organisations/${org.id}/sensors/${alpha.id}`, { token: outsider });
    expect(mine.status).toBe(404);
    const notMine = (await s.ctx.db.query<{ id: string }>(`SELECT id FROM sensors WHERE serial = 'BB000001'`))[0].id;
    expect((await s.api(`/organisations/${org.id}/sensors/${notMine}`, { token: member })).status).toBe(404);
    expect((await s.api(`/organisations/${org.id}/sensors/not-a-uuid`, { token: member })).status).toBe(404);
  });

  it('answers an organisation without sensors an empty list', async () => {
    const empty = await makeOrg(s.ctx.db, { name: 'Empty' });
    const u = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, empty.id, u.id, 1);
    const res = await s.api(`/organisations/${empty.id}/sensors?view=summary`, { token: await s.tokenFor(u.id) });
    expect(await res.json()).toEqual({ fields: [...SUMMARY_FIELDS], rows: [] });
  });
});
