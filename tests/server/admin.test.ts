import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { measurementErrorPageSchema } from '../../src/contract/measurement.schema';
import { firmwareListSchema } from '../../src/contract/sensor.schema';

const T0 = 1_750_000_000_000;
const MIN = 60_000;

describe.each(testDrivers)('site-admin gateway on %s (monitoring-client 2.7, 6, 7; sensor-setup 3)', (driver) => {
  let s: TestServer;
  let sensorId: string;
  let siteAdmin: string;
  let owner: string;

  beforeAll(async () => {
    s = await startTestServer(driver);
    const db = s.ctx.db;
    const org = await makeOrg(db);
    const sa = await makeUser(db, { isSiteAdmin: true });
    const ow = await makeUser(db);
    await addMember(db, org.id, sa.id, 1);
    await addMember(db, org.id, ow.id, 3);
    siteAdmin = await s.tokenFor(sa.id);
    owner = await s.tokenFor(ow.id);
    sensorId = (await makeSensor(db, org.id, { sensorType: 'LS1-R' })).id;
    const codes = ['E1', 'E2', 'E3', 'E4', 'E5', 'E9', 'E2'];
    // errors one minute apart, two of them in the same millisecond to test the cursor
    for (let i = 0; i < codes.length; i++) {
      await db.query('INSERT INTO measurement_errors (sensor_id, code, time) VALUES ($1, $2, $3)', [sensorId, codes[i], T0 + Math.min(i, 5) * MIN]);
    }
    await db.query(
      `INSERT INTO firmware (id, fw_name, fw_type, fw_version, build_type, apply_to, created_at) VALUES ($1, 'main-72', 'Main', 72, 'Production', '{"hardwareVersions":[9,10]}', $2)`,
      [randomUUID(), T0],
    );
  });
  afterAll(() => s?.close());

  const errorsUrl = (q: string) => `/admin/sensors/${sensorId}/measurement-errors?${q}`;

  it('answers measurement errors newest first by default, in the contract shape', async () => {
    const res = await s.api(errorsUrl(`startTime=${T0}&endTime=${T0 + 10 * MIN}`), { token: siteAdmin });
    expect(res.status).toBe(200);
    const page = measurementErrorPageSchema.parse(await res.json());
    expect(page.measurementErrors).toHaveLength(7);
    expect(page.measurementErrors[0].time).toBe(T0 + 5 * MIN);
    expect(page.measurementErrors.at(-1)).toMatchObject({ code: 'E1', time: T0 });
    expect(page.next).toBeNull();
  });

  it('pages with the start cursor in either order without losing or repeating rows', async () => {
    for (const order of ['asc', 'desc']) {
      const seen: string[] = [];
      let start: string | null | undefined;
      do {
        const res = await s.api(errorsUrl(`order=${order}&startTime=${T0}&endTime=${T0 + 10 * MIN}&limit=2${start ? `&start=${start}` : ''}`), { token: siteAdmin });
        const page = measurementErrorPageSchema.parse(await res.json());
        seen.push(...page.measurementErrors.map((e) => e.id));
        start = page.next;
      } while (start);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
    }
  });

  it('keeps to the date range and refuses start after end (validation 5)', async () => {
    const res = await s.api(errorsUrl(`startTime=${T0 + MIN}&endTime=${T0 + 2 * MIN}`), { token: siteAdmin });
    expect(measurementErrorPageSchema.parse(await res.json()).measurementErrors.map((e) => e.code)).toEqual(['E3', 'E2']);
    const bad = await s.api(errorsUrl(`startTime=${T0 + MIN}&endTime=${T0}`), { token: siteAdmin });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_DATE_RANGE' });
    const junk = await s.api(errorsUrl('startTime=yesterday'), { token: siteAdmin });
    expect(junk.status).toBe(400);
  });

  it('refuses an organisation owner who is not a site admin (roles 6: site admins only)', async () => {
    const errors = await s.api(errorsUrl(`startTime=${T0}&endTime=${T0 + 10 * MIN}`), { token: owner });
    expect(errors.status).toBe(403);
    expect(await errors.json()).toMatchObject({ code: 'FORBIDDEN' });
    const firmware = await s.api('/admin/firmware', { token: owner });
    expect(firmware.status).toBe(403);
  });

  it('answers 404 for an unknown sensor', async () => {
    const res = await s.api(`/admin/sensors/${randomUUID()}/measurement-errors?startTime=0`, { token: siteAdmin });
    expect(res.status).toBe(404);
  });

  it('answers firmware records in the spec\'s shape (sensor-setup 3)', async () => {
    const res = await s.api('/admin/firmware', { token: siteAdmin });
    const { firmware } = firmwareListSchema.parse(await res.json());
    expect(firmware).toEqual([
      { id: expect.any(String), fwName: 'main-72', fwType: 'Main', fwVersion: 72, buildType: 'Production', createdAt: T0, applyTo: { hardwareVersions: [9, 10] } },
    ]);
  });
});
