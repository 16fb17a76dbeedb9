import type { AppContext } from '../context';
import type { Queryable } from '../db/db';
import type { Uplink } from '../../src/contract/uplink.schema';
import type { SensorRow } from '../ingest/uplink';

export interface AlarmOutcome {
  alertAsserted: boolean;
  /** Notifications opened or closed by this uplink, for live fan-out after commit. */
  changed: unknown[];
}

/** Runs the alarm rules for one uplink inside its transaction. (Filled in by the live-data work.) */
export async function evaluateUplink(
  _ctx: AppContext,
  q: Queryable,
  sensor: SensorRow,
  _up: Uplink,
  _stored: { time: number; raw_distance: number }[],
  _latest: Record<string, unknown>,
  _now: number,
): Promise<AlarmOutcome> {
  const open = await q.query('SELECT 1 FROM notifications WHERE sensor_id = $1 AND end_time IS NULL AND endless = false LIMIT 1', [sensor.id]);
  return { alertAsserted: open.length > 0, changed: [] };
}
