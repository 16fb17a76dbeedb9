import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import { topics } from '../broker/publisher';
import { toSensor, type SensorDbRow } from '../gateway/sensors.routes';
import type { DownlinkTask, LiveTaskMessage } from '../../src/contract/downlink-task.schema';

/**
 * The remote-task lifecycle on the server (sensor-setup 4, DESIGN.md "Sensor setup"):
 * Created -> Dispatched (the device's uplink collects the oldest, one at a time) -> Success | Error
 * (the device's report) | Timeout (3 days after dispatch); Created -> Canceled (PATCH).
 * Every transition runs inside a transaction that holds the sensor's row lock, so transitions of
 * one sensor's tasks are serialised (a cancel and a dispatch of the same task: exactly one wins),
 * and its effects (the sensor's new settings, pendingConfig cleared) commit with it.
 */

export const TIMEOUT_MS = 3 * 24 * 3_600_000;

export interface TaskRow {
  id: string;
  sensor_id: string;
  type: DownlinkTask['type'];
  params: Record<string, unknown>;
  status: DownlinkTask['status'];
  created_at: number;
  dispatched_at: number | null;
  ended_at: number | null;
  failure_reason?: string | null;
}

export const toTask = (r: TaskRow): DownlinkTask => ({
  id: r.id,
  sensorId: r.sensor_id,
  type: r.type,
  params: r.params,
  status: r.status,
  createdAt: r.created_at,
  dispatchedAt: r.dispatched_at,
  endedAt: r.ended_at,
  ...(r.failure_reason ? { reason: r.failure_reason } : {}),
});

const TASK_COLUMNS = 'id, sensor_id, type, params, status, created_at, dispatched_at, ended_at, failure_reason';

/** Locks the sensor's row: every task transition of the sensor takes this lock first. */
export async function lockSensor(q: Queryable, sensorId: string): Promise<SensorDbRow | undefined> {
  return (await q.query<SensorDbRow>('SELECT * FROM sensors WHERE id = $1 FOR UPDATE', [sensorId]))[0];
}

export async function queuedTasks(q: Queryable, sensorId: string): Promise<TaskRow[]> {
  return q.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM downlink_tasks WHERE sensor_id = $1 AND status IN ('Created', 'Dispatched') ORDER BY created_at, seq`, [sensorId]);
}

/** Writes what a successful task changed on the device into the sensor (config, alarm slot, range, bounds filter). */
async function applySuccess(q: Queryable, t: TaskRow) {
  const p = t.params;
  switch (t.type) {
    case 'SensorConfig': {
      const mi = Number(p.measurementInterval);
      const config = { measurementInterval: mi, transmissionInterval: mi * Number(p.measurementsPerTransmission), deltaCompressionEnabled: !!p.deltaCompressionEnabled };
      await q.query(
        `UPDATE sensors SET config = config || $2::jsonb, bounds_filter = bounds_filter || jsonb_build_object('maxGradient', $3::numeric) WHERE id = $1`,
        [t.sensor_id, JSON.stringify(config), Number(p.maxGradient)],
      );
      break;
    }
    case 'AlarmConfig':
      await q.query(`UPDATE sensors SET alarms = alarms || jsonb_build_object($2::text, $3::jsonb) WHERE id = $1`, [t.sensor_id, String(p.index), JSON.stringify(p.value)]);
      break;
    case 'ExtendedConfig':
      await q.query(`UPDATE sensors SET config = config || jsonb_build_object('txCountOnAlarm', $2::int), range_config = $3::jsonb WHERE id = $1`, [
        t.sensor_id,
        Number(p.txCountOnAlarm),
        JSON.stringify({ enabled: !!p.userRangeEnabled, min: p.userRangeMin, max: p.userRangeMax }),
      ]);
      break;
    case 'TransmissionConfig':
      await q.query(`UPDATE sensors SET config = config || $2::jsonb WHERE id = $1`, [
        t.sensor_id,
        JSON.stringify({ additionalRadarDataEnabled: !!p.additionalRadarDataEnabled, startingLevelMm: p.startingLevelMm ?? null }),
      ]);
      break;
    case 'FullRadarConfig':
      await saveRadarSettings(q, t.sensor_id, p, 'task', t.id, t.ended_at ?? 0);
      break;
    default:
      // firmware: the device reboots and reports its new boot info
      break;
  }
}

/** The radar settings the sensor runs with (migration 013): the latest of a successful FullRadarConfig task and the device's own report. */
export async function saveRadarSettings(q: Queryable, sensorId: string, settings: Record<string, unknown>, source: 'task' | 'device', taskId: string | null, now: number) {
  const s = { ...settings };
  if (typeof s.startDistance === 'number' && typeof s.endDistance === 'number' && s.length === undefined) {
    s.length = Math.round((s.endDistance - s.startDistance) * 1000) / 1000;
  }
  await q.query(
    `INSERT INTO sensor_radar_settings (sensor_id, settings, source, task_id, updated_at) VALUES ($1, $2::jsonb, $3, $4, $5)
     ON CONFLICT (sensor_id) DO UPDATE SET settings = EXCLUDED.settings, source = EXCLUDED.source, task_id = EXCLUDED.task_id, updated_at = EXCLUDED.updated_at
     WHERE sensor_radar_settings.updated_at <= EXCLUDED.updated_at`,
    [sensorId, JSON.stringify(s), source, taskId, now],
  );
}

/** pendingConfig goes once no SensorConfig or ExtendedConfig task is queued any more. */
export async function clearPendingIfDone(q: Queryable, sensorId: string) {
  await q.query(
    `UPDATE sensors SET pending_config = NULL WHERE id = $1 AND pending_config IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM downlink_tasks WHERE sensor_id = $1 AND type IN ('SensorConfig', 'ExtendedConfig') AND status IN ('Created', 'Dispatched'))`,
    [sensorId],
  );
}

/** Dispatched -> Success | Error from the device's report; anything else reported is ignored (a repeat, a stranger). */
export async function completeTask(q: Queryable, sensorId: string, taskId: string, ok: boolean, now: number, reason?: string): Promise<TaskRow | undefined> {
  const [t] = await q.query<TaskRow>(
    `UPDATE downlink_tasks SET status = $3, ended_at = $4, failure_reason = $5 WHERE id = $1 AND sensor_id = $2 AND status = 'Dispatched' RETURNING ${TASK_COLUMNS}`,
    [taskId, sensorId, ok ? 'Success' : 'Error', now, ok ? null : reason?.trim() || null],
  );
  if (!t) return undefined;
  if (ok) await applySuccess(q, t);
  await clearPendingIfDone(q, sensorId);
  return t;
}

/**
 * An uplink's part (inside the ingest transaction, sensor row locked): settles the reported tasks,
 * then hands the device the oldest Created task when none is outstanding. Returns the downlinks
 * for the device and the tasks that changed. `mode` (ingest/uplink.ts IngestOptions.downlinks):
 * 'none' only settles; 'resend' hands out the task already outstanding again when there is one
 * (a Sigfox device asked for a downlink again: its callback was retried, or the last one was lost).
 */
export async function settleAndDispatch(q: Queryable, sensorId: string, reported: { id: string; ok: boolean; reason?: string }[], now: number, mode: 'collect' | 'none' | 'resend' = 'collect') {
  const changed: TaskRow[] = [];
  for (const r of reported) {
    const t = await completeTask(q, sensorId, r.id, r.ok, now, r.reason);
    if (t) changed.push(t);
  }
  if (mode === 'none') return { downlinks: [], changed, requested: false };
  if (mode === 'resend') {
    const [out] = await q.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM downlink_tasks WHERE sensor_id = $1 AND status = 'Dispatched' ORDER BY dispatched_at LIMIT 1`, [sensorId]);
    if (out) return { downlinks: [{ id: out.id, type: out.type, params: out.params }], changed, requested: true };
  }
  const [next] = await q.query<TaskRow>(
    `UPDATE downlink_tasks SET status = 'Dispatched', dispatched_at = $2
     WHERE id = (SELECT id FROM downlink_tasks WHERE sensor_id = $1 AND status = 'Created'
                 AND NOT EXISTS (SELECT 1 FROM downlink_tasks WHERE sensor_id = $1 AND status = 'Dispatched')
                 ORDER BY created_at, seq LIMIT 1)
     RETURNING ${TASK_COLUMNS}`,
    [sensorId, now],
  );
  if (next) changed.push(next);
  return { downlinks: next ? [{ id: next.id, type: next.type, params: next.params }] : [], changed, requested: changed.length > 0 };
}

