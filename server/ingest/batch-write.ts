import type { Queryable, TxQueryable } from '../db/db';
import { together } from '../db/together';
import { prepared } from '../db/prepared';
import type { Uplink } from '../../src/contract/uplink.schema';
import type { LiveNotificationMessage } from '../../src/contract/live.schema';
import { HttpError } from '../http/errors';
import { ALARM_WINDOW_MS } from '../alarms/rules';
import { needsWindow, newestOf, planAlarms } from '../alarms/engine';
import type { OpenRow } from '../alarms/notifications';
import { AlarmWrites } from './batch-alarms';
import { PARTITION_LOCK } from '../db/measurement-partitions';
import { hashDeviceKey, nextLatestData, type Point, type SensorRow } from './uplink-rules';
import { busySensorsColumn, settleDownlinks, type Downlink } from './batch-downlinks';
import { alertAudienceColumns, alertAudienceOf, type AlertAudience } from '../delivery/alerts';
import { insertOutboxRows, outboxRowsJson } from '../delivery/outbox';
import type { TaskRow } from '../tasks/lifecycle';

/** One uplink waiting for its batch: who sent it and when it arrived. */
export interface Pending {
  deviceKey: string | undefined;
  /** Authenticated by the organisation's network secret instead of a device key (ingest/uplink.ts IngestOptions). */
  orgId?: string;
  /** How the device takes downlinks (IngestOptions); 'collect' when absent. */
  downlinks?: 'collect' | 'none' | 'resend';
  up: Uplink;
  now: number;
}

/** What one uplink did once its batch committed: enough to acknowledge and publish it. */
export interface Ingested {
  sensor: SensorRow;
  stored: Point[];
  latest: Record<string, unknown>;
  downlinks: Downlink[];
  changed: LiveNotificationMessage[];
  /** Remote tasks this uplink moved (settled or collected), published after commit. */
  changedTasks: TaskRow[];
}

// what ingest reads of a sensor (the row has many more JSON columns the path never looks at)
const SENSOR_COLUMNS = 'id, serial, org_id, name, sensor_type, device_key_hash, config, alarms, display_info, latest_data';

/**
 * The batch's first statement: the partition lock, shared (batches do not wait for each other). The
 * job moves a month's rows out of the default partition and ATTACHes its partition under the
 * exclusive lock; a READ COMMITTED statement that overlaps that transaction is planned with the
 * partitions as they were (the default one only) but runs on a snapshot taken after the job's
 * commit, so it sees the month's rows in neither place: the window read found no earlier point and
 * a rapid-change alarm did not open (tests/server/measurement-partitions.test.ts). Taken first, it
 * holds nothing the job waits for, and the job takes it before any table lock: no deadlock.
 */
const PARTITION_SQL = prepared(`SELECT pg_advisory_xact_lock_shared(${PARTITION_LOCK})`);

/**
 * The batch's sensors, locked in id order: FOR NO KEY UPDATE, as the batch rewrites their data and
 * never their key. That serialises every read-modify-write of a sensor's row (other batches, the
 * offline and task-timeout jobs and the gateway take FOR UPDATE or update the row) and leaves the
 * FOR KEY SHARE of a foreign-key check free: a row that refers to the sensor (a downlink task, a
 * notification) is written meanwhile without waiting, and so cannot deadlock with the batch, in
 * whatever order it refers to several sensors.
 */
const LOCK_SQL = prepared(`SELECT ${SENSOR_COLUMNS} FROM sensors WHERE serial = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE`);

/**
 * Everything the batch reads once its sensors are locked, and its measurements, in one statement
 * (one JSON column each): the measurements stored (`stored`: the insert's RETURNING, duplicates on
 * (sensor, time) left out), and, all as they stood before this batch (the insert's rows are not
 * visible to the rest of its own statement), the 1-hour window of rapid-change alarms (the oldest
 * point of each windowed uplink's hour, `win`), the open notifications of the sensors in
 * organisations (`open`), the sensors with downlink tasks in flight (`busy`), and who their
 * organisations' alert events go to (`orgs`, `members`, `hooks`).
 */
const READ_SQL = prepared(`WITH ins AS (
    INSERT INTO measurements (sensor_id, time, raw_distance, beta_raw_distance)
    SELECT * FROM unnest($7::uuid[], $8::bigint[], $9::real[], $10::real[])
    ON CONFLICT (sensor_id, time) DO NOTHING RETURNING sensor_id, time, raw_distance, beta_raw_distance)
  SELECT
  (SELECT json_agg(json_build_object('sensor_id', sensor_id, 'time', time, 'raw_distance', raw_distance, 'beta_raw_distance', beta_raw_distance)) FROM ins) AS stored,
  (SELECT json_agg(json_build_object('i', u.i, 'time', m.time, 'raw_distance', m.raw_distance)) FROM unnest($1::uuid[], $2::bigint[], $3::int[]) AS u(sid, hi, i)
     CROSS JOIN LATERAL (SELECT time, raw_distance FROM measurements WHERE sensor_id = u.sid AND time >= u.hi - ${ALARM_WINDOW_MS} AND time < u.hi ORDER BY time LIMIT 1) m) AS win,
  (SELECT json_agg(json_build_object('sensor_id', sensor_id, 'id', id, 'type', type, 'condition_key', condition_key, 'start_time', start_time, 'meta', meta))
     FROM notifications WHERE sensor_id = ANY($4::uuid[]) AND end_time IS NULL AND endless = false) AS open,
  ${busySensorsColumn(5)},
  ${alertAudienceColumns(6)}`);

