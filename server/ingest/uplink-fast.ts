import type { Db } from '../db/db';
import type { Uplink } from '../../src/contract/uplink.schema';
import { ALARM_WINDOW_MS } from '../alarms/rules';
import { needsWindow, newestOf, planAlarms } from '../alarms/engine';
import type { OpenRow } from '../alarms/notifications';
import type { SensorRow } from './uplink';

type Point = { time: number; raw_distance: number; beta_raw_distance?: number | null };

export type FastResult =
  | { kind: 'done'; sensor: SensorRow; stored: Point[]; latest: Record<string, unknown> }
  /** The uplink needs the full transaction: an alarm changes, downlinks, errors, or a concurrent change. */
  | { kind: 'slow' }
  | { kind: 'unauthorised' };

/**
 * What the fast path knows of a sensor: its row at a version (xmin), its open notifications, its
 * points of the last hour (for rapid-change alarms) and whether downlinks wait. Every write checks
 * the version, so a stale entry costs a re-read, never a wrong answer.
 */
interface Snapshot {
  sensor: SensorRow;
  version: string;
  open: OpenRow[];
  recent: Point[];
  hasDownlinks: boolean;
  readAt: number;
}

const CACHE_TTL_MS = 15 * 60_000;
const CACHE_MAX = 100_000;
const caches = new WeakMap<Db, Map<string, Snapshot>>();
const cacheOf = (db: Db) => caches.get(db) ?? caches.set(db, new Map()).get(db)!;

/** Drops what the fast path knows of a sensor (the full transaction changed it). */
export const forgetSensor = (db: Db, serial: string) => void caches.get(db)?.delete(serial);

// One read: the row and its version, open notifications, the last hour of points when a
// rapid-change alarm needs them, and whether downlink tasks wait.
const SNAPSHOT = `
SELECT s.*, s.xmin::text AS version,
  COALESCE((SELECT json_agg(json_build_object('id', n.id, 'type', n.type, 'condition_key', n.condition_key, 'start_time', n.start_time, 'meta', n.meta))
            FROM notifications n WHERE n.sensor_id = s.id AND n.end_time IS NULL AND n.endless = false), '[]'::json) AS open_notifications,
  CASE WHEN EXISTS (SELECT 1 FROM jsonb_each(s.alarms) a WHERE a.value->>'enabled' = 'true' AND a.value->>'type' LIKE 'DELTA%') THEN
    COALESCE((SELECT json_agg(json_build_object('time', m.time, 'raw_distance', m.raw_distance) ORDER BY m.time) FROM measurements m
              WHERE m.sensor_id = s.id AND m.time >= COALESCE((s.latest_data->'lastMeasurement'->>'time')::bigint, 0) - ${ALARM_WINDOW_MS}), '[]'::json)
  ELSE '[]'::json END AS recent,
  EXISTS (SELECT 1 FROM downlink_tasks d WHERE d.sensor_id = s.id AND d.status = 'Created') AS has_downlinks
FROM sensors s WHERE s.serial = $1`;

// One write, atomic on its own: the latest data moves only if the row is still at the version
// read, no downlink task was queued and the open notifications are the ones read (neither
// touches the sensor row), and the measurements are inserted only if it moved, so a lost race
// or a stale snapshot writes nothing.
const WRITE = `
WITH upd AS (
  UPDATE sensors SET latest_data = $3::jsonb WHERE id = $1 AND xmin::text = $2
    AND NOT EXISTS (SELECT 1 FROM downlink_tasks d WHERE d.sensor_id = $1 AND d.status = 'Created')
    AND (SELECT count(*) FROM notifications n WHERE n.sensor_id = $1 AND n.end_time IS NULL AND n.endless = false) = $7
  RETURNING xmin::text AS version),
ins AS (
  INSERT INTO measurements (sensor_id, time, raw_distance, beta_raw_distance)
  SELECT $1, t, d, b FROM unnest($4::bigint[], $5::real[], $6::real[]) AS u(t, d, b) WHERE EXISTS (SELECT 1 FROM upd)
  ON CONFLICT (sensor_id, time) DO NOTHING RETURNING time, raw_distance, beta_raw_distance)
SELECT (SELECT version FROM upd) AS version,
  COALESCE((SELECT json_agg(json_build_object('time', time, 'raw_distance', raw_distance, 'beta_raw_distance', beta_raw_distance)) FROM ins), '[]'::json) AS stored`;

