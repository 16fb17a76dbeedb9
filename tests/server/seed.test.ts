import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { loadConfig } from '../../server/config';
import { startServer } from '../../server/start';
import { verifyPassword } from '../../server/identity/passwords';
import { demoDeviceKey, seedDemoWorld, type SeedSummary } from '../../server/seed/demo';
import { SENSOR_TYPES, RADIO_TYPES } from '../../src/contract/sensor.schema';

const MIN = 60_000;
const NOW = Date.UTC(2026, 5, 14, 3, 21, 37); // an injected clock: the world is anchored to it
const TABLES = ['users', 'organisations', 'memberships', 'invitations', 'sensors', 'measurements', 'measurement_errors', 'notifications', 'downlink_tasks', 'firmware', 'tank_presets', 'fuel_installations', 'route_tasks', 'meter_readings', 'route_metadata'];

// Allowed raw distance per sensor type in mm (sensor-setup 5).
const RANGE: Record<string, [number, number]> = {
  LS1: [300, 5000], 'LS1-P': [10, 10000], 'LS1-10M': [500, 10000], T35: [200, 3600], 'T35-Pro': [200, 7000], 'LS1-R': [200, 7000], 'LS1-P-20M': [10, 20000], 'LS1-R-12M': [500, 12000],
};

