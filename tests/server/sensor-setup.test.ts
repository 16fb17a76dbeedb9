import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink } from './live-helpers';
import { geocodeResponseSchema, sensorUpdateResponseSchema, tankPresetListSchema, fuelInstallResponseSchema } from '../../src/contract/sensor.schema';
import { SETUP_RULES } from '../../src/domain/setup-messages';
import { insertCatalogue, insertFuelInstallation, DEMO_PHOTOS } from '../../server/seed/seed-catalogue';
import { storeDemoPhotos } from '../../server/storage';

type Who = 'owner' | 'admin' | 'member' | 'reader' | 'siteMember' | 'outsider';
const DISPLAY = { offsetMeasurement: 3000, minLevel: 0, maxLevel: 2500, referenceLines: [] };

describe.each(testDrivers)('sensor setup gateway on %s (sensor-setup 5, 7, 8)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let other: { id: string };
  const storage = mkdtempSync(join(tmpdir(), 'tw-setup-storage-'));
  const t = {} as Record<Who, string>;

  beforeAll(async () => {
    s = await startTestServer(driver, { STORAGE_DIR: storage });
    const db = s.ctx.db;
    org = await makeOrg(db);
    other = await makeOrg(db);
    const roles = { owner: 3, admin: 2, member: 1, reader: 4 } as const;
    for (const [who, role] of Object.entries(roles)) {
      const u = await makeUser(db);
      await addMember(db, org.id, u.id, role);
      t[who as Who] = await s.tokenFor(u.id);
    }
    const siteAdmin = await makeUser(db, { isSiteAdmin: true });
    await addMember(db, org.id, siteAdmin.id, 1);
    t.siteMember = await s.tokenFor(siteAdmin.id);
    const outsider = await makeUser(db);
    await addMember(db, other.id, outsider.id, 3);
    t.outsider = await s.tokenFor(outsider.id);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(storage, { recursive: true, force: true });
  });

  const sensor = (over: Parameters<typeof makeSensor>[2] = {}) => makeSensor(s.ctx.db, org.id, { displayInfo: DISPLAY, ...over });
  const put = (sensorId: string, json: unknown, who: Who = 'admin', orgId = org.id) =>
    s.api(`/organisations/${orgId}/sensors/${sensorId}`, { method: 'PUT', token: t[who], json });
  const row = async (id: string) => (await s.ctx.db.query<Record<string, unknown>>('SELECT * FROM sensors WHERE id = $1', [id]))[0];

  it('saves name, display info with reference lines and a conversion, and answers the updated sensor', async () => {
    const x = await sensor();
    const body = {
      name: 'Weir [North] #2 (old) <A&B> _x.',
      displayInfo: { ...DISPLAY, referenceLines: [{ label: 'Spill', value: 1234, color: '#f59f00' }] },
      conversionConfigs: [{ type: 'WEIR_FLOW_SCR', width: 1.5, flowCoefficient: 1.84, n: 1.5 }],
    };
    const res = await put(x.id, body);
    expect(res.status, await res.clone().text()).toBe(200);
    const { sensor: saved } = sensorUpdateResponseSchema.parse(await res.json());
    expect(saved).toMatchObject({ name: body.name, conversionConfigs: body.conversionConfigs });
    expect(saved.displayInfo.referenceLines).toEqual([{ label: 'Spill', value: 1234, color: '#F59F00' }]);
    expect((await row(x.id)).name).toBe(body.name);
  });

  it('lets owners, admins and site admins (any role) save; refuses members and meter readers (403) and other organisations (404)', async () => {
    const x = await sensor();
    for (const who of ['owner', 'admin', 'siteMember'] as const) expect((await put(x.id, { name: `By ${who}` }, who)).status).toBe(200);
    for (const who of ['member', 'reader'] as const) expect((await put(x.id, { name: 'Nope' }, who)).status).toBe(403);
    expect((await put(x.id, { name: 'Nope' }, 'outsider')).status).toBe(404);
    // the outsider's own organisation does not hold this sensor either
    expect((await put(x.id, { name: 'Nope' }, 'outsider', other.id)).status).toBe(404);
    expect((await put('not-a-uuid', { name: 'Nope' })).status).toBe(404);
    expect((await row(x.id)).name).toBe('By siteMember');
  });

  const cases: [string, Record<string, unknown>, keyof typeof SETUP_RULES][] = [
    ['empty name', { name: '   ' }, 'NAME_EMPTY'],
    ['name over 100', { name: 'x'.repeat(101) }, 'NAME_TOO_LONG'],
    ['leading space', { name: ' Tank' }, 'NAME_LEADING_SPACE'],
    ['bad character', { name: 'Tank / 2' }, 'NAME_BAD_CHARACTERS'],
    ['offset not a number', { displayInfo: { ...DISPLAY, offsetMeasurement: 'x' } }, 'OFFSET_EMPTY'],
    ['only a minimum', { displayInfo: { ...DISPLAY, maxLevel: null } }, 'MAX_LEVEL_MISSING'],
    ['only a maximum', { displayInfo: { ...DISPLAY, minLevel: null } }, 'MIN_LEVEL_MISSING'],
    ['minimum above maximum', { displayInfo: { ...DISPLAY, minLevel: 3000, maxLevel: 100 } }, 'LIMITS_ORDER'],
    ['equal limits (a percentage shows)', { displayInfo: { ...DISPLAY, minLevel: 100, maxLevel: 100 } }, 'LIMITS_ORDER'],
    ['limits without an offset', { displayInfo: { ...DISPLAY, offsetMeasurement: null } }, 'LIMITS_NEED_OFFSET'],
    ['four reference lines', { displayInfo: { ...DISPLAY, referenceLines: Array(4).fill({ label: 'L', value: 1, color: '#21A1DB' }) } }, 'REFERENCE_LINES_TOO_MANY'],
    ['label over 60', { displayInfo: { ...DISPLAY, referenceLines: [{ label: 'x'.repeat(61), value: 1, color: '#21A1DB' }] } }, 'LABEL_TOO_LONG'],
    ['empty label', { displayInfo: { ...DISPLAY, referenceLines: [{ label: ' ', value: 1, color: '#21A1DB' }] } }, 'LABEL_REQUIRED'],
    ['value with 4 decimals', { displayInfo: { ...DISPLAY, referenceLines: [{ label: 'L', value: 1.2345, color: '#21A1DB' }] } }, 'VALUE_DECIMALS'],
    ['missing value', { displayInfo: { ...DISPLAY, referenceLines: [{ label: 'L', color: '#21A1DB' }] } }, 'VALUE_REQUIRED'],
    ['colour not offered', { displayInfo: { ...DISPLAY, referenceLines: [{ label: 'L', value: 1, color: '#FF0000' }] } }, 'COLOUR_INVALID'],
    ['weir width 0', { conversionConfigs: [{ type: 'WEIR_FLOW_SCR', width: 0, flowCoefficient: 1, n: 1.5 }] }, 'WIDTH_NOT_POSITIVE'],
    ['weir width 10000', { conversionConfigs: [{ type: 'WEIR_FLOW_VN', width: 10000, flowCoefficient: 1, n: 2.5 }] }, 'WIDTH_TOO_BIG'],
    ['weir coefficient missing', { conversionConfigs: [{ type: 'WEIR_FLOW_SCR', width: 1, n: 1.5 }] }, 'FLOW_COEFFICIENT_REQUIRED'],
    ['weir coefficient 0', { conversionConfigs: [{ type: 'WEIR_FLOW_SCR', width: 1, flowCoefficient: 0, n: 1.5 }] }, 'FLOW_COEFFICIENT_NOT_POSITIVE'],
    ['weir exponent 2', { conversionConfigs: [{ type: 'WEIR_FLOW_SCR', width: 1, flowCoefficient: 1, n: 2 }] }, 'EXPONENT_INVALID'],
    ['diameter over 100', { conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 100.5 }] }, 'DIAMETER_TOO_BIG'],
    ['diameter missing', { conversionConfigs: [{ type: 'VOLUME_CYLINDER' }] }, 'DIAMETER_REQUIRED'],
    ['horizontal length -1', { conversionConfigs: [{ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: -1 }] }, 'LENGTH_NOT_POSITIVE'],
    ['rectangular width over 100', { conversionConfigs: [{ type: 'VOLUME_RECTANGULAR', width: 101, length: 2 }] }, 'WIDTH_TOO_BIG'],
    ['flume x over 100000', { conversionConfigs: [{ type: 'PARSHALL_FLUME', x: 100001, y: 1 }] }, 'FLUME_X_TOO_BIG'],
    ['flume y 0', { conversionConfigs: [{ type: 'PARSHALL_FLUME', x: 1, y: 0 }] }, 'FLUME_Y_NOT_POSITIVE'],
    ['two conversions', { conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 1 }, { type: 'VOLUME_CYLINDER', diameter: 2 }] }, 'CONVERSION_TOO_MANY'],
    ['latitude 85.1', { latitude: 85.1, longitude: 170 }, 'ILLEGAL_COORDINATES'],
    ['latitude -85.06', { latitude: -85.06, longitude: 170 }, 'ILLEGAL_COORDINATES'],
    ['longitude 180.5', { latitude: -41, longitude: 180.5 }, 'ILLEGAL_COORDINATES'],
    ['latitude alone', { latitude: -41 }, 'COORDINATES_INCOMPLETE'],
    ['commissioning status 6', { integration: { pointId: 'P', commissioningStatus: 6 } }, 'COMMISSIONING_STATUS_INVALID'],
  ];
  it.each(cases)('refuses %s with its code and the spec message, changing nothing', async (_what, body, code) => {
    const x = await sensor();
    const before = await row(x.id);
    const res = await put(x.id, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code, message: SETUP_RULES[code] });
    expect(await row(x.id)).toEqual(before);
  });

  it('ignores what no section may change (serial, type, radio, config, latest data) and keeps it', async () => {
    const x = await sensor();
    const before = await row(x.id);
    const res = await put(x.id, { name: 'Renamed', serial: 'FFFFFFFF', sensorType: 'T35', radio: { type: 'wifi' }, config: { schedulerEnabled: false }, latestData: { battery: 1 }, organisationId: other.id });
    expect(res.status).toBe(200);
    expect(await row(x.id)).toEqual({ ...before, name: 'Renamed', changed_at: expect.anything() });
  });

  it('refuses changed alarms on a non-satellite radio (they go by remote task) but accepts them unchanged', async () => {
    const alarms = { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } };
    const x = await sensor({ alarms });
    expect(await (await put(x.id, { alarms: { '0': { ...alarms['0'], threshold: 2100 } } })).json()).toEqual({ code: 'ALARMS_NOT_EDITABLE', message: SETUP_RULES.ALARMS_NOT_EDITABLE });
    expect((await put(x.id, { name: 'Same alarms', alarms })).status).toBe(200);
    expect((await row(x.id)).alarms).toEqual(alarms);
  });

  describe('satellite alarms (sensor-setup 4, 5)', () => {
    // LS1-P 10-10000 mm through offset 3000: valid levels -7000..2990
    const sat = () => sensor({ radio: 'myriota', sensorType: 'LS1-P' });
    const low = (threshold: number, enabled = true) => ({ type: 'THRESHOLD_DECREASING', threshold, enabled });
    const high = (threshold: number, enabled = true) => ({ type: 'THRESHOLD_INCREASING', threshold, enabled });

    it('saves alarms, and the alarm engine uses them from the next uplink on', async () => {
      const x = await sat();
      const res = await put(x.id, { alarms: { '0': low(500), '1': high(2000) } });
      expect(res.status, await res.clone().text()).toBe(200);
      const up = await sendUplink(s, x.deviceKey, { serial: x.serial, measurements: [{ time: Date.now() - 1000, rawDistance: 500 }] }); // level 2500
      expect(up.status).toBe(200);
      const open = await s.ctx.db.query<{ type: string }>('SELECT type FROM notifications WHERE sensor_id = $1 AND end_time IS NULL', [x.id]);
      expect(open.map((n) => n.type)).toContain('THRESHOLD_ALARM');
    });

    it.each([
      ['threshold missing when enabled', { '0': { type: 'THRESHOLD_DECREASING', enabled: true } }, 'THRESHOLD_REQUIRED'],
      ['threshold above the valid range', { '1': high(2995) }, 'THRESHOLD_OUT_OF_RANGE'],
      ['threshold below the valid range', { '0': low(-7001) }, 'THRESHOLD_OUT_OF_RANGE'],
      ['low not below high', { '0': low(2000), '1': high(2000) }, 'LOW_ABOVE_HIGH_DEPTH'],
      ['a slot that does not exist', { '9': low(100) }, 'ALARM_SLOT_INVALID'],
    ] as const)('refuses %s', async (_w, alarms, code) => {
      const x = await sat();
      const res = await put(x.id, { alarms });
      expect(await res.json()).toEqual({ code, message: SETUP_RULES[code] });
    });

    it('does not judge the range or order of disabled alarms', async () => {
      const x = await sat();
      expect((await put(x.id, { alarms: { '0': low(2500, false), '1': high(9999, false) } })).status).toBe(200);
    });
  });

  it('keeps names unique per organisation ignoring case, with the spec message', async () => {
    await sensor({ name: 'Unique Tank' });
    const y = await sensor();
    const res = await put(y.id, { name: 'unique TANK' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'SENSOR_NAME_EXISTS_IN_ORGANISATION', message: SETUP_RULES.SENSOR_NAME_EXISTS_IN_ORGANISATION });
    // another organisation may use it
    const z = await makeSensor(s.ctx.db, other.id);
    const outsiderRes = await s.api(`/organisations/${other.id}/sensors/${z.id}`, { method: 'PUT', token: t.outsider, json: { name: 'Unique Tank' } });
    expect(outsiderRes.status).toBe(200);
  });

  it('lets exactly one of six concurrent saves take a name (the database decides the race)', async () => {
    const xs = await Promise.all([...Array(6)].map(() => sensor()));
    const codes = await Promise.all(xs.map((x) => put(x.id, { name: 'Raced Name' }).then((r) => r.status)));
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
  });

  it('saves integration settings; a point id in use elsewhere is INTEGRATION_POINT_ID_ALREADY_IN_USE, also under a race', async () => {
    const [a, b, c] = await Promise.all([sensor(), sensor(), sensor()]);
    expect((await put(a.id, { integration: { pointId: 'PT-1', commissioningStatus: 2 } })).status).toBe(200);
    expect((await row(a.id)).integration).toEqual({ pointId: 'PT-1', commissioningStatus: 2 });
    const res = await put(b.id, { integration: { pointId: 'PT-1', commissioningStatus: 3 } });
    expect(await res.json()).toEqual({ code: 'INTEGRATION_POINT_ID_ALREADY_IN_USE', message: 'Point ID already in use by another sensor' });
    const raced = await Promise.all([b, c].map((x) => put(x.id, { integration: { pointId: 'PT-RACE', commissioningStatus: 1 } }).then((r) => r.status)));
    expect(raced.sort()).toEqual([200, 409]);
  });

  it('moves a sensor and publishes every save on the organisation live topic', async () => {
    const x = await sensor();
    const client = await connectWs(s, t.member);
    const box = collect(client);
    await client.subscribeAsync(`orgs/${org.id}/sensors/+/settings`);
    try {
      expect((await put(x.id, { latitude: -41.2889, longitude: 174.7772 })).status).toBe(200);
      const msg = await box.next((m) => m.topic === `orgs/${org.id}/sensors/${x.id}/settings`);
      expect(msg.body).toMatchObject({ sensorId: x.id, sensor: { latitude: -41.2889, longitude: 174.7772 } });
    } finally {
      await client.endAsync();
    }
  });

  it('searches the bundled gazetteer for places, nearest the map first (GET /api/geocode)', async () => {
    const res = await s.api('/geocode?q=Rotorua', { token: t.member });
    expect(res.status).toBe(200);
    const { results } = geocodeResponseSchema.parse(await res.json());
    expect(results[0]).toEqual({ label: 'Rotorua, Bay of Plenty, NZ', latitude: -38.13874, longitude: 176.24516 });
    const narrowed = geocodeResponseSchema.parse(await (await s.api('/geocode?q=christ,%20canterbury&lat=-41&lng=174', { token: t.member })).json());
    expect(narrowed.results[0].label).toBe('Christchurch, Canterbury, NZ');
    expect((await s.api('/geocode?q=', { token: t.member })).status).toBe(400);
    expect((await s.api('/geocode?q=Rotorua', { token: null })).status).toBe(401);
  });

  it('lists tank presets and serves the fuel installation record with its photos to setup users only', async () => {
    const { presets } = await insertCatalogue(s.ctx.db, Date.now());
    const x = await sensor({ sensorType: 'T35-Pro' });
    await insertFuelInstallation(s.ctx.db, x.id, presets['Horizontal 20,000 L'], Date.now());
    await storeDemoPhotos(s.ctx, org.id, DEMO_PHOTOS);
    const list = tankPresetListSchema.parse(await (await s.api(`/organisations/${org.id}/tank-presets`, { token: t.admin })).json());
    expect(list.presets.map((p) => p.model)).toContain('Horizontal 20,000 L');
    expect((await s.api(`/organisations/${org.id}/tank-presets`, { token: t.member })).status).toBe(403);

    const res = await s.api(`/organisations/${org.id}/sensors/${x.id}/fuel-install/`, { token: t.admin });
    const { fuelInstall } = fuelInstallResponseSchema.parse(await res.json());
    expect(fuelInstall).toMatchObject({ fuelType: 'Diesel', preset: { manufacturer: 'Fuelchief', model: 'Horizontal 20,000 L' } });
    const photo = await s.api(fuelInstall!.closeImageURL!, { token: t.admin });
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await photo.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect((await s.api(fuelInstall!.closeImageURL!, { token: t.outsider })).status).toBe(404);
    expect((await s.api(fuelInstall!.closeImageURL!, { token: t.member })).status).toBe(403);
    // no record: null
    const y = await sensor();
    expect(await (await s.api(`/organisations/${org.id}/sensors/${y.id}/fuel-install/`, { token: t.admin })).json()).toEqual({ fuelInstall: null });
  });
});
