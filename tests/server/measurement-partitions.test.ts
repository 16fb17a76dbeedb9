import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, testDrivers } from './harness';
import { makeOrg, makeSensor } from './fixtures';
import { openDb, type Db } from '../../server/db/db';
import { migrate } from '../../server/db/migrate';
import { ensureMonths, listPartitions, partitionPass, type PartitionPass } from '../../server/db/measurement-partitions';
import { writeBatch, type Pending } from '../../server/ingest/batch-write';
import { readMeasurements } from '../../server/gateway/measurements.routes';
import { uplinkSchema } from '../../src/contract/uplink.schema';
import { measurementQuerySchema } from '../../src/contract/measurement.schema';

const HOUR = 3_600_000;
const JAN = Date.UTC(2026, 0, 1);
const NOW = Date.UTC(2026, 4, 15, 12); // 15 May 2026: Jan..Apr are closed months
const FAR_PAST = Date.UTC(1999, 6, 4);
const FAR_FUTURE = 8.64e15; // the uplink contract's largest time: no month partition can hold it

/** Every stored row, in key order, as one string: equal strings are equal tables. */
const snapshot = async (db: Db) =>
  (await db.query<{ s: string | null; n: number }>(`SELECT count(*)::int AS n, string_agg(sensor_id || ':' || time || ':' || raw_distance || ':' || COALESCE(beta_raw_distance::text, '-'), ',' ORDER BY sensor_id, time) AS s FROM measurements`))[0];
const where = async (db: Db, time: number) => (await db.query<{ p: string }>('SELECT tableoid::regclass::text AS p FROM measurements WHERE time = $1', [time]))[0]?.p;

