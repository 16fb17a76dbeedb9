import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDrivers, type TestServer } from './harness';
import { addMember, makeOrg, makeSensor, makeUser } from './fixtures';
import { notificationListSchema } from '../../src/contract/notification.schema';
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
