import { sampleAt, type SignalModel } from '../../src/domain/signals';
import type { Queryable } from '../db/db';
import type { DemoSensor } from './demo-sensors';

const MIN = 60_000;

/** A sensor's generated history, column-wise: what the seed inserts and the notifications read. */
export interface History {
  times: Float64Array;
  raw: Int32Array;
  errors: { time: number; code: string }[];
}

/** When a sensor's history ends: the measurement slot of its last transmission. */
export function historyEnd(s: DemoSensor, lastTx: number): number {
  const step = s.measurementInterval * MIN;
  return Math.floor(lastTx / step) * step;
}

/**
 * Generates `count` measurements ending at `end` on the sensor's measurement grid, walking back
 * in time: slots that are errors or outages are skipped (errors recorded), so the count is exact.
 */
export function generateHistory(s: DemoSensor, model: SignalModel, end: number, count: number): History {
  const step = s.measurementInterval * MIN;
  const gaps = (s.gaps ?? []).map((g) => [model.anchor - g.daysAgo * 1440 * MIN, model.anchor - g.daysAgo * 1440 * MIN + g.hours * 60 * MIN]);
  const times = new Float64Array(count);
  const raw = new Int32Array(count);
  const errors: History['errors'] = [];
  let i = count - 1;
  for (let t = end; i >= 0; t -= step) {
    if (gaps.some(([a, b]) => t >= a && t < b)) continue;
    const smp = sampleAt(model, t);
    if (smp.code !== undefined) {
      errors.push({ time: t, code: smp.code });
      continue;
    }
    times[i] = t;
    raw[i] = smp.rawDistance;
    i--;
  }
  errors.reverse();
  return { times, raw, errors };
}

const BATCH = 100_000;

/**
 * Inserts a history in batches of 100k rows. Arrays go as array literals: both drivers pass
 * one text parameter instead of serialising 100k values, which is a third faster on PGlite.
 */
export async function insertHistory(q: Queryable, sensorId: string, h: History): Promise<void> {
  for (let from = 0; from < h.times.length; from += BATCH) {
    const to = Math.min(h.times.length, from + BATCH);
    await q.query(
      `INSERT INTO measurements (sensor_id, time, raw_distance)
       SELECT $1::uuid, t, d FROM unnest($2::bigint[], $3::real[]) AS u(t, d)`,
      [sensorId, `{${h.times.subarray(from, to).join(',')}}`, `{${h.raw.subarray(from, to).join(',')}}`],
    );
  }
  for (let from = 0; from < h.errors.length; from += BATCH) {
    const part = h.errors.slice(from, from + BATCH);
    await q.query(
      `INSERT INTO measurement_errors (sensor_id, code, time) SELECT $1::uuid, c, t FROM unnest($2::text[], $3::bigint[]) AS u(c, t)`,
      [sensorId, part.map((e) => e.code), part.map((e) => e.time)],
    );
  }
}

/**
 * Runs the seed's million-row insert the fast way, inside its transaction: the measurements
 * table is empty, so its primary key is dropped and rebuilt once afterwards (a sorted build
 * beats a million index insertions), and as superuser the per-row foreign-key triggers are
 * skipped (the sensors were inserted just before). Together about twice as fast on PGlite.
 * Any failure rolls the whole transaction back, constraint included.
 */
export async function bulkLoad(q: Queryable, load: () => Promise<void>): Promise<void> {
  const [pk] = await q.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'measurements'::regclass AND contype = 'p'`,
  );
  const empty = (await q.query('SELECT 1 FROM measurements LIMIT 1')).length === 0;
  const superuser = (await q.query<{ su: string }>(`SELECT current_setting('is_superuser') AS su`))[0].su === 'on';
  if (pk && empty) await q.query(`ALTER TABLE measurements DROP CONSTRAINT "${pk.name}"`);
  if (superuser) await q.query('SET LOCAL session_replication_role = replica');
  await load();
  if (superuser) await q.query('SET LOCAL session_replication_role = DEFAULT');
  if (pk && empty) await q.query(`ALTER TABLE measurements ADD CONSTRAINT "${pk.name}" ${pk.def}`);
}
