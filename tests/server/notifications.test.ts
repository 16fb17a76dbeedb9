import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { NOTIFICATION_TYPES, notificationListSchema, notificationPageSchema, type SensorNotification } from '../../src/contract/notification.schema';
import { orderNotifications } from '../../src/domain/notification-rules';
import type { Queryable } from '../../server/db/db';

const NOW = 1_760_000_000_000;
const H = 3600_000;

async function makeNotification(q: Queryable, orgId: string, sensorId: string, type: string, start: number, end: number | null, endless = false) {
  const id = randomUUID();
  await q.query(
    `INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, endless, meta, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $6)`,
    [id, orgId, sensorId, type, `${type}:${id}`, start, end, endless, JSON.stringify({ measurement: 1234, alarmSetting: { type: 'THRESHOLD_INCREASING', threshold: 2, enabled: true } })],
  );
  return id;
}

describe.each(testDrivers)('notifications gateway on %s (monitoring-client 2.8, 7)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let memberToken: string;
  let outsiderToken: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => NOW });
    const db = s.ctx.db;
    org = await makeOrg(db);
    const other = await makeOrg(db);
    const member = await makeUser(db);
    await addMember(db, org.id, member.id, 1);
    memberToken = await s.tokenFor(member.id);
    const outsider = await makeUser(db);
    await addMember(db, other.id, outsider.id, 3);
    outsiderToken = await s.tokenFor(outsider.id);
    const sensor = await makeSensor(db, org.id);
    const theirs = await makeSensor(db, other.id);
    ids.open = await makeNotification(db, org.id, sensor.id, 'THRESHOLD_ALARM', NOW - 120 * 24 * H, null);
    ids.cleared = await makeNotification(db, org.id, sensor.id, 'SENSOR_OFFLINE', NOW - 5 * H, NOW - 2 * H);
    ids.endless = await makeNotification(db, org.id, sensor.id, 'DELTA_ALARM', NOW - 1 * H, null, true);
    ids.old = await makeNotification(db, org.id, sensor.id, 'LOW_BATTERY', NOW - 100 * 24 * H, NOW - 99 * 24 * H);
    ids.theirs = await makeNotification(db, other.id, theirs.id, 'THRESHOLD_ALARM', NOW - H, null);
  });
  afterAll(() => s?.close());

  it('answers the organisation\'s notifications newest first: open ones however old, cleared ones of the last 90 days', async () => {
    const res = await s.api(`/organisations/${org.id}/notifications`, { token: memberToken });
    expect(res.status).toBe(200);
    const { notifications } = notificationListSchema.parse(await res.json());
    expect(notifications.map((n) => n.id)).toEqual([ids.endless, ids.cleared, ids.open]);
    expect(notifications[1]).toMatchObject({ endTime: NOW - 2 * H, endless: false, meta: { type: 'SENSOR_OFFLINE', measurement: 1234 } });
    expect(notifications[0]).toMatchObject({ endless: true, endTime: null, meta: { type: 'DELTA_ALARM' } });
  });

  it('refuses a user of another organisation, and shows them none of ours', async () => {
    const res = await s.api(`/organisations/${org.id}/notifications`, { token: outsiderToken });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'ORGANISATION_NOT_FOUND' });
    expect((await s.api(`/organisations/${org.id}/notifications`, { token: null })).status).toBe(401);
  });
});

/** The page order with the server's tie-break (id) for equal starts. */
const pageOrder = (list: SensorNotification[]) => orderNotifications([...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));

