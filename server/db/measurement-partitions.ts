import type { Db, Queryable } from './db';

/**
 * Time partitions of `measurements` (migration 014): one per UTC calendar month, named
 * measurements_yYYYYmMM, bounds in epoch ms, plus measurements_default for any time no month
 * covers. Why months, and why the CLUSTER: ingest appends every sensor's rows in arrival order,
 * so a heap page holds ~120 rows of ~120 different sensors and one sensor's year read through
 * the primary key touches one page per row (525,600 pages for a year of 1-minute data, however
 * small the index walk). Re-ordering a closed month by (sensor_id, time) puts a sensor's month on
 * a few hundred consecutive pages, whatever the fleet size; months keep that rewrite small and
 * let it start a few days after the month ends. A year read is then ~13 short index walks.
 */

/**
 * Advisory lock of the partition moves (migrate 727_001, keys 727_002, seed 727_003): exclusive in
 * a transaction that creates a partition, shared by every ingest batch (server/ingest/batch-write.ts),
 * so no statement of a batch overlaps a move (it would see the moved month's rows nowhere).
 */
export const PARTITION_LOCK = 727_017;
/**
 * The job's own try-lock, taken before PARTITION_LOCK: a second process skips a step instead of
 * waiting. (A try of PARTITION_LOCK itself would fail as long as batches overlap, i.e. forever
 * under steady ingest; waiting for it is short, and new batches queue behind the waiting job.)
 */
const JOB_LOCK = 727_018;
/** Months created ahead of the current one, so an uplink never waits for DDL. */
export const MONTHS_AHEAD = 2;
/**
 * A month is closed (and CLUSTERed) this long after it ends: a device buffers at most a day of
 * measurements while offline, so later rows are rare; a late row after the CLUSTER is just
 * appended (stored, slightly out of order).
 */
export const CLOSE_AFTER_MS = 3 * 86_400_000;
/** Months moved out of the default partition in one pass (each its own transaction). */
const SPLITS_PER_PASS = 24;

export interface MeasurementPartition {
  name: string;
  /** Range bounds in epoch ms; null for the default partition. */
  from: number | null;
  to: number | null;
  /** Whether the partition was CLUSTERed (or filled in order) since it closed. */
  clustered: boolean;
  /** Its primary-key index (the CLUSTER order). */
  pkey: string | null;
}

/** Start of the UTC month that holds `ms`. */
export function monthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start of the month `n` months after the one starting at `start`. */
export function addMonths(start: number, n: number): number {
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
}

export function partitionName(start: number): string {
  const d = new Date(start);
  const y = d.getUTCFullYear();
  if (y < 0 || y > 9999) throw new Error(`no measurements partition for year ${y}`);
  return `measurements_y${String(y).padStart(4, '0')}m${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The partitions of `measurements`, oldest first, default last. */
export async function listPartitions(q: Queryable): Promise<MeasurementPartition[]> {
  const rows = await q.query<{ name: string; bound: string; clustered: boolean | null; pkey: string | null }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound, i.indisclustered AS clustered, i.indexrelid::regclass::text AS pkey
       FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
       LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE h.inhparent = 'measurements'::regclass`,
  );
  return rows
    .map((r) => {
      const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
      return { name: r.name, from: m ? Number(m[1]) : null, to: m ? Number(m[2]) : null, clustered: !!r.clustered, pkey: r.pkey };
    })
    .sort((a, b) => (a.from ?? Infinity) - (b.from ?? Infinity));
}

/**
 * Makes the month starting at `start` a partition of its own, moving any rows the default
 * partition holds for it (sorted by sensor, then time). Call inside a transaction holding
 * PARTITION_LOCK. ATTACH takes only SHARE UPDATE EXCLUSIVE on `measurements` (reads and writes
 * go on; a read whose range the months cover is pruned and never waits) and ACCESS EXCLUSIVE on
 * the default partition (briefly: it holds only strays, except once, during the conversion).
 * Returns how many rows moved, or -1 when the partition already existed.
 */
