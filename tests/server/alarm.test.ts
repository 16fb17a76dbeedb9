import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { collect, connectWs, sendUplink } from './live-helpers';
import { createOfflineScheduler } from '../../server/scheduler/offline';

const MIN = 60_000;
const T0 = Date.UTC(2026, 2, 1, 0, 0);

interface NotificationRow {
  id: string;
  type: string;
  condition_key: string;
  start_time: number;
  end_time: number | null;
  meta: Record<string, unknown>;
}

describe.each(testDrivers)('alarm engine on %s (monitoring-client.md 3, sensor-setup.md 3 and 9)', (driver) => {
  let s: TestServer;
  let clock = T0;
  let org: { id: string };
  let user: { id: string };

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => clock });
    org = await makeOrg(s.ctx.db);
    user = await makeUser(s.ctx.db);
    await addMember(s.ctx.db, org.id, user.id, 1);
  });
  afterAll(() => s?.close());

  // display: offset 3000 mm, so level = 3000 - rawDistance (mm)
  const newSensor = (over: Parameters<typeof makeSensor>[2] = {}) =>
    makeSensor(s.ctx.db, org.id, { displayInfo: { offsetMeasurement: 3000, referenceLines: [] }, ...over });
  const uplink = async (sensor: { serial: string; deviceKey: string }, body: Record<string, unknown>) => {
    const res = await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, ...body });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const level = (sensor: { serial: string; deviceKey: string }, time: number, levelMm: number, extra: Record<string, unknown> = {}) => {
    clock = Math.max(clock, time + 5_000);
    return uplink(sensor, { measurements: [{ time, rawDistance: 3000 - levelMm }], ...extra });
  };
  const notifications = (sensorId: string) =>
    s.ctx.db.query<NotificationRow>('SELECT id, type, condition_key, start_time, end_time, meta FROM notifications WHERE sensor_id = $1 ORDER BY start_time, type', [sensorId]);
  const latest = async (sensorId: string) => (await s.ctx.db.query<{ latest_data: Record<string, unknown> }>('SELECT latest_data FROM sensors WHERE id = $1', [sensorId]))[0].latest_data;

  it('THRESHOLD_INCREASING opens at or above the threshold (mm of level), asserts the alert, and closes when the level falls back', async () => {
    const sensor = await newSensor({ alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } } });
    await level(sensor, T0, 1500);
    expect(await notifications(sensor.id)).toEqual([]);
    await level(sensor, T0 + 15 * MIN, 2100);
    await level(sensor, T0 + 30 * MIN, 2200); // still over: no second notification
    let n = await notifications(sensor.id);
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({
      type: 'THRESHOLD_ALARM',
      start_time: T0 + 15 * MIN,
      end_time: null,
      meta: { type: 'THRESHOLD_ALARM', alarmSetting: { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true, index: '0' }, measurement: 2100 },
    });
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: true });
    await level(sensor, T0 + 45 * MIN, 1999);
    n = await notifications(sensor.id);
    expect(n[0].end_time).toBe(T0 + 45 * MIN);
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: false });
  });

  it('THRESHOLD_DECREASING opens at or below the threshold and closes above it', async () => {
    const sensor = await newSensor({ alarms: { '1': { type: 'THRESHOLD_DECREASING', threshold: 800, enabled: true } } });
    await level(sensor, T0, 900);
    await level(sensor, T0 + 15 * MIN, 800);
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'THRESHOLD_ALARM', end_time: null, meta: { measurement: 800 } }]);
    await level(sensor, T0 + 30 * MIN, 850);
    expect(await notifications(sensor.id)).toMatchObject([{ end_time: T0 + 30 * MIN }]);
  });

  it('DELTA_INCREASING opens on a rise of at least the threshold within 1 hour and closes once the hour shows no such rise', async () => {
    const sensor = await newSensor({ alarms: { '2': { type: 'DELTA_INCREASING', threshold: 300, enabled: true } } });
    await level(sensor, T0, 1000);
    await level(sensor, T0 + 30 * MIN, 1200);
    expect(await notifications(sensor.id)).toEqual([]);
    await level(sensor, T0 + 55 * MIN, 1350); // +350 within the hour
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'DELTA_ALARM', end_time: null, meta: { type: 'DELTA_ALARM', delta: 350, measurement: 1350 } }]);
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: true });
    await level(sensor, T0 + 120 * MIN, 1360); // the window now starts at 1350: +10
    expect(await notifications(sensor.id)).toMatchObject([{ end_time: T0 + 120 * MIN }]);
  });

  it('DELTA_DECREASING opens on a fall of at least the threshold within 1 hour (threshold as a magnitude)', async () => {
    const sensor = await newSensor({ alarms: { '3': { type: 'DELTA_DECREASING', threshold: -300, enabled: true } } });
    await level(sensor, T0, 2000);
    await level(sensor, T0 + 20 * MIN, 1650);
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'DELTA_ALARM', end_time: null, meta: { delta: -350 } }]);
    await level(sensor, T0 + 200 * MIN, 1640);
    expect((await notifications(sensor.id))[0].end_time).toBe(T0 + 200 * MIN);
  });

  it('ACCELEROMETER (movement) opens over its threshold and closes on a calm reading, or after the 1-hour window without one', async () => {
    const sensor = await newSensor({ alarms: { '4': { type: 'ACCELEROMETER', threshold: 50, enabled: true } } });
    clock = T0 + 10 * MIN;
    await uplink(sensor, { accelerometer: 80 });
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'ACCELEROMETER', end_time: null, meta: { measurement: 80, alarmSetting: { type: 'ACCELEROMETER', threshold: 50 } } }]);
    clock += 5 * MIN;
    await uplink(sensor, { accelerometer: 10 });
    expect((await notifications(sensor.id))[0].end_time).toBe(clock);

    await uplink(sensor, { accelerometer: 90 });
    clock += 30 * MIN;
    await uplink(sensor, { battery: 80 }); // no movement reading, inside the window: stays open
    expect((await notifications(sensor.id)).filter((n) => n.end_time === null)).toHaveLength(1);
    clock += 31 * MIN;
    await uplink(sensor, { battery: 80 });
    expect((await notifications(sensor.id)).filter((n) => n.end_time === null)).toHaveLength(0);
  });

  it('WATER_LEVEL_ALARM opens when the level leaves the display min/max and closes when it is back inside', async () => {
    const sensor = await newSensor({ displayInfo: { offsetMeasurement: 3000, minLevel: 500, maxLevel: 2500, referenceLines: [] } });
    await level(sensor, T0, 2600);
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'WATER_LEVEL_ALARM', end_time: null, meta: { type: 'WATER_LEVEL_ALARM', measurement: 2600 } }]);
    await level(sensor, T0 + 15 * MIN, 2400);
    await level(sensor, T0 + 30 * MIN, 400);
    const n = await notifications(sensor.id);
    expect(n.map((x) => [x.start_time, x.end_time])).toEqual([
      [T0, T0 + 15 * MIN],
      [T0 + 30 * MIN, null],
    ]);
  });

  it('SENSOR_ERROR opens on an uplink whose newest reading is an error and closes on a newer good measurement; it is a warning, not an alert', async () => {
    const sensor = await newSensor();
    clock = T0 + 2 * MIN;
    await uplink(sensor, { errors: [{ time: T0, code: 'E3' }] });
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'SENSOR_ERROR', end_time: null, meta: { type: 'SENSOR_ERROR', errorCode: 'E3' } }]);
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: false, lastMeasurementError: { code: 'E3', time: T0 } });
    await level(sensor, T0 + 15 * MIN, 1000);
    expect((await notifications(sensor.id))[0].end_time).toBe(T0 + 15 * MIN);
  });

  it('LOW_BATTERY opens under 10 percent and closes at 10 or more', async () => {
    const sensor = await newSensor();
    await uplink(sensor, { battery: 10 });
    expect(await notifications(sensor.id)).toEqual([]);
    await uplink(sensor, { battery: 9.5 });
    expect(await notifications(sensor.id)).toMatchObject([{ type: 'LOW_BATTERY', end_time: null, meta: { measurement: 9.5 } }]);
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: false });
    await uplink(sensor, { battery: 96 });
    expect((await notifications(sensor.id))[0].end_time).not.toBeNull();
  });

  it('SENSOR_OFFLINE opens when a sensor misses 2.5 transmission intervals and the next uplink closes it; scheduler-off sensors never go offline', async () => {
    const scheduler = createOfflineScheduler(s.ctx, { now: () => clock });
    const sensor = await newSensor({ config: { schedulerEnabled: true, measurementInterval: 5, transmissionInterval: 15 } });
    const off = await newSensor({ config: { schedulerEnabled: false, measurementInterval: 5, transmissionInterval: 15 } });
    clock = T0 + 1000 * MIN;
    await uplink(sensor, { battery: 90 });
    await uplink(off, { battery: 90 });
    clock += 37 * MIN; // 2.47 intervals
    await scheduler.runOnce();
    expect(await notifications(sensor.id)).toEqual([]);

    const c = await connectWs(s, await s.tokenFor(user.id));
    const inbox = collect(c);
    await c.subscribeAsync(`orgs/${org.id}/#`);
    clock += 1 * MIN; // 2.53 intervals
    await scheduler.runOnce();
    await scheduler.runOnce(); // a second pass does not open another
    const n = await notifications(sensor.id);
    expect(n).toMatchObject([{ type: 'SENSOR_OFFLINE', start_time: clock, end_time: null, meta: { type: 'SENSOR_OFFLINE' } }]);
    expect(await latest(sensor.id)).toMatchObject({ offlineAsserted: true });
    expect(await notifications(off.id)).toEqual([]);
    // subscribers see the sensor's state and the notification without a reload
    await inbox.next((m) => m.topic === `orgs/${org.id}/sensors/${sensor.id}/state` && (m.body.latestData as { offlineAsserted?: boolean }).offlineAsserted === true);
    await inbox.next((m) => m.topic === `orgs/${org.id}/notifications` && m.body.event === 'opened');

    clock += 10 * MIN;
    await uplink(sensor, { battery: 90 });
    expect((await notifications(sensor.id))[0].end_time).toBe(clock);
    expect(await latest(sensor.id)).toMatchObject({ offlineAsserted: false });
    const closed = await inbox.next((m) => m.topic === `orgs/${org.id}/notifications` && m.body.event === 'closed');
    expect(closed.body).toMatchObject({ serial: sensor.serial, notification: { id: n[0].id, sensorId: sensor.id, endTime: clock, meta: { type: 'SENSOR_OFFLINE' } } });
    await c.endAsync();
  });

  it('disabling or removing an alarm closes the notification it opened', async () => {
    const sensor = await newSensor({ alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true }, '1': { type: 'THRESHOLD_DECREASING', threshold: 2500, enabled: true } } });
    await level(sensor, T0, 2100);
    expect((await notifications(sensor.id)).filter((n) => n.end_time === null)).toHaveLength(2);
    await s.ctx.db.query(`UPDATE sensors SET alarms = '{"0":{"type":"THRESHOLD_INCREASING","threshold":2000,"enabled":false}}' WHERE id = $1`, [sensor.id]);
    clock += MIN;
    await uplink(sensor, { battery: 80 });
    expect((await notifications(sensor.id)).filter((n) => n.end_time === null)).toEqual([]);
    expect(await latest(sensor.id)).toMatchObject({ alertAsserted: false });
  });

  it('sees changes made beside the ingest path at once: a queued downlink task, a notification ended elsewhere', async () => {
    const sensor = await newSensor({ alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } } });
    await level(sensor, T0, 1000);
    await level(sensor, T0 + 60_000, 1000); // the sensor is now well known to the ingest path
    const taskId = randomUUID();
    await s.ctx.db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) VALUES ($1, $2, 'SensorConfig', '{"measurementInterval":5}', $3)`, [taskId, sensor.id, clock]);
    clock += 60_000;
    const res = await sendUplink(s, sensor.deviceKey, { serial: sensor.serial, measurements: [{ time: T0 + 120_000, rawDistance: 2000 }] });
    expect((await res.json()).downlinks).toEqual([{ id: taskId, type: 'SensorConfig', params: { measurementInterval: 5 } }]);

    await level(sensor, T0 + 180_000, 2500);
    const [open] = await notifications(sensor.id);
    await s.ctx.db.query('UPDATE notifications SET end_time = $2 WHERE id = $1', [open.id, T0 + 200_000]);
    await level(sensor, T0 + 240_000, 2600); // still over the threshold: a new notification opens
    expect((await notifications(sensor.id)).map((n) => n.end_time)).toEqual([T0 + 200_000, null]);
  });

  it('a repeated uplink (same measurement time) changes no notification', async () => {
    const sensor = await newSensor({ alarms: { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true } } });
    await level(sensor, T0, 2100);
    await level(sensor, T0, 2100);
    expect(await notifications(sensor.id)).toHaveLength(1);
  });
});
