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
  result: { downlinks: Downlink[]; changedTasks: TaskRow[]; latest: Record<string, unknown> };
}

/**
 * The downlink side of a batch, as uplinks one after another would leave it (the remote-task
 * lifecycle of server/tasks/lifecycle.ts): each uplink settles the tasks it reports, then collects
 * its sensor's oldest queued task when none is outstanding. One query finds the sensors of the
 * batch that have any task in flight; only their uplinks (and uplinks that report a task) take
 * the per-uplink path, so the common uplink costs nothing here.
 */
export async function settleDownlinks(q: Queryable, entries: Entry[]) {
  const sensors = [...new Set(entries.map((e) => e.sensorId))];
  const busy = new Set(
    (
      await q.query<{ sensor_id: string }>(
        `SELECT DISTINCT sensor_id FROM downlink_tasks WHERE sensor_id = ANY($1::uuid[]) AND status IN ('Created', 'Dispatched')`,
        [sensors],
      )
    ).map((r) => r.sensor_id),
  );
  for (const e of entries) {
    if (busy.has(e.sensorId) || e.up.appliedTasks.length) {
      const got = await settleAndDispatch(q, e.sensorId, e.up.appliedTasks, e.now);
      e.result.downlinks.push(...got.downlinks);
      e.result.changedTasks.push(...got.changed);
      if (got.requested) e.result.latest.lastDownlinkRequestAt = e.now;
    }
    // a radar device reports its settings (after a boot): after its tasks' results, the device's word is the newest
    if (e.up.radarSettings) await saveRadarSettings(q, e.sensorId, e.up.radarSettings, 'device', null, e.now);
  }
}
