// Benchmark (issue 17): one sensor's year read through the product's own read path
// (readMeasurements, then the endpoint's binary and JSON bodies) with a fleet of 10 sensors and
// one of 10,000, in the partitioned layout (migration 014 plus the partition job's CLUSTER of
// closed months) and in the old unpartitioned one (migrations up to 013), all four databases in
// the same run. Rows are seeded in arrival order (every sensor's reading for one time slot, then
// the next slot), as ingest writes them, with generate_series inside PostgreSQL.
//
// What is measured: (1) heap pages holding a sensor's year (distinct (partition, block) of its
// rows' ctids), the mean over every sensor of the small fleet and over 100 spread through the big
// one's id order (one sensor's count depends on where its rows fall within the pages: the first
// sensor by id starts each CLUSTERed month at a page's start and can fit its month in one page,
// any other straddles two), and all pages the page query touches (EXPLAIN (ANALYZE, BUFFERS): shared hits +
// reads): what a cold cache pays, one random read each, independent of this machine's load;
// (2) warm wall time, minimum (and median) of interleaved runs: the databases fit in RAM here, so
// a cold-cache time would mostly measure the disk of the day, and the machine is shared. Targets:
// with 10,000 sensors the partitioned layout needs <= 1.5x the heap pages and the warm time of 10
// sensors, and >= 10x fewer pages than the old layout. The old layout is reported (no target).
//
// PostgreSQL only (BENCH_DATABASE_URL or TEST_DATABASE_URL); PGlite is one process with small
// data and is not what this is about. Scale with BENCH_STORE_SENSORS (10,000) and
// BENCH_STORE_INTERVAL_MIN (360: a reading every 6 hours, 1,460 rows per sensor-year; 60 gives
// the hourly product rate, 87.6M rows for 10,000 sensors, about 6x the time and disk).
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { median, type BenchRow } from './bench-kit';
import { openDb, type Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { ensureMonths, partitionPass } from '../server/db/measurement-partitions';
import { bulkLoad } from '../server/seed/history';
import { columnsBody, readMeasurements } from '../server/gateway/measurements.routes';
import { measurementQuerySchema } from '../src/contract/measurement.schema';
import { scratchPostgres } from '../tests/server/scratch-postgres';

const BIG = Number(process.env.BENCH_STORE_SENSORS ?? 10_000);
const SMALL = 10;
const INTERVAL_MS = Number(process.env.BENCH_STORE_INTERVAL_MIN ?? 360) * 60_000;
const RUNS = Number(process.env.BENCH_STORE_RUNS ?? 15);
const YEAR = [Date.UTC(2025, 0, 1), Date.UTC(2026, 0, 1)] as const;
/** The partition job runs as if on this day: every month of 2025 is closed (and CLUSTERed). */
const JOB_NOW = Date.UTC(2026, 1, 10);
const TARGET = 1.5;

interface Store {
  label: string;
  partitioned: boolean;
  sensors: number;
  db: Db;
  target: string;
  drop(): Promise<void>;
  /** Every sensor's id. */
  ids: string[];
  rows: number;
  heapBytes: number;
  indexBytes: number;
}

const log = (s: string) => process.stderr.write(`store.bench: ${s}\n`);

async function createStore(adminUrl: string, partitioned: boolean, sensors: number): Promise<Store> {
  const scratch = await scratchPostgres(adminUrl, 'tw_bench_store');
  const db = await openDb({ databaseUrl: scratch.url });
  const started = performance.now();
  await migrate(db, partitioned ? {} : { upTo: '013_radar_settings.sql' });
  const orgId = randomUUID();
  await db.query(`INSERT INTO organisations (id, slug, name, created_at) VALUES ($1, $2, 'Store bench', 0)`, [orgId, `store-${orgId.slice(0, 8)}`]);
  const ids = await db.query<{ id: string }>(
    `INSERT INTO sensors (id, serial, claim_code, device_key_hash, org_id, name, sensor_type, created_at)
     SELECT gen_random_uuid(), lpad(to_hex(g), 8, '0'), gen_random_uuid()::text, 'x', $1, 'S' || g, 'LS1', 0 FROM generate_series(1, $2) g RETURNING id`,
    [orgId, sensors],
  );
  await db.tx(async (q) => {
    await q.query(`SET LOCAL maintenance_work_mem = '256MB'`);
    // the months the job would have created ahead as the year went by
    if (partitioned) await ensureMonths(q, YEAR[0], YEAR[1] - 1, YEAR[0]);
    await bulkLoad(q, async () => {
      // arrival order: every sensor's reading of a slot, then the next slot
      // (one generate_series, so the order cannot depend on a join order the planner picks)
      const slots = Math.ceil((YEAR[1] - YEAR[0]) / INTERVAL_MS);
      await q.query(
        `INSERT INTO measurements (sensor_id, time, raw_distance)
         SELECT ($4::uuid[])[g % $5 + 1], $1::bigint + (g / $5) * $2::bigint, 1000 + (g % 997)::real
           FROM generate_series(0::bigint, $3::bigint * $5 - 1) g`,
        [YEAR[0], INTERVAL_MS, slots, ids.map((r) => r.id), sensors],
      );
    });
  });
  if (partitioned) {
    // the job as it runs hourly once 2025 is over: each pass CLUSTERs one closed month
    const t = performance.now();
    let clustered = 0;
    for (let i = 0; i < 40; i++) {
      const p = await partitionPass(db, JOB_NOW);
      clustered += p.clustered.length;
      if (!p.created.length && !p.clustered.length) break;
    }
    log(`partition job: ${clustered} months CLUSTERed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  await db.query('VACUUM ANALYZE measurements');
  const [size] = await db.query<{ rows: number; heap: number; idx: number }>(
    `SELECT (SELECT count(*) FROM measurements)::bigint AS rows,
            sum(pg_relation_size(c.oid))::bigint AS heap, sum(pg_indexes_size(c.oid))::bigint AS idx
       FROM pg_class c WHERE c.relname = 'measurements' AND c.relkind = 'r' OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'measurements'::regclass)`,
  );
  const label = `${partitioned ? 'partitioned' : 'old layout'}, ${sensors.toLocaleString('en')} sensors`;
  log(`${label}: ${size.rows.toLocaleString('en')} rows seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { label, partitioned, sensors, db, target: ids[ids.length >> 1].id, drop: scratch.drop, ids: ids.map((r) => r.id), rows: size.rows, heapBytes: size.heap, indexBytes: size.idx };
}

const query = measurementQuerySchema.parse({ startTime: String(YEAR[0]), endTime: String(YEAR[1] - 1) });

/** The endpoint's work for one sensor's year: the page (one page: the default limit is 50,000 rows) and its body. */
async function readYear(s: Store, form: 'binary' | 'rows'): Promise<number> {
  const { page, next } = await readMeasurements(s.db, s.target, query, form);
  if (form === 'binary') return columnsBody(page, next).length;
  return `{"measurements":[${page?.j ?? ''}],"next":${next === null ? 'null' : `"${next}"`}}`.length;
}

/** Sensors whose years the heap-page count averages over: all of a small fleet, else this many spread through the id order. */
const PAGE_SAMPLE = 100;

/**
 * Heap pages holding a sensor's year, what the layout decides (a cold read fetches each once):
 * the mean, least and most over the sample (PAGE_SAMPLE sensors evenly spaced in id order, the
 * CLUSTER order, the first one included, so both fleets' samples have the one sensor that starts
 * its months at a page's start).
 */
async function heapPages(s: Store): Promise<{ mean: number; least: number; most: number; sensors: number }> {
  const sorted = [...s.ids].sort();
  const sample = sorted.length <= PAGE_SAMPLE ? sorted : Array.from({ length: PAGE_SAMPLE }, (_, k) => sorted[Math.floor((k * sorted.length) / PAGE_SAMPLE)]);
  const rows = await s.db.query<{ n: number }>(
    `SELECT count(DISTINCT (tableoid, (ctid::text::point)[0]))::int AS n FROM measurements
      WHERE sensor_id = ANY($1::uuid[]) AND time >= $2 AND time <= $3 GROUP BY sensor_id`,
    [sample, query.startTime, query.endTime],
  );
  if (rows.length !== sample.length) throw new Error(`${s.label}: ${rows.length} of the ${sample.length} sampled sensors have readings in the year`);
  const ns = rows.map((r) => r.n);
  return { mean: ns.reduce((a, b) => a + b, 0) / ns.length, least: Math.min(...ns), most: Math.max(...ns), sensors: ns.length };
}

/** Pages the page query touches (shared hits + reads, all plan nodes): a cold cache reads each once. */
async function pagesTouched(s: Store): Promise<number> {
  const [row] = await s.db.query<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT time, raw_distance, beta_raw_distance FROM measurements
      WHERE sensor_id = $1 AND time >= $2 AND time <= $3 ORDER BY time LIMIT 50000`,
    [s.target, query.startTime, query.endTime],
  );
  const plan = row['QUERY PLAN'][0].Plan;
  return plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
}

export async function run(): Promise<BenchRow[]> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.error('store.bench: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to measure the measurements store on PostgreSQL');
    return [];
  }
  const stores: Store[] = [];
  try {
    for (const partitioned of [false, true]) for (const n of [SMALL, BIG]) stores.push(await createStore(adminUrl, partitioned, n));
    const expected = Math.ceil((YEAR[1] - YEAR[0]) / INTERVAL_MS);
    const pages = new Map<Store, number>();
    const heap = new Map<Store, Awaited<ReturnType<typeof heapPages>>>();
    for (const s of stores) {
      heap.set(s, await heapPages(s));
      const rows = (await readMeasurements(s.db, s.target, query, 'binary')).page?.n;
      if (rows !== expected) throw new Error(`${s.label}: the year read ${rows} rows, not ${expected}`);
      pages.set(s, await pagesTouched(s));
    }
    const times = new Map<string, number[]>();
    const key = (s: Store, form: string) => `${s.label}|${form}`;
    for (let i = -2; i < RUNS; i++) {
      for (const s of stores) {
        for (const form of ['binary', 'rows'] as const) {
          const t = performance.now();
          await readYear(s, form);
          const d = performance.now() - t;
          if (i >= 0) times.set(key(s, form), [...(times.get(key(s, form)) ?? []), d]);
        }
      }
    }
    const load = loadavg().map((x) => x.toFixed(2)).join(' ');
    for (const s of stores) {
      log(
        `${s.label}: ${(s.heapBytes / s.rows).toFixed(1)} heap bytes/row, ${(s.indexBytes / s.rows).toFixed(1)} index bytes/row, ` +
          `${heap.get(s)!.mean.toFixed(1)} heap pages hold a sensor's year (mean of ${heap.get(s)!.sensors}, ${heap.get(s)!.least} to ${heap.get(s)!.most}), ${pages.get(s)} pages touched by the read, warm binary ${median(times.get(key(s, 'binary'))!).toFixed(2)} ms, JSON ${median(times.get(key(s, 'rows'))!).toFixed(2)} ms`,
      );
    }
    const rows: BenchRow[] = [];
    const [oldSmall, oldBig, partSmall, partBig] = stores;
    const bytes = (s: Store) => `${((s.heapBytes + s.indexBytes) / s.rows).toFixed(0)} B/row (heap ${(s.heapBytes / s.rows).toFixed(0)} + index ${(s.indexBytes / s.rows).toFixed(0)})`;
    const min = (xs: number[]) => Math.min(...xs);
    for (const [small, big, target] of [
      [partSmall, partBig, { kind: 'cost' as const, value: TARGET }],
      [oldSmall, oldBig, null],
    ] as const) {
      const layout = small.partitioned ? 'partitioned + CLUSTER' : 'old layout (no target; ratio = 10 / 10,000)';
      const what = `year read, ${expected.toLocaleString('en')} rows, ${BIG.toLocaleString('en')} vs ${SMALL} sensors, ${layout}`;
      const note = `${big.rows.toLocaleString('en')} rows, ${bytes(big)}; load ${load}`;
      const [hb, hs] = [heap.get(big)!, heap.get(small)!];
      rows.push({
        bench: '17 store',
        what: `${what}: HEAP PAGES holding a sensor's year, mean of ${hb.sensors} vs all ${hs.sensors} sensors (cold-cache reads; not ms)`,
        ours: hb.mean,
        baseline: hs.mean,
        target,
        note: `${note}; per sensor ${hb.least} to ${hb.most} vs ${hs.least} to ${hs.most}`,
      });
      rows.push({
        bench: '17 store',
        what: `${what}: all PAGES the query touches, index levels included (not ms)`,
        ours: pages.get(big)!,
        baseline: pages.get(small)!,
        target: null,
        note: 'a B-tree level more per month partition with 10,000 sensors (13 month indexes); those inner pages stay cached',
      });
      for (const form of ['binary', 'rows'] as const) {
        const a = times.get(key(big, form))!;
        const b = times.get(key(small, form))!;
        rows.push({
          bench: '17 store',
          what: `${what}: warm, ${form === 'binary' ? 'binary columns' : 'JSON rows'}, minimum of ${RUNS}`,
          ours: min(a),
          baseline: min(b),
          target,
          note: `medians ${median(a).toFixed(2)} vs ${median(b).toFixed(2)} ms; load ${load}`,
        });
      }
    }
    rows.push({
      bench: '17 store',
      what: `year read, ${BIG.toLocaleString('en')} sensors: all PAGES touched, partitioned (ours) vs old layout`,
      ours: pages.get(partBig)!,
      baseline: pages.get(oldBig)!,
      target: { kind: 'speedup', value: 10 },
      note: `heap pages a sensor's year ${heap.get(partBig)!.mean.toFixed(1)} vs ${heap.get(oldBig)!.mean.toFixed(1)} (means); load ${load}`,
    });
    return rows;
  } finally {
    for (const s of stores) await s.db.close().catch(() => undefined);
    for (const s of stores) await s.drop();
  }
}