describe.each(testDrivers)('measurements partitioned by month on %s (issue 17)', (driver) => {
  let db: Db;
  let drop: () => Promise<void>;
  let sensors: Awaited<ReturnType<typeof makeSensor>>[];
  let before: { s: string | null; n: number };

  beforeAll(async () => {
    ({ db, drop } = await freshDb(driver));
    await migrate(db, { upTo: '013_radar_settings.sql' });
    const org = await makeOrg(db);
    sensors = [await makeSensor(db, org.id), await makeSensor(db, org.id), await makeSensor(db, org.id)];
    // a populated table at 013: three sensors' rows interleaved in arrival order, 1 Jan to mid-May,
    // every 3 hours, a beta on some, plus a stray far in the past
    await db.query(
      `INSERT INTO measurements (sensor_id, time, raw_distance, beta_raw_distance)
       SELECT s, $1::bigint + g::bigint * ${3 * HOUR}, 1000 + g % 997, CASE WHEN g % 5 = 0 THEN 500 + g % 13 END
         FROM generate_series(0, 1070) g, unnest($2::uuid[]) s ORDER BY g`,
      [JAN, sensors.map((s) => s.id)],
    );
    await db.query('INSERT INTO measurements (sensor_id, time, raw_distance) VALUES ($1, $2, 42)', [sensors[0].id, FAR_PAST]);
    before = await snapshot(db);
  });
  afterAll(() => drop?.());

  it('migration 014 converts a populated table without losing or changing a row', async () => {
    expect(before.n).toBe(3 * 1071 + 1);
    expect(await migrate(db, { upTo: '014_measurement_partitions.sql' })).toEqual(['014_measurement_partitions.sql']);
    const kind = await db.query<{ k: string }>(`SELECT relkind::text AS k FROM pg_class WHERE relname = 'measurements'`);
    expect(kind[0].k).toBe('p');
    expect((await listPartitions(db)).map((p) => p.name)).toEqual(['measurements_default']);
    expect(await snapshot(db)).toEqual(before);
  });

  it('the partition job creates the months (with months ahead), moves the rows there sorted, and keeps every row', async () => {
    const pass = await partitionPass(db, NOW);
    expect(pass.skipped).toBe(false);
    expect(pass.created.sort()).toEqual(['measurements_y1999m07', 'measurements_y2026m01', 'measurements_y2026m02', 'measurements_y2026m03', 'measurements_y2026m04', 'measurements_y2026m05', 'measurements_y2026m06', 'measurements_y2026m07']);
    expect(pass.moved).toBe(before.n);
    expect(await snapshot(db)).toEqual(before);
    expect(await where(db, Date.UTC(2026, 1, 3, 6))).toBe('measurements_y2026m02');
    expect(await where(db, FAR_PAST)).toBe('measurements_y1999m07');
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements_default'))[0].n).toBe(0);
    // closed months filled in (sensor, time) order are marked clustered; May and later are open
    const parts = await listPartitions(db);
    expect(parts.filter((p) => p.clustered).map((p) => p.name)).toEqual(['measurements_y1999m07', 'measurements_y2026m01', 'measurements_y2026m02', 'measurements_y2026m03', 'measurements_y2026m04']);
    const feb = await db.query<{ sensor_id: string; time: number }>('SELECT sensor_id, time FROM measurements_y2026m02'); // heap order
    expect(feb).toEqual([...feb].sort((a, b) => (a.sensor_id < b.sensor_id ? -1 : a.sensor_id > b.sensor_id ? 1 : a.time - b.time)));
    // nothing left to do
    const again = await partitionPass(db, NOW);
    expect(again).toEqual({ created: [], moved: 0, clustered: [], skipped: false });
  });

  it('stores uplinks far in the past and the future (the default partition), idempotently, and reads them back', async () => {
    const s = sensors[1];
    const up = (times: number[]): Pending => ({ deviceKey: s.deviceKey, up: uplinkSchema.parse({ serial: s.serial, measurements: times.map((time) => ({ time, rawDistance: 1234 })) }), now: NOW });
    const times = [Date.UTC(1980, 0, 1), NOW + 10 * HOUR, Date.UTC(2030, 0, 1), FAR_FUTURE];
    const [first] = await db.tx((q) => writeBatch(q, [up(times)]));
    expect(first).not.toBeInstanceOf(Error);
    expect(first instanceof Error ? -1 : first.stored.length).toBe(4);
    const [again] = await db.tx((q) => writeBatch(q, [up(times)])); // ON CONFLICT (sensor_id, time) on a partitioned table
    expect(again instanceof Error ? -1 : again.stored.length).toBe(0);
    expect(await where(db, NOW + 10 * HOUR)).toBe('measurements_y2026m05');
    expect(await where(db, FAR_FUTURE)).toBe('measurements_default');
    expect(await where(db, Date.UTC(2030, 0, 1))).toBe('measurements_default');
    const q = measurementQuerySchema.parse({ startTime: '0', endTime: String(FAR_FUTURE), format: 'columns' });
    const { page } = await readMeasurements(db, s.id, q, 'columns');
    expect(page?.n).toBe(1071 + 4);
    expect(String(page?.t).split(',').slice(0, 1).concat(String(page?.t).split(',').slice(-2)).map(Number)).toEqual([Date.UTC(1980, 0, 1), Date.UTC(2030, 0, 1), FAR_FUTURE]);
    // the 1980 row went to the default partition; the next pass gives it a month of its own
    expect(await where(db, Date.UTC(1980, 0, 1))).toBe('measurements_default');
    const pass = await partitionPass(db, NOW);
    expect(pass.created).toEqual(['measurements_y1980m01']);
    expect(await where(db, Date.UTC(1980, 0, 1))).toBe('measurements_y1980m01');
  });

  it("a sensor's range read is pruned to the months it covers (the default partition too)", async () => {
    const plan = await db.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT time, raw_distance FROM measurements WHERE sensor_id = '${sensors[0].id}' AND time >= ${Date.UTC(2026, 1, 10)} AND time <= ${Date.UTC(2026, 2, 20)} ORDER BY time LIMIT 50000`,
    );
    const text = JSON.stringify(plan);
    const scanned = [...new Set([...text.matchAll(/"Relation Name":\s*"([a-z0-9_]+)"/g)].map((m) => m[1]))].sort();
    expect(scanned).toEqual(['measurements_y2026m02', 'measurements_y2026m03']);
  });

  it('CLUSTERs a month once it is closed, and two processes running the job at once neither fail nor do a step twice', async () => {
    // June and July exist (created ahead) and were filled in arrival order, sensors interleaved
    await db.query(
      `INSERT INTO measurements (sensor_id, time, raw_distance)
       SELECT s, $1::bigint + g::bigint * ${HOUR}, 700 FROM generate_series(0, 400) g, unnest($2::uuid[]) s ORDER BY g`,
      [Date.UTC(2026, 5, 1), sensors.map((s) => s.id)],
    );
    const heapOrder = async () => (await db.query<{ sensor_id: string }>('SELECT sensor_id FROM measurements_y2026m06')).map((r) => r.sensor_id);
    const runs = (xs: string[]) => xs.filter((x, i) => i === 0 || x !== xs[i - 1]).length;
    expect(runs(await heapOrder())).toBeGreaterThan(100);
    const rows = await snapshot(db);

    // the second "process": its own connection pool on PostgreSQL; PGlite is one process by nature
    const other = db.url ? await openDb({ databaseUrl: db.url }) : db;
    const later = Date.UTC(2026, 7, 20); // August: June and July closed; Aug..Oct due
    let passes: PartitionPass[];
    try {
      passes = await Promise.all([partitionPass(db, later), partitionPass(other, later), partitionPass(db, later), partitionPass(other, later)]);
      for (;;) {
        const p = await partitionPass(db, later);
        passes.push(p);
        if (!p.created.length && !p.clustered.length) break;
      }
    } finally {
      if (other !== db) await other.close();
    }
    const created = passes.flatMap((p) => p.created).sort();
    const clustered = passes.flatMap((p) => p.clustered).sort();
    expect(created).toEqual(['measurements_y2026m08', 'measurements_y2026m09', 'measurements_y2026m10']);
    expect(clustered).toEqual(['measurements_y2026m05', 'measurements_y2026m06', 'measurements_y2026m07']);
    expect(runs(await heapOrder())).toBe(3); // one run of pages per sensor
    expect(await snapshot(db)).toEqual(rows);
  });

  it('creating partitions while ingest batches run fails no batch (no deadlock between the job and an uplink)', async () => {
    // sensors with a rapid-change alarm: each batch reads its window through `measurements` (every
    // partition, the default one included), inserts, then updates `sensors`, as ingest does
    const org = await makeOrg(db);
    const alarmed = await Promise.all(
      Array.from({ length: 4 }, () => makeSensor(db, org.id, { alarms: { '1': { type: 'DELTA_INCREASING', threshold: 500, enabled: true } }, displayInfo: { offsetMeasurement: 3000, referenceLines: [] } })),
    );
    const other = db.url ? await openDb({ databaseUrl: db.url }) : db;
    const failures: string[] = [];
    let going = true;
    const base = Date.UTC(2040, 0, 1);
    const ingest = async (k: number) => {
      for (let i = 0; going; i++) {
        const s = alarmed[k];
        const time = base + i * 3 * 86_400_000 + k; // walks through the months the job is creating
        const p: Pending = { deviceKey: s.deviceKey, up: uplinkSchema.parse({ serial: s.serial, measurements: [{ time, rawDistance: 1000 + (i % 7) * 300 }] }), now: time };
        const [r] = await db.tx((q) => writeBatch(q, [p])).catch((err: Error) => [err]);
        if (r instanceof Error) failures.push(r.message);
      }
    };
    try {
      const batches = Promise.all(alarmed.map((_, k) => ingest(k)));
      for (let m = 0; m < 24; m++) await partitionPass(other, Date.UTC(2040, m, 1)); // three months ahead each time
      going = false;
      await batches;
    } finally {
      going = false;
      if (other !== db) await other.close();
    }
    expect(failures).toEqual([]);
    expect((await listPartitions(db)).filter((p) => p.name.startsWith('measurements_y2040') || p.name.startsWith('measurements_y2041')).length).toBe(24);
  });

  // PostgreSQL only: it needs three connections at once (PGlite has one, so nothing overlaps there)
  it.skipIf(driver === 'pglite')("an uplink's window read while the job moves its month out of the default partition still sees the month's rows (the missing DELTA of the ingest bench)", async () => {
    const org = await makeOrg(db);
    const s = await makeSensor(db, org.id, { alarms: { '1': { type: 'DELTA_INCREASING', threshold: 500, enabled: true } }, displayInfo: { offsetMeasurement: 3000, referenceLines: [] } });
    const month = Date.UTC(2045, 0, 1); // no partition: its rows are in the default partition
    const up = (time: number, rawDistance: number): Pending => ({ deviceKey: s.deviceKey, up: uplinkSchema.parse({ serial: s.serial, measurements: [{ time, rawDistance }] }), now: time });
    for (let i = 0; i < 5; i++) await db.tx((q) => writeBatch(q, [up(month + i * 60_000, 2000)])); // level 1000, committed
    const other = await openDb({ databaseUrl: db.url! });
    const blocker = new pg.Client({ connectionString: db.url! });
    await blocker.connect();
    const waiting = async (n: number) => {
      for (let t = 0; t < 500; t++) {
        const [{ k }] = await db.query<{ k: number }>(`SELECT count(*)::int AS k FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        if (k >= n) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error(`never ${n} waiting`);
    };
    try {
      // hold the job inside its transaction: rows moved, ATTACH waiting (its foreign key needs SHARE ROW EXCLUSIVE on sensors)
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE sensors IN ROW EXCLUSIVE MODE');
      const job = other.tx((q) => ensureMonths(q, month, month, month));
      await waiting(1);
      // the 6th uplink, a rise of 600 within the hour, while the job is in its transaction
      const batch = db.tx((q) => writeBatch(q, [up(month + 5 * 60_000, 1400)]));
      await waiting(2);
      await blocker.query('COMMIT');
      await job;
      const [r] = await batch;
      expect(r).not.toBeInstanceOf(Error);
    } finally {
      await blocker.end();
      await other.close();
    }
    expect((await listPartitions(db)).map((p) => p.name)).toContain('measurements_y2045m01');
    expect(await db.query('SELECT type, meta FROM notifications WHERE sensor_id = $1', [s.id])).toMatchObject([{ type: 'DELTA_ALARM', meta: { delta: 600 } }]);
  });
});