/** Created -> Canceled. Answers the task as it is after (unchanged when it was no longer Created). */
export async function cancelTask(q: Queryable, sensorId: string, taskId: string, now: number): Promise<{ task: TaskRow | undefined; canceled: boolean }> {
  const [t] = await q.query<TaskRow>(
    `UPDATE downlink_tasks SET status = 'Canceled', ended_at = $3 WHERE id = $1 AND sensor_id = $2 AND status = 'Created' RETURNING ${TASK_COLUMNS}`,
    [taskId, sensorId, now],
  );
  if (t) {
    await clearPendingIfDone(q, sensorId);
    return { task: t, canceled: true };
  }
  const [cur] = await q.query<TaskRow>(`SELECT ${TASK_COLUMNS} FROM downlink_tasks WHERE id = $1 AND sensor_id = $2`, [taskId, sensorId]);
  return { task: cur, canceled: false };
}

/** Dispatched for 3 days without a report -> Timeout (one sensor, under its lock). */
export async function timeoutTasks(q: Queryable, sensorId: string, now: number): Promise<TaskRow[]> {
  const rows = await q.query<TaskRow>(
    `UPDATE downlink_tasks SET status = 'Timeout', ended_at = $2 WHERE sensor_id = $1 AND status = 'Dispatched' AND dispatched_at <= $3 RETURNING ${TASK_COLUMNS}`,
    [sensorId, now, now - TIMEOUT_MS],
  );
  if (rows.length) await clearPendingIfDone(q, sensorId);
  return rows;
}

/** After commit: each changed task goes live with the sensor as it now is (best effort; clients reload what they miss). */
export async function publishTasks(ctx: AppContext, sensorId: string, tasks: TaskRow[]) {
  if (!tasks.length) return;
  const [row] = await ctx.db.query<SensorDbRow>('SELECT * FROM sensors WHERE id = $1', [sensorId]);
  if (!row?.org_id) return;
  const sensor = toSensor(row);
  for (const t of tasks) {
    // every member of the organisation hears this topic: FullRadarConfig params are site-admin detail
    // (sensor-setup 6), read through the task list by those who may see them
    const task = t.type === 'FullRadarConfig' ? { ...toTask(t), params: {} } : toTask(t);
    const msg: LiveTaskMessage = { sensorId, serial: row.serial, task, sensor };
    await ctx.publisher.publish(topics.downlinkTasks(row.org_id, sensorId), msg).catch((err) => ctx.log.warn({ err }, 'publish failed'));
  }
}