async function createMonth(q: Queryable, start: number, now: number): Promise<number> {
  const name = partitionName(start);
  const end = addMonths(start, 1);
  const exists = await q.query('SELECT 1 FROM pg_class WHERE relname = $1', [name]);
  if (exists.length) return -1;
  await lockDefault(q);
  await q.query(`CREATE TABLE ${name} (LIKE measurements INCLUDING DEFAULTS)`);
  const [{ n }] = await q.query<{ n: number }>(
    `WITH moved AS (DELETE FROM measurements_default WHERE time >= ${start} AND time < ${end} RETURNING *),
          ins AS (INSERT INTO ${name} SELECT * FROM moved ORDER BY sensor_id, time RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
  );
  // the CHECK lets ATTACH skip scanning the new table for its bound
  await q.query(`ALTER TABLE ${name} ADD CONSTRAINT ${name}_bound CHECK (time >= ${start} AND time < ${end})`);
  await q.query(`ALTER TABLE measurements ATTACH PARTITION ${name} FOR VALUES FROM (${start}) TO (${end})`);
  await q.query(`ALTER TABLE ${name} DROP CONSTRAINT ${name}_bound`);
  // a closed month filled in order needs no CLUSTER: mark it as clustered
  if (end + CLOSE_AFTER_MS <= now) {
    const [{ pkey }] = await q.query<{ pkey: string }>(`SELECT indexrelid::regclass::text AS pkey FROM pg_index WHERE indrelid = '${name}'::regclass AND indisprimary`);
    await q.query(`ALTER TABLE ${name} CLUSTER ON ${pkey}`);
  }
  return n;
}

/**
 * The job's first lock in any transaction that creates a partition, taken at once at the level
 * ATTACH needs (no upgrade later): no row may land in the default partition between the move and
 * the ATTACH. Then ATTACH adds the partition's foreign key, which takes SHARE ROW EXCLUSIVE on
 * `sensors`; an ingest batch updates `sensors` only as its last statement, after all its
 * measurement work, so a batch holding `sensors` never waits for the default partition and the
 * two cannot deadlock. (A sensor deleted at that very moment could: its cascade holds `sensors`
 * and needs every partition; PostgreSQL's deadlock check then aborts one of the two.)
 */
async function lockDefault(q: Queryable) {
  await q.query('LOCK TABLE measurements_default IN ACCESS EXCLUSIVE MODE');
}

/**
 * Ensures every month from `from` to `to` (epoch ms, inclusive) has its partition. Call inside a
 * transaction: it waits for the partition lock (the seed uses it before a bulk load).
 */
export async function ensureMonths(q: Queryable, from: number, to: number, now: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
  for (let m = monthStart(from); m <= to; m = addMonths(m, 1)) await createMonth(q, m, now);
}

/**
 * At start, before the server takes uplinks: the current month and MONTHS_AHEAD months exist, so
 * ingest never races the creation of the month it writes to (a row routed to the default partition
 * while that month is being attached fails the default partition's new constraint). Waits for the
 * lock: processes starting together create each month once. Quick, except the first start after
 * migration 014 on a populated table, which moves the current month's rows out of the old table.
 */
export async function prepareMonths(db: Db, now: number): Promise<void> {
  await db.tx((q) => ensureMonths(q, monthStart(now), addMonths(monthStart(now), MONTHS_AHEAD), now));
}

export interface PartitionPass {
  created: string[];
  moved: number;
  clustered: string[];
  /** True when another process held the lock and this pass did nothing. */
  skipped: boolean;
}

/**
 * One pass of the partition job, safe in any number of processes at once: each step is its own
 * transaction under a try-lock, so a second process skips instead of waiting, and every step
 * re-checks the catalogue under the lock. Steps: (1) the current month and MONTHS_AHEAD months
 * ahead exist; (2) the default partition's rows before that are moved to their months, oldest
 * first (after migration 014 the old table is the default partition: this is its conversion,
 * SPLITS_PER_PASS months per pass); (3) one closed, not yet clustered month is CLUSTERed. Rows
 * of months further ahead stay in the default partition until their month comes near.
 */
export async function partitionPass(db: Db, now: number): Promise<PartitionPass> {
  const out: PartitionPass = { created: [], moved: 0, clustered: [], skipped: false };
  const locked = async <T>(fn: (q: Queryable) => Promise<T>): Promise<T | undefined> =>
    db.tx(async (q) => {
      const [{ ok }] = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [JOB_LOCK]);
      if (!ok) {
        out.skipped = true;
        return undefined;
      }
      await q.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK]);
      return fn(q);
    });
  const note = (start: number, n: number | undefined) => {
    if (n === undefined || n < 0) return;
    out.created.push(partitionName(start));
    out.moved += n;
  };

  const current = monthStart(now);
  const horizon = addMonths(current, MONTHS_AHEAD + 1);
  for (let m = current; m < horizon && !out.skipped; m = addMonths(m, 1)) note(m, await locked((q) => createMonth(q, m, now)));

  for (let i = 0; i < SPLITS_PER_PASS && !out.skipped; i++) {
    const moved = await locked(async (q) => {
      await lockDefault(q);
      const [{ t }] = await q.query<{ t: number | null }>('SELECT min(time) AS t FROM measurements_default WHERE time < $1', [current]);
      if (t === null) return null;
      const start = monthStart(t);
      return { start, n: await createMonth(q, start, now) };
    });
    if (!moved) break;
    note(moved.start, moved.n);
  }

  if (!out.skipped) {
    const done = await locked(async (q) => {
      const due = (await listPartitions(q)).find((p) => p.to !== null && p.to + CLOSE_AFTER_MS <= now && !p.clustered && p.pkey);
      if (!due) return null;
      // ACCESS EXCLUSIVE on this month only, for the rewrite: reads of that month wait (see docs/deployment.md, "The measurements store")
      await q.query(`CLUSTER ${due.name} USING ${due.pkey}`);
      return due.name;
    });
    if (done) out.clustered.push(done);
  }
  return out;
}