describe.each(testDrivers)('demo world seed on %s (issue 2: demo world, seeded on an empty database and never twice)', (driver) => {
  let s: TestServer;
  let results: (SeedSummary | undefined)[];
  const q = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => s.ctx.db.query<T>(sql, params);
  const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await q<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`))[0].n])));
  const sensor = async (serial: string) => (await q<Record<string, any>>('SELECT * FROM sensors WHERE serial = $1', [serial]))[0]; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => NOW });
    // two seeders at once, as two processes starting on one empty database: exactly one seeds
    results = await Promise.all([seedDemoWorld(s.ctx), seedDemoWorld(s.ctx)]);
  }, 240_000);
  afterAll(() => s?.close());

  it('seeds once when two seeders race on the empty database', () => {
    expect(results.filter(Boolean)).toHaveLength(1);
    const summary = results.find(Boolean)!;
    console.info(`[${driver}] demo world seeded in ${summary.ms} ms: ${summary.measurements} measurements, ${summary.measurementErrors} errors`);
  });

  it('creates the five accounts of DESIGN.md, confirmed and verified, each with its own hash of Demo-pass-2026!', async () => {
    const users = await q<{ email: string; name: string; status: string; email_verified: boolean; profile_created: boolean; is_site_admin: boolean; password_hash: string }>(
      'SELECT * FROM users ORDER BY email',
    );
    expect(users.map((u) => u.email)).toEqual(['admin@demo.test', 'member@demo.test', 'owner@demo.test', 'reader@demo.test', 'siteadmin@demo.test']);
    for (const u of users) {
      expect(u).toMatchObject({ status: 'CONFIRMED', email_verified: true, profile_created: true, is_site_admin: u.email === 'siteadmin@demo.test' });
      expect(u.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    }
    expect(await Promise.all(users.map((u) => verifyPassword('Demo-pass-2026!', u.password_hash)))).toEqual([true, true, true, true, true]);
    expect(await verifyPassword('demo-pass-2026!', users[0].password_hash)).toBe(false);
    expect(new Set(users.map((u) => u.password_hash)).size).toBe(5); // salted separately
  });

  it('creates both organisations with the features and roles of the demo world', async () => {
    const rows = await q<{ slug: string; email: string; role: number; features: Record<string, boolean>; rest_api: unknown; notification_rule: unknown }>(
      `SELECT o.slug, o.features, o.rest_api, u.email, m.role, m.notification_rule FROM memberships m
       JOIN organisations o ON o.id = m.org_id JOIN users u ON u.id = m.user_id ORDER BY o.slug, u.email`,
    );
    const roles = rows.map((r) => `${r.slug} ${r.email} ${r.role}`);
    expect(roles).toEqual([
      'harbour-city-council owner@demo.test 3',
      'harbour-city-council reader@demo.test 4',
      'harbour-city-council siteadmin@demo.test 1',
      'riverbend-water admin@demo.test 2',
      'riverbend-water member@demo.test 1',
      'riverbend-water owner@demo.test 3',
      'riverbend-water siteadmin@demo.test 1',
    ]);
    const riverbend = rows.find((r) => r.slug === 'riverbend-water')!;
    expect(riverbend.features).toEqual({ isFuel: true, liveMode: true, meterReading: false });
    expect(riverbend.rest_api).toMatchObject({ key: expect.any(String), token: expect.any(String) });
    expect(rows.find((r) => r.slug === 'harbour-city-council')!.features).toEqual({ isFuel: false, liveMode: false, meterReading: true });
    expect(rows.find((r) => r.email === 'admin@demo.test')!.notification_rule).toEqual({ email: true, sms: true });
    expect(rows.find((r) => r.email === 'member@demo.test')!.notification_rule).toBeNull();
    const inv = await q('SELECT email, role, accepted_at, canceled_at FROM invitations');
    expect(inv).toEqual([{ email: 'invited@demo.test', role: 1, accepted_at: null, canceled_at: null }]);
  });

  it('gives Main Reservoir a year of 1-minute measurements ending at the current minute', async () => {
    const id = (await sensor('1A2B3C4D')).id;
    const [m] = await q<{ n: number; first: number; last: number }>('SELECT count(*)::int AS n, min(time) AS first, max(time) AS last FROM measurements WHERE sensor_id = $1', [id]);
    expect(m.n).toBe(525_600);
    expect(m.last).toBe(Math.floor(NOW / MIN) * MIN);
    // every gap is whole minutes and only where a measurement error was recorded instead
    const [g] = await q<{ off: number; gaps: number }>(
      `SELECT count(*) FILTER (WHERE time % 60000 <> 0)::int AS off, count(*) FILTER (WHERE time - prev > 60000)::int AS gaps
       FROM (SELECT time, lag(time) OVER (ORDER BY time) AS prev FROM measurements WHERE sensor_id = $1) x`,
      [id],
    );
    const [e] = await q<{ n: number }>('SELECT count(*)::int AS n FROM measurement_errors WHERE sensor_id = $1 AND time > $2', [id, m.first]);
    // the bulk load rebuilt the key that makes uplinks idempotent on (sensor, time)
    const [pk] = await q<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'measurements'::regclass AND contype = 'p'`);
    expect(pk.def).toMatch(/^PRIMARY KEY \(sensor_id, "?time"?\)$/);
    expect(g.off).toBe(0);
    expect(g.gaps).toBeGreaterThan(0);
    expect(g.gaps).toBeLessThanOrEqual(e.n);
  });

  it('covers every sensor type and radio, each claimed sensor with a year of data inside its type range (sensor-setup 5)', async () => {
    const rows = await q<{ serial: string; sensor_type: string; radio: { type: string }; org_id: string | null; config: { measurementInterval: number }; n: number; lo: number; hi: number; first: number; last: number }>(
      `SELECT s.serial, s.sensor_type, s.radio, s.org_id, s.config, count(m.time)::int AS n, min(m.raw_distance) AS lo, max(m.raw_distance) AS hi, min(m.time) AS first, max(m.time) AS last
       FROM sensors s LEFT JOIN measurements m ON m.sensor_id = s.id GROUP BY s.id ORDER BY s.serial`,
    );
    expect(new Set(rows.map((r) => r.sensor_type))).toEqual(new Set(SENSOR_TYPES));
    expect(new Set(rows.map((r) => r.radio.type))).toEqual(new Set(RADIO_TYPES));
    for (const r of rows.filter((x) => x.org_id)) {
      expect(r.n, r.serial).toBe(Math.round((365 * 1440) / r.config.measurementInterval));
      expect(r.last - r.first, r.serial).toBeGreaterThanOrEqual(364 * 1440 * MIN);
      expect(r.lo, r.serial).toBeGreaterThanOrEqual(RANGE[r.sensor_type][0]);
      expect(r.hi, r.serial).toBeLessThanOrEqual(RANGE[r.sensor_type][1]);
      expect(r.hi - r.lo, `${r.serial} moves`).toBeGreaterThan(50);
    }
    const codes = await q<{ code: string }>('SELECT DISTINCT code FROM measurement_errors ORDER BY code');
    expect(codes.map((c) => c.code)).toEqual(expect.arrayContaining(['E1', 'E4', 'E5', 'E9']));
  });

  it('keeps each sensor’s latest data consistent with its newest measurement', async () => {
    const rows = await q<{ serial: string; latest_data: Record<string, any>; time: number; raw_distance: number }>( // eslint-disable-line @typescript-eslint/no-explicit-any
      `SELECT s.serial, s.latest_data, m.time, m.raw_distance FROM sensors s
       JOIN LATERAL (SELECT time, raw_distance FROM measurements WHERE sensor_id = s.id ORDER BY time DESC LIMIT 1) m ON true`,
    );
    expect(rows).toHaveLength(11);
    for (const r of rows) {
      expect(r.latest_data.lastMeasurement, r.serial).toEqual({ time: r.time, rawDistance: r.raw_distance });
      expect(r.latest_data.lastSeen, r.serial).toBeGreaterThanOrEqual(r.time);
      expect(r.latest_data.lastSeen, r.serial).toBeLessThanOrEqual(NOW);
    }
    const culvert = await sensor('A3B4C5');
    expect(culvert.latest_data).toMatchObject({ offlineAsserted: true, battery: 4 });
    expect(NOW - culvert.latest_data.lastSeen).toBeGreaterThan(2 * 1440 * MIN);
    expect((await sensor('92A3B4C5')).config.schedulerEnabled).toBe(false);
    expect((await sensor('708192A3')).latest_data.alertAsserted).toBe(true);
    const unclaimed = await q('SELECT serial, claim_code, latest_data FROM sensors WHERE org_id IS NULL ORDER BY serial');
    expect(unclaimed).toEqual([
      { serial: 'C0FFEE01', claim_code: 'c0ffee01-0000-4000-8000-000000000001', latest_data: null },
      { serial: 'C0FFEE02', claim_code: 'c0ffee02-0000-4000-8000-000000000002', latest_data: null },
      { serial: 'C0FFEE03', claim_code: 'c0ffee03-0000-4000-8000-000000000003', latest_data: null },
    ]);
  });

  it('has open, cleared and endless notifications of every type, each alarm matching its alarm setting', async () => {
    const rows = await q<{ serial: string; type: string; condition_key: string; end_time: number | null; endless: boolean; meta: Record<string, any> }>( // eslint-disable-line @typescript-eslint/no-explicit-any
      'SELECT s.serial, n.type, n.condition_key, n.end_time, n.endless, n.meta FROM notifications n JOIN sensors s ON s.id = n.sensor_id',
    );
    const open = rows.filter((r) => r.end_time === null && !r.endless).map((r) => `${r.serial} ${r.type} ${r.condition_key}`);
    expect(open.sort()).toEqual(['708192A3 THRESHOLD_ALARM alarm:0', 'A3B4C5 LOW_BATTERY battery', 'A3B4C5 SENSOR_OFFLINE offline']);
    const cleared = new Set(rows.filter((r) => r.end_time !== null).map((r) => r.type));
    expect(cleared).toEqual(new Set(['THRESHOLD_ALARM', 'DELTA_ALARM', 'ACCELEROMETER', 'SENSOR_ERROR', 'WATER_LEVEL_ALARM', 'SENSOR_OFFLINE']));
    expect(rows.filter((r) => r.endless)).toHaveLength(1);
    const tide = await sensor('708192A3');
    const tideOpen = rows.find((r) => r.serial === '708192A3' && r.end_time === null)!;
    expect(tideOpen.meta.alarmSetting).toEqual({ ...tide.alarms['0'], index: '0' });
    // the open alarm agrees with the newest level: level = offset - distance is over the threshold
    expect(tide.display_info.offsetMeasurement - tide.latest_data.lastMeasurement.rawDistance).toBeGreaterThanOrEqual(tide.alarms['0'].threshold);
    for (const r of rows) expect(r.meta.type).toBe(r.type);
  });

  it('has remote tasks in every status with the params of their type (sensor-setup 3)', async () => {
    const rows = await q<{ type: string; status: string; params: Record<string, unknown>; ended_at: number | null }>('SELECT type, status, params, ended_at FROM downlink_tasks');
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Created', 'Dispatched', 'Success', 'Error', 'Timeout', 'Canceled']));
    for (const r of rows) expect(r.ended_at === null, `${r.type} ${r.status}`).toBe(r.status === 'Created' || r.status === 'Dispatched');
    expect(rows.find((r) => r.type === 'SensorConfig')!.params).toEqual(
      expect.objectContaining({ measurementInterval: expect.any(Number), measurementsPerTransmission: expect.any(Number), maxGradient: 150 }),
    );
    const fwIds = (await q<{ id: string }>('SELECT id FROM firmware')).map((f) => f.id);
    for (const r of rows.filter((x) => x.type === 'FirmwareDownload')) {
      expect(fwIds).toContain(r.params.fwId);
      expect(typeof r.params.fwName, 'a firmware task names its firmware').toBe('string');
    }
  });

  it('has firmware of every type and stage, tank presets and the diesel tank’s installation record', async () => {
    const fw = await q<{ fw_type: string; build_type: string }>('SELECT fw_type, build_type FROM firmware');
    expect(new Set(fw.map((f) => f.fw_type))).toEqual(new Set(['Main', 'Radar', 'Ble']));
    expect(new Set(fw.map((f) => f.build_type))).toEqual(new Set(['Alpha', 'Beta', 'Production']));
    const [fuel] = await q<{ serial: string; fuel_type: string; preset_id: string; org_id: string | null }>(
      'SELECT s.serial, f.fuel_type, f.preset_id, p.org_id FROM fuel_installations f JOIN sensors s ON s.id = f.sensor_id JOIN tank_presets p ON p.id = f.preset_id',
    );
    expect(fuel).toEqual({ serial: '6F708192', fuel_type: 'Diesel', preset_id: expect.any(String), org_id: null });
  });

  it('has council route tasks in every progress state and readings in every state (organisation-and-routes 4)', async () => {
    const tasks = await q<{ task_number: number; route_name: string; is_special: boolean; started_at: number | null; completed_at: number | null; exported: boolean; total: number; done: number }>(
      `SELECT t.task_number, t.route_name, t.is_special, t.started_at, t.completed_at, t.exported, count(r.id)::int AS total, count(r.id) FILTER (WHERE r.completed)::int AS done
       FROM route_tasks t JOIN meter_readings r ON r.route_task_id = t.id GROUP BY t.id ORDER BY t.created_at`,
    );
    const progress = tasks.map((t) => (t.exported ? 'Exported' : t.completed_at ? 'Complete' : t.started_at ? 'Active' : 'Waiting'));
    expect(new Set(progress)).toEqual(new Set(['Exported', 'Complete', 'Active', 'Waiting']));
    // task numbers increase with creation, one per task
    expect(tasks.map((t) => t.task_number)).toEqual([...new Set(tasks.map((t) => t.task_number))].sort((a, b) => a - b));
    for (const t of tasks) expect(t.total).toBeGreaterThanOrEqual(10);
    expect(tasks.find((t) => t.is_special)!.route_name).toMatch(/^SP\d{10}$/);
    const readings = await q<{ completed: boolean; value: number | null; cant_read_code: string | null; exception: string | null; meter_info: Record<string, unknown> }>('SELECT * FROM meter_readings');
    const state = (r: (typeof readings)[number]) => (!r.completed ? 'Waiting' : r.value === null || r.value === -1 ? 'Not Read' : 'Complete');
    expect(new Set(readings.map(state))).toEqual(new Set(['Waiting', 'Not Read', 'Complete']));
    for (const r of readings.filter((x) => state(x) === 'Not Read')) expect(r.cant_read_code).toBeTruthy();
    expect([...new Set(readings.map((r) => r.exception))]).toEqual(expect.arrayContaining(['NoError', 'HighConsumption', 'NoConsumption', 'NegativeConsumption', 'CantRead']));
    expect(Object.keys(readings[0].meter_info).sort()).toEqual(['additionalLocationInfo', 'latitude', 'location', 'longitude', 'ownerName', 'propertyAddress', 'serial', 'valuationRef']);
  });

  it('gives every demo sensor a device key that the ingest path accepts', async () => {
    const key = await demoDeviceKey(s.ctx, 'C0FFEE01');
    const send = (k: string) =>
      fetch(`${s.url}/ingest/uplink`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Device-Key': k }, body: JSON.stringify({ serial: 'C0FFEE01', battery: 99 }) });
    expect((await send(await demoDeviceKey(s.ctx, '1A2B3C4D'))).status).toBe(401);
    expect((await send(key)).status).toBe(200);
  });

  it('does not seed again: neither a second call nor a restart on the same database adds anything', async () => {
    const before = await counts();
    expect(await seedDemoWorld(s.ctx)).toBeUndefined();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'true', SIMULATOR: 'false', LOG_LEVEL: 'warn' });
    const restarted = await startServer(config, { db: s.ctx.db, background: false, now: () => NOW + 3_600_000 });
    await restarted.stop();
    expect(await counts()).toEqual(before);
  });
});
