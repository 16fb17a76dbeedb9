import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { testDrivers } from './harness';
import { makeSensor } from './fixtures';
import { MIN, T0, ingestDb, level, pending, type Sensor } from './ingest-kit';
import type { Db } from '../../server/db/db';
import type { Logger } from '../../server/log';
import { writeBatch, type Ingested, type Pending } from '../../server/ingest/batch-write';
import { UplinkBatcher } from '../../server/ingest/batcher';

const quiet = { warn() {} } as unknown as Logger;
// level = 3000 - rawDistance; threshold alarm at 2000 mm of level, rapid rise of 500 mm in an hour
const alarms = { '0': { type: 'THRESHOLD_INCREASING', threshold: 2000, enabled: true }, '1': { type: 'DELTA_INCREASING', threshold: 500, enabled: true } };

describe.each(testDrivers)('group commit of uplinks on %s (issue 10: one transaction, each as if alone)', (driver) => {
  let db: Db;
  let drop: () => Promise<void>;
  let orgId: string;
  beforeAll(async () => {
    ({ db, drop, orgId } = await ingestDb(driver));
  });
  afterAll(() => drop?.());

  const sensor = () => makeSensor(db, orgId, { alarms, displayInfo: { offsetMeasurement: 3000, referenceLines: [] } });
  const batch = (items: Pending[]) => db.tx((q) => writeBatch(q, items));
  const oneByOne = async (items: Pending[]) => {
    const out: (Ingested | Error)[] = [];
    for (const p of items) out.push(...(await batch([p])));
    return out;
  };

  /** What an uplink list left behind for a sensor, with ids and the sensor's own values taken out. */
  async function stateOf(s: Sensor) {
    const id = (await db.query<{ id: string }>('SELECT id FROM sensors WHERE serial = $1', [s.serial]))[0].id;
    const q = (sql: string) => db.query(sql, [id]);
    return {
      measurements: await q('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 ORDER BY time'),
      errors: await q('SELECT time, code FROM measurement_errors WHERE sensor_id = $1 ORDER BY time, code'),
      notifications: await q('SELECT type, condition_key, start_time, end_time, meta FROM notifications WHERE sensor_id = $1 ORDER BY start_time, condition_key'),
      latest: (await q('SELECT latest_data, latest_boot_info FROM sensors WHERE id = $1'))[0],
      tasks: await q('SELECT type, status, dispatched_at, ended_at FROM downlink_tasks WHERE sensor_id = $1 ORDER BY created_at'),
      outbox: (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE payload::text LIKE '%' || $1 || '%'", [s.serial]))[0].n,
    };
  }
  const ackOf = (r: Ingested | Error) => (r instanceof Error ? r.message : { stored: r.stored.length, downlinks: r.downlinks.map((d) => d.type), changed: r.changed.map((c) => `${c.event} ${c.notification.meta.type}`), alert: r.latest.alertAsserted });

  it('leaves the same data, notifications, downlinks and answers as the same uplinks one by one', async () => {
    const [a1, b1, a2, b2] = [await sensor(), await sensor(), await sensor(), await sensor()];
    const task = async (s: Sensor, type: string, at: number) => {
      const id = randomUUID();
      await db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) SELECT $1, id, $2, '{}', $3 FROM sensors WHERE serial = $4`, [id, type, at, s.serial]);
      return id;
    };
    const tasks = new Map<Sensor, string[]>();
    for (const s of [a1, a2]) tasks.set(s, [await task(s, 'Second', 2), await task(s, 'First', 1)]);
    // a mix in arrival order: rises and falls through both alarms, a duplicate time, one older
    // reading arriving late, an error-only uplink, low battery, boot info, and another sensor between
    const mix = (a: Sensor, b: Sensor) => [
      level(a, T0, 1000),
      level(b, T0, 1000, { battery: 9, appliedTasks: [{ id: tasks.get(a)![0], ok: true }] }), // another sensor's task: ignored
      level(a, T0 + 10 * MIN, 2100, { appliedTasks: [{ id: tasks.get(a)![1], ok: true }, { id: tasks.get(a)![0], ok: false }, { id: tasks.get(a)![1], ok: false }] }), // threshold and +1100 in an hour: both open; applies what the first uplink collected
      level(a, T0 + 10 * MIN, 900), // same time again: a duplicate, changes nothing
      level(b, T0 + 5 * MIN, 1200, { battery: 50, bootInfo: { firmwareVersion: 7 } }),
      level(a, T0 + 5 * MIN, 1500), // late and older: stored, but not the newest
      pending(a, { errors: [{ time: T0 + 12 * MIN, code: 'E3' }] }, T0 + 13 * MIN),
      level(a, T0 + 20 * MIN, 1200), // threshold clears; the hour still rose 200 from T0: delta clears; error clears
      level(b, T0 + 30 * MIN, 2500), // threshold and delta open on b
      level(a, T0 + 25 * MIN, 1300, { measurements: [{ time: T0 + 25 * MIN, rawDistance: 1700 }, { time: T0 + 26 * MIN, rawDistance: 1800 }] }),
    ];
    const alone = await oneByOne(mix(a1, b1));
    const together = await batch(mix(a2, b2));
    expect(together.map(ackOf)).toEqual(alone.map(ackOf));
    expect(await stateOf(a2)).toEqual(await stateOf(a1));
    expect(await stateOf(b2)).toEqual(await stateOf(b1));
    // and the semantics themselves: opened once, closed once, the oldest task to the first uplink
    // (one at a time: DESIGN.md "tasks run in order"; the next waits for the device's report)
    const a = await stateOf(a2);
    expect(a.notifications.map((n) => [n.type, n.start_time, n.end_time])).toEqual([
      ['THRESHOLD_ALARM', T0 + 10 * MIN, T0 + 20 * MIN],
      ['DELTA_ALARM', T0 + 10 * MIN, T0 + 20 * MIN],
      ['SENSOR_ERROR', T0 + 12 * MIN, T0 + 20 * MIN],
    ]);
    expect(together.map(ackOf)[0]).toMatchObject({ stored: 1, downlinks: ['First'] });
    expect(together.map(ackOf)[3]).toMatchObject({ stored: 0, downlinks: [] });
    expect(a.measurements).toHaveLength(6);
    // First reported done by the third uplink, which then collects Second (so its early 'failed' report of Second changed nothing)
    expect(a.tasks.map((t) => [t.type, t.status])).toEqual([
      ['First', 'Success'],
      ['Second', 'Dispatched'],
    ]);
  });

  it('gives a (sensor, time) sent twice in one batch to the first uplink only', async () => {
    const s = await sensor();
    const [first, second] = await batch([level(s, T0, 1000), level(s, T0, 1500)]);
    expect([ackOf(first), ackOf(second)]).toMatchObject([{ stored: 1 }, { stored: 0 }]);
    expect(await db.query('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1', [s.id])).toEqual([{ time: T0, raw_distance: 2000 }]);
  });

  it('refuses an unknown sensor or a wrong key inside a batch and stores the others', async () => {
    const s = await sensor();
    const ghost = { ...s, serial: 'ABCDEF99' };
    const results = await batch([level(s, T0, 1000), pending(s, { measurements: [{ time: T0 + MIN, rawDistance: 1 }] }, T0, 'wrong'), level(ghost, T0, 1000), level(s, T0 + 2 * MIN, 1100)]);
    expect(results.map((r) => (r instanceof Error ? r.message : 'ok'))).toEqual(['ok', 'Unknown sensor or wrong device key.', 'Unknown sensor or wrong device key.', 'ok']);
    expect((await db.query('SELECT time FROM measurements WHERE sensor_id = $1 ORDER BY time', [s.id])).map((r) => r.time)).toEqual([T0, T0 + 2 * MIN]);
  });

  // LOCK_SQL's FOR NO KEY UPDATE (batch-write.ts): with FOR UPDATE this insert waited for the
  // batch, and the ingest benchmark's queue of such inserts deadlocked with one (29 November)
  it.runIf(driver === 'postgres')('lets rows that refer to its sensors be written while it holds them', async () => {
    const [s, t] = [await sensor(), await sensor()];
    const insertTasks = () =>
      db.query(`INSERT INTO downlink_tasks (id, sensor_id, type, params, created_at) SELECT gen_random_uuid(), x, 'SensorConfig', '{}', $2 FROM unnest($1::uuid[]) x`, [[t.id, s.id], T0]);
    let whileHeld: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await db.tx(async (q) => {
      await writeBatch(q, [level(s, T0, 1000), level(t, T0, 1000)]);
      // another connection, the batch's transaction still open
      whileHeld = await Promise.race([insertTasks().then(() => 'written'), new Promise<string>((r) => (timer = setTimeout(() => r('waiting'), 3000)))]);
    });
    clearTimeout(timer);
    expect(whileHeld).toBe('written');
    expect(await db.query('SELECT count(*)::int AS n FROM downlink_tasks WHERE sensor_id = ANY($1::uuid[])', [[s.id, t.id]])).toEqual([{ n: 2 }]);
  });

  it('the batcher writes concurrent uplinks together, and one that breaks its transaction fails alone', async () => {
    const [s, t] = [await sensor(), await sensor()];
    const batcher = new UplinkBatcher(db, quiet, 1); // one lane, so all five share a batch
    const poison = pending(s, {}, T0);
    poison.up.measurements.push({ time: T0 + 3 * MIN, rawDistance: 1e39 }); // overflows a real: the statement fails
    const ups = [level(s, T0, 1000), level(t, T0, 1000), poison, level(s, T0 + MIN, 1100), level(t, T0, 1200)];
    const settled = await Promise.allSettled(ups.map((p) => batcher.submit(p)));
    expect(batcher.largest).toBe(5);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value.stored.length : -1))).toEqual([1, 1, -1, 1, 0]);
    expect(await db.query('SELECT count(*)::int AS n FROM measurements WHERE sensor_id = ANY($1::uuid[])', [[s.id, t.id]])).toEqual([{ n: 3 }]);
  });
});