describe.each(testDrivers)('notifications paging and filters on %s (issue 32)', (driver) => {
  let s: TestServer;
  let org: { id: string };
  let token: string;
  let sensorA: { id: string; serial: string };
  let sensorB: { id: string; serial: string };
  let theirSensor: { id: string };
  let all: SensorNotification[];

  const page = async (query: string) => {
    const res = await s.api(`/organisations/${org.id}/notifications?${query}`, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return notificationPageSchema.parse(await res.json());
  };
  /** Every page of a query, `limit` at a time, followed by its cursors. */
  const walk = async (query: string, limit: number) => {
    const out: SensorNotification[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const p = await page(`${query}&limit=${limit}${next ? `&cursor=${next}` : ''}`);
      expect(p.notifications.length).toBeLessThanOrEqual(limit);
      for (const n of p.notifications) expect(p.sensors[n.sensorId]).toBeDefined();
      out.push(...p.notifications);
      next = p.next;
      pages++;
    } while (next && pages < 100);
    return out;
  };

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { now: () => NOW });
    const db = s.ctx.db;
    org = await makeOrg(db);
    const other = await makeOrg(db);
    const user = await makeUser(db);
    await addMember(db, org.id, user.id, 1);
    token = await s.tokenFor(user.id);
    sensorA = await makeSensor(db, org.id, { name: 'Alpha weir' });
    sensorB = await makeSensor(db, org.id, { name: 'Bravo tank', config: { schedulerEnabled: true, measurementInterval: 15, transmissionInterval: 30 } });
    theirSensor = await makeSensor(db, other.id);
    // every type, open, cleared and endless, on two sensors, some with equal starts
    let i = 0;
    let made = 0;
    for (const type of NOTIFICATION_TYPES) {
      for (const sensor of [sensorA, sensorB]) {
        await makeNotification(db, org.id, sensor.id, type, NOW - (i % 5) * H, null);
        await makeNotification(db, org.id, sensor.id, type, NOW - 30 * H - (i % 3) * H, NOW - 2 * H);
        made += 2;
        if (i % 4 === 0) {
          await makeNotification(db, org.id, sensor.id, type, NOW - 2 * H, null, true);
          made++;
        }
        i++;
      }
    }
    await makeNotification(db, org.id, sensorA.id, 'LOW_BATTERY', NOW - 100 * 24 * H, NOW - 99 * 24 * H); // outside the 90 days: on neither form
    await makeNotification(db, other.id, theirSensor.id, 'THRESHOLD_ALARM', NOW - H, null);
    const res = await s.api(`/organisations/${org.id}/notifications`, { token });
    all = notificationListSchema.parse(await res.json()).notifications;
    expect(all.length).toBe(made);
  });
  afterAll(() => s?.close());

  it('without parameters answers the spec\'s shape only; with any, pages that together are the whole list in the page\'s order', async () => {
    const plain = await (await s.api(`/organisations/${org.id}/notifications`, { token })).json();
    expect(Object.keys(plain)).toEqual(['notifications']);
    const first = await page('limit=5');
    expect(first.notifications).toHaveLength(5);
    expect(first.next).toEqual(expect.any(String));
    expect(first.sensors[sensorB.id]).toEqual({ serial: sensorB.serial, name: 'Bravo tank', measurementInterval: 15 });
    expect((await walk('', 5)).map((n) => n.id)).toEqual(pageOrder(all).map((n) => n.id));
    expect((await walk('', 200)).map((n) => n.id)).toEqual(pageOrder(all).map((n) => n.id));
    // the default page size
    expect((await page('state=open')).notifications.length).toBe(all.filter((n) => n.endTime === null && !n.endless).length);
  });

  it('filters by type, state and sensor, alone and together, in the page\'s order', async () => {
    const expectFilter = async (query: string, keep: (n: SensorNotification) => boolean) => {
      const want = pageOrder(all.filter(keep)).map((n) => n.id);
      expect(want.length).toBeGreaterThan(0);
      expect((await walk(query, 3)).map((n) => n.id)).toEqual(want);
    };
    await expectFilter('type=LOW_BATTERY', (n) => n.meta.type === 'LOW_BATTERY');
    await expectFilter('type=THRESHOLD_ALARM', (n) => n.meta.type === 'THRESHOLD_ALARM');
    await expectFilter('type=DELTA_ALARM,ACCELEROMETER', (n) => n.meta.type === 'DELTA_ALARM' || n.meta.type === 'ACCELEROMETER');
    await expectFilter('state=open', (n) => n.endTime === null && !n.endless);
    await expectFilter('state=closed', (n) => n.endTime !== null || n.endless);
    await expectFilter(`sensor=${sensorB.id}`, (n) => n.sensorId === sensorB.id);
    await expectFilter(`sensor=${sensorA.id.toUpperCase()}&state=open&type=SENSOR_OFFLINE,WATER_LEVEL_ALARM`, (n) => n.sensorId === sensorA.id && n.endTime === null && !n.endless && (n.meta.type === 'SENSOR_OFFLINE' || n.meta.type === 'WATER_LEVEL_ALARM'));
    // another organisation's sensor: none of its notifications
    expect(await page(`sensor=${theirSensor.id}`)).toEqual({ notifications: [], sensors: {}, next: null });
  });

  it('refuses bad values with 400 and a message naming the parameter', async () => {
    const bad = async (query: string, code: string, message: RegExp) => {
      const res = await s.api(`/organisations/${org.id}/notifications?${query}`, { token });
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.code).toBe(code);
      expect(body.message).toMatch(message);
    };
    await bad('type=LOW_BATERY', 'INVALID_QUERY', /^type must be one or more of WATER_LEVEL_ALARM, .*DELTA_ALARM, FORECAST_ALARM, separated by commas, not "LOW_BATERY"\.$/);
    await bad('type=', 'INVALID_QUERY', /^type must be .* not ""\.$/);
    await bad('type=LOW_BATTERY,,', 'INVALID_QUERY', /^type must be/);
    await bad('state=active', 'INVALID_QUERY', /^state must be "open" or "closed", not "active"\.$/);
    await bad('sensor=F0000001', 'INVALID_QUERY', /^sensor must be a sensor's id \(a UUID\), not "F0000001"\.$/);
    for (const limit of ['0', '201', '-1', '2.5', 'ten', '']) await bad(`limit=${limit}`, 'INVALID_QUERY', /^limit must be a whole number from 1 to 200, not/);
    for (const cursor of ['x', Buffer.from('1:2').toString('base64url'), Buffer.from(`99999999999999999999:${sensorA.id}`).toString('base64url')]) {
      await bad(`cursor=${cursor}`, 'INVALID_CURSOR', /^cursor is not one this server gave out/);
    }
  });

  it('pages 100,000 notifications seeded by SQL from the index (the time is reported, not asserted)', async () => {
    const db = s.ctx.db;
    const big = await makeOrg(db);
    const user = await makeUser(db);
    await addMember(db, big.id, user.id, 1);
    const bigToken = await s.tokenFor(user.id);
    const sensors: string[] = [];
    for (let i = 0; i < 100; i++) sensors.push((await makeSensor(db, big.id)).id);
    // 100,000 over 100 sensors and every type, 1 in 50 open, starts spread over 80 days
    await db.query(
      `INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, end_time, endless, meta, created_at)
       SELECT gen_random_uuid(), $1, ($2::uuid[])[1 + g % 100], ($3::text[])[1 + (g / 100) % 7], 'k' || g,
              $4::bigint - g::bigint * 69120, CASE WHEN g % 50 = 0 THEN NULL ELSE $4::bigint - g::bigint * 69120 + 3600000 END, false, '{"measurement":1234}', $4
       FROM generate_series(1, 100000) g`,
      [big.id, sensors, [...NOTIFICATION_TYPES], NOW],
    );
    await db.query('ANALYZE notifications');
    const timed = async (query: string) => {
      const t = performance.now();
      const res = await s.api(`/organisations/${big.id}/notifications?${query}`, { token: bigToken });
      const ms = performance.now() - t;
      expect(res.status).toBe(200);
      const body = notificationPageSchema.parse(await res.json());
      console.log(`[${driver}] 100,000 notifications, ?${query.replace(/cursor=[^&]+/, 'cursor=…')}: ${body.notifications.length} in ${ms.toFixed(1)} ms (Server-Timing ${res.headers.get('server-timing')})`);
      return body;
    };
    await timed('limit=50'); // warm
    const first = await timed('limit=50');
    expect(first.notifications).toHaveLength(50);
    expect(first.notifications.every((n) => n.meta.type === 'WATER_LEVEL_ALARM' || n.meta.type === 'THRESHOLD_ALARM')).toBe(true);
    const second = await timed(`limit=50&cursor=${first.next}`);
    expect(second.notifications[0].startTime).toBeLessThanOrEqual(first.notifications[49].startTime);
    await timed('limit=50&state=open');
    await timed('limit=50&state=closed&type=SENSOR_OFFLINE');
    await timed(`limit=50&sensor=${sensors[7]}`);
    // the plans: the page's indexes, no sort of the organisation's rows
    const plan = async (extra: string) =>
      (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT n.id FROM notifications n JOIN sensors s ON s.id = n.sensor_id AND s.org_id = n.org_id WHERE n.org_id = $1 ${extra} ORDER BY n.page_order, n.id LIMIT 51`, [big.id]))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    expect(await plan('')).toMatch(/notifications_page\b/);
    // open ones: notifications_page_open or, with few per sensor, notifications_open; never the whole table
    for (const p of ['', 'AND n.end_time IS NULL AND n.endless = false', `AND n.sensor_id = '${sensors[7]}'`]) expect(await plan(p)).not.toMatch(/Seq Scan on notifications/);
    expect(await plan(`AND n.sensor_id = '${sensors[7]}'`)).toMatch(/notifications_page_sensor/);
    for (const p of ['', `AND n.sensor_id = '${sensors[7]}'`]) expect(await plan(p)).not.toMatch(/Sort/);
  }, 120_000);
});