async function readSnapshot(db: Db, serial: string): Promise<Snapshot | undefined> {
  type Row = SensorRow & { version: string; open_notifications: OpenRow[]; recent: Point[]; has_downlinks: boolean };
  const row = (await db.query<Row>(SNAPSHOT, [serial]))[0];
  if (!row) return undefined;
  const { version, open_notifications, recent, has_downlinks, ...sensor } = row;
  return { sensor: sensor as SensorRow, version, open: open_notifications, recent, hasDownlinks: has_downlinks, readAt: performance.now() };
}

/**
 * The common uplink without an explicit transaction: one statement when the sensor's snapshot is
 * cached (a device's MQTT connection stays on one process, and one process is the default), two
 * otherwise. Nothing may open or close, no downlink may wait, no error codes or boot info; for
 * anything else, or a concurrent change of the same sensor, it answers 'slow' having written
 * nothing, and the caller runs the full transaction.
 */
export async function tryFastIngest(
  db: Db,
  up: Uplink,
  authorised: (sensor: SensorRow) => boolean,
  nextLatest: (prev: Record<string, unknown>, stored: Point[]) => Record<string, unknown>,
  now: number,
): Promise<FastResult> {
  if (up.errors.length || up.appliedTasks.length || up.bootInfo) return { kind: 'slow' };
  const cache = cacheOf(db);
  const cached = cache.get(up.serial);
  const fresh = cached && performance.now() - cached.readAt < CACHE_TTL_MS ? cached : undefined;
  if (fresh) {
    const r = await attempt(db, fresh, up, authorised, nextLatest, now);
    // a refusal or a lost race may come from a stale entry (a new device key, another process): read again
    if (r.kind === 'done') return r;
    if (r.kind === 'slow' && 'conflict' in r && !r.conflict) return { kind: 'slow' };
  }
  cache.delete(up.serial);
  const snap = await readSnapshot(db, up.serial);
  if (!snap) return { kind: 'unauthorised' };
  const r = await attempt(db, snap, up, authorised, nextLatest, now);
  return r.kind === 'slow' ? { kind: 'slow' } : r;
}

async function attempt(
  db: Db,
  snap: Snapshot,
  up: Uplink,
  authorised: (sensor: SensorRow) => boolean,
  nextLatest: (prev: Record<string, unknown>, stored: Point[]) => Record<string, unknown>,
  now: number,
): Promise<FastResult | { kind: 'slow'; conflict: boolean }> {
  const { sensor } = snap;
  if (!authorised(sensor)) return { kind: 'unauthorised' };
  if (snap.hasDownlinks) return { kind: 'slow', conflict: false };

  // as if every measurement is new: a duplicate is never newer than the sensor's last measurement,
  // so it changes neither the latest data nor the alarm rules
  const assumed = up.measurements.map((m) => ({ time: m.time, raw_distance: m.rawDistance, beta_raw_distance: m.betaRawDistance ?? null }));
  const latest = nextLatest(sensor.latest_data ?? {}, assumed);
  if (sensor.org_id) {
    const newest = newestOf(assumed, latest);
    let windowStart: Point | undefined;
    if (newest && needsWindow(sensor.alarms)) {
      const from = newest.time - ALARM_WINDOW_MS;
      for (const p of [...snap.recent, ...assumed]) if (p.time >= from && p.time < newest.time && (!windowStart || p.time < windowStart.time)) windowStart = p;
    }
    const plan = planAlarms(sensor, up, newest, windowStart, new Map(snap.open.map((o) => [o.condition_key, o])), now);
    if (plan.open.length || plan.close.length) return { kind: 'slow', conflict: false };
    latest.alertAsserted = plan.alertAsserted;
  } else {
    latest.alertAsserted = false;
  }
  latest.offlineAsserted = false;

  const rows = await db.query<{ version: string | null; stored: Point[] }>(WRITE, [
    sensor.id,
    snap.version,
    JSON.stringify(latest),
    assumed.map((m) => m.time),
    assumed.map((m) => m.raw_distance),
    assumed.map((m) => m.beta_raw_distance),
    snap.open.length,
  ]);
  const version = rows[0]?.version;
  if (!version) return { kind: 'slow', conflict: true };

  // the snapshot moves with the write; the last hour of points stays for rapid-change alarms
  const lastTime = (latest.lastMeasurement as { time?: number } | undefined)?.time ?? 0;
  const recent = needsWindow(sensor.alarms) ? [...snap.recent, ...rows[0].stored].filter((p) => p.time >= lastTime - ALARM_WINDOW_MS) : [];
  const cache = cacheOf(db);
  cache.delete(up.serial);
  cache.set(up.serial, { ...snap, sensor: { ...sensor, latest_data: latest }, version, recent });
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return { kind: 'done', sensor, stored: rows[0].stored, latest };
}
