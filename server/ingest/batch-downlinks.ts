import type { Queryable } from '../db/db';
import type { Uplink } from '../../src/contract/uplink.schema';
import { saveRadarSettings, settleAndDispatch, type TaskRow } from '../tasks/lifecycle';

export interface Downlink {
  id: string;
  type: string;
  params: Record<string, unknown>;
}

interface Entry {
  sensorId: string;
  up: Uplink;
  now: number;
  downlinks: 'collect' | 'none' | 'resend';
  result: { downlinks: Downlink[]; changedTasks: TaskRow[]; latest: Record<string, unknown> };
}

/**
 * The sensors of `$n` (a uuid[] parameter) with any task in flight, as a JSON column `busy`
 * (null for none), read by the batch's one statement of reads (batch-write.ts).
 */
export const busySensorsColumn = (n: number) =>
  `(SELECT json_agg(DISTINCT sensor_id) FROM downlink_tasks WHERE sensor_id = ANY($${n}::uuid[]) AND status IN ('Created', 'Dispatched')) AS busy`;

/**
 * The downlink side of a batch, as uplinks one after another would leave it (the remote-task
 * lifecycle of server/tasks/lifecycle.ts): each uplink settles the tasks it reports, then collects
 * its sensor's oldest queued task when none is outstanding. The batch's reads found the sensors
 * that have any task in flight (`busy`, busySensorsColumn); only their uplinks (and uplinks that
 * report a task) take the per-uplink path, so the common uplink costs nothing here.
 */
export async function settleDownlinks(q: Queryable, entries: Entry[], busy: Set<string>) {
  for (const e of entries) {
    if (busy.has(e.sensorId) || e.up.appliedTasks.length) {
      const got = await settleAndDispatch(q, e.sensorId, e.up.appliedTasks, e.now, e.downlinks);
      e.result.downlinks.push(...got.downlinks);
      e.result.changedTasks.push(...got.changed);
      if (got.requested) e.result.latest.lastDownlinkRequestAt = e.now;
    }
    // a radar device reports its settings (after a boot): after its tasks' results, the device's word is the newest
    if (e.up.radarSettings) await saveRadarSettings(q, e.sensorId, e.up.radarSettings, 'device', null, e.now);
  }
}