/** The batch's last statement: the error codes, the alert deliveries and the sensors' latest data. */
const FINAL_SQL = prepared(
  `WITH errors AS (INSERT INTO measurement_errors (sensor_id, code, time) SELECT * FROM unnest($2::uuid[], $3::text[], $4::bigint[]) ON CONFLICT DO NOTHING),
   deliveries AS (${insertOutboxRows(5)})
   UPDATE sensors s SET latest_data = u.latest, latest_boot_info = COALESCE(u.boot, s.latest_boot_info)
   FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, latest jsonb, boot jsonb) WHERE s.id = u.id`,
);

// the same answer for an unknown serial and a wrong key: serials are printed on devices
export const refused = () => new HttpError(401, 'INVALID_DEVICE_KEY', 'Unknown sensor or wrong device key.');

/**
 * Writes a batch of uplinks in the caller's transaction with a handful of multi-row statements,
 * with the result each would have had if they had been ingested one after another in arrival
 * order: measurements idempotent on (sensor, time) (the first uplink to carry a time stores it),
 * latest data and alarm rules evaluated per uplink in order, downlinks handed to a sensor's first
 * uplink of the batch. A refused uplink (unknown sensor, wrong key) gets its error and the others
 * go on. The sensor rows are locked in id order, so batches and other writers never deadlock.
 */
export async function writeBatch(q: TxQueryable, items: Pending[]): Promise<(Ingested | Error)[]> {
  const serials = [...new Set(items.map((p) => p.up.serial))];
  // issued together: on PostgreSQL they go out with the BEGIN in one round trip, and run in this order
  const [, rows] = await together(q.query(PARTITION_SQL), q.query<SensorRow>(LOCK_SQL, [serials]));
  const bySerial = new Map(rows.map((s) => [s.serial, s]));
  const results: (Ingested | Error)[] = items.map((p) => {
    const sensor = bySerial.get(p.up.serial);
    const ok = sensor && (p.orgId !== undefined ? sensor.org_id === p.orgId : !!p.deviceKey && hashDeviceKey(p.deviceKey) === sensor.device_key_hash);
    return ok ? { sensor, stored: [], latest: {}, downlinks: [], changed: [], changedTasks: [] } : refused();
  });
  const accepted = items.map((p, i) => ({ p, i, r: results[i] })).filter((x): x is { p: Pending; i: number; r: Ingested } => !(x.r instanceof Error));
  if (!accepted.length) return results;

  // measurements: a (sensor, time) carried twice in the batch belongs to its first uplink
  const owner = new Map<string, number>();
  const ins = { sid: [] as string[], time: [] as number[], d: [] as number[], b: [] as (number | null)[] };
  for (const { p, i, r } of accepted) {
    for (const m of p.up.measurements) {
      const k = `${r.sensor.id}/${m.time}`;
      if (owner.has(k)) continue;
      owner.set(k, i);
      ins.sid.push(r.sensor.id);
      ins.time.push(m.time);
      ins.d.push(m.rawDistance);
      ins.b.push(m.betaRawDistance ?? null);
    }
  }

  // the reads and the measurements' insert, one statement: the window as it stood before this batch
  const windowed = accepted.filter(({ r, p }) => r.sensor.org_id && needsWindow(r.sensor.alarms) && p.up.measurements.length);
  const inOrgs = [...new Set(accepted.filter((x) => x.r.sensor.org_id).map((x) => x.r.sensor.id))];
  const orgIds = [...new Set(accepted.map((x) => x.r.sensor.org_id).filter((id): id is string => !!id))];
  type Read = { stored: (Point & { sensor_id: string })[] | null; win: (Point & { i: number })[] | null; open: (OpenRow & { sensor_id: string })[] | null; busy: string[] | null };
  const read = (
    await q.query<Read & Parameters<typeof alertAudienceOf>[0]>(READ_SQL, [
      windowed.map((x) => x.r.sensor.id),
      windowed.map(({ p }) => Math.max(...p.up.measurements.map((m) => m.time))),
      windowed.map((x) => x.i),
      inOrgs,
      [...new Set(accepted.map((x) => x.r.sensor.id))],
      orgIds,
      ins.sid,
      ins.time,
      ins.d,
      ins.b,
    ])
  )[0];
  const before = new Map<number, Point>();
  for (const f of read.win ?? []) before.set(f.i, { time: f.time, raw_distance: f.raw_distance });
  const audience: AlertAudience = alertAudienceOf(read);
  if (read.stored) {
    const got = new Map(read.stored.map((s) => [`${s.sensor_id}/${s.time}`, s]));
    for (const { p, i, r } of accepted) {
      for (const m of p.up.measurements) {
        const k = `${r.sensor.id}/${m.time}`;
        const s = got.get(k);
        if (s && owner.get(k) === i) {
          r.stored.push({ time: s.time, raw_distance: s.raw_distance, beta_raw_distance: s.beta_raw_distance });
          owner.delete(k); // a time repeated inside one uplink is stored once
        }
      }
    }
  }

  // the open notifications of every sensor of the batch (read above), then the rules per uplink in order
  const open = new Map<string, Map<string, OpenRow>>(inOrgs.map((id) => [id, new Map()]));
  for (const { sensor_id, ...o } of read.open ?? []) open.get(sensor_id)!.set(o.condition_key, o);
  const latestOf = new Map<string, Record<string, unknown>>();
  const bootOf = new Map<string, unknown>();
  const storedSoFar = new Map<string, Point[]>();
  const alarmWrites = new AlarmWrites();
  for (const { p, i, r } of accepted) {
    const sensor = r.sensor;
    const prev = latestOf.get(sensor.id) ?? sensor.latest_data ?? {};
    const latest = nextLatestData(prev, p.up, r.stored, p.now);
    const mine = [...(storedSoFar.get(sensor.id) ?? []), ...r.stored];
    storedSoFar.set(sensor.id, mine);
    latest.alertAsserted = false;
    if (sensor.org_id) {
      const orgSensor = { ...sensor, org_id: sensor.org_id };
      const newest = newestOf(r.stored, latest);
      let windowStart: Point | undefined;
      if (newest && needsWindow(sensor.alarms)) {
        const from = newest.time - ALARM_WINDOW_MS;
        // the window's newest end is the uplink's latest time unless a duplicate hid it: then read it here
        const hi = Math.max(...p.up.measurements.map((m) => m.time));
        const base = hi === newest.time ? before.get(i) : await windowFromDb(q, sensor.id, from, newest.time);
        for (const pt of [...(base ? [base] : []), ...mine]) if (pt.time >= from && pt.time < newest.time && (!windowStart || pt.time < windowStart.time)) windowStart = pt;
      }
      const opened = open.get(sensor.id)!;
      const plan = planAlarms(sensor, p.up, newest, windowStart, opened, p.now);
      alarmWrites.apply(orgSensor, plan, opened, p.now, r.changed);
      latest.alertAsserted = plan.alertAsserted;
    }
    latest.offlineAsserted = false;
    r.latest = latest;
    latestOf.set(sensor.id, latest);
    if (p.up.bootInfo) bootOf.set(sensor.id, p.up.bootInfo);
  }

  // the notifications' writes and the downlinks' do not depend on each other: issued together (one
  // round trip where no uplink reports or collects a task). Before latest data is written:
  // collecting a task stamps lastDownlinkRequestAt into it
  const [deliveries] = await together(
    alarmWrites.write(q, audience),
    settleDownlinks(q, accepted.map(({ p, r }) => ({ sensorId: r.sensor.id, up: p.up, now: p.now, result: r, downlinks: p.downlinks ?? 'collect' })), new Set(read.busy ?? [])),
  );
  for (const { r } of accepted) {
    const last = latestOf.get(r.sensor.id)!;
    const asked = r.latest.lastDownlinkRequestAt;
    if (typeof asked === 'number' && last !== r.latest) last.lastDownlinkRequestAt = Math.max(asked, Number(last.lastDownlinkRequestAt ?? 0));
  }
  const errs = accepted.flatMap(({ p, r }) => p.up.errors.map((e) => [r.sensor.id, e.code, e.time] as const));
  // the batch's last statement goes out with the COMMIT
  q.last(FINAL_SQL, [
    JSON.stringify([...latestOf].map(([id, latest]) => ({ id, latest, boot: bootOf.get(id) ?? null }))),
    errs.map((e) => e[0]),
    errs.map((e) => e[1]),
    errs.map((e) => e[2]),
    outboxRowsJson(deliveries),
  ]);
  return results;
}

async function windowFromDb(q: Queryable, sensorId: string, from: number, to: number) {
  const rows = await q.query<Point>('SELECT time, raw_distance FROM measurements WHERE sensor_id = $1 AND time >= $2 AND time < $3 ORDER BY time LIMIT 1', [sensorId, from, to]);
  return rows[0];
}
