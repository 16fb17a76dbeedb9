import type { Queryable } from '../db/db';
import type { Uplink } from '../../src/contract/uplink.schema';
import { completeTask, type TaskRow } from '../tasks/lifecycle';

export interface Downlink {
  id: string;
  type: string;
  params: Record<string, unknown>;
}

interface Entry {
  sensorId: string;
  up: Uplink;
  now: number;
  result: { downlinks: Downlink[]; tasks: TaskRow[] };
}

type Applied = { id: string; sid: string; ok: boolean; now: number; entry: Entry };

/**
 * The downlink side of a batch, as uplinks one after another would leave it (sensor-setup 4,
 * DESIGN.md "Task lifecycle"): each uplink first settles the tasks it applied (Dispatched becomes
 * Success or Error; Success writes the params into the sensor and pendingConfig may clear), then
 * the device collects the oldest Created task if none is outstanding: one task at a time, in
 * creation order. Only a sensor's first uplink of the batch can collect one (the sensor rows are
 * locked, so none is added meanwhile and a later uplink finds the one just dispatched
 * outstanding), so the batch runs: tasks applied by first uplinks, one dispatch statement for all
 * sensors, tasks applied by the later uplinks. Reports are rare; the dispatch is one statement.
 */
export async function settleDownlinks(q: Queryable, entries: Entry[]) {
  const first = new Map<string, Entry>();
  const early: Applied[] = [];
  const late: Applied[] = [];
  for (const e of entries) {
    const isFirst = !first.has(e.sensorId);
    if (isFirst) first.set(e.sensorId, e);
    for (const t of e.up.appliedTasks) (isFirst ? early : late).push({ id: t.id, sid: e.sensorId, ok: t.ok, now: e.now, entry: e });
  }
  await settle(q, early);
  const due = await q.query<TaskRow>(
    `UPDATE downlink_tasks d SET status = 'Dispatched', dispatched_at = pick.now
     FROM (SELECT DISTINCT ON (t.sensor_id) t.id, u.now
           FROM unnest($1::uuid[], $2::bigint[]) AS u(sid, now)
           JOIN downlink_tasks t ON t.sensor_id = u.sid AND t.status = 'Created'
           WHERE NOT EXISTS (SELECT 1 FROM downlink_tasks x WHERE x.sensor_id = u.sid AND x.status = 'Dispatched')
           ORDER BY t.sensor_id, t.created_at, t.seq) AS pick
     WHERE d.id = pick.id
     RETURNING d.id, d.sensor_id, d.type, d.params, d.status, d.created_at, d.dispatched_at, d.ended_at`,
    [[...first.keys()], [...first.values()].map((e) => e.now)],
  );
  for (const t of due) {
    const e = first.get(t.sensor_id)!;
    e.result.downlinks.push({ id: t.id, type: t.type, params: t.params });
    e.result.tasks.push(t);
  }
  await settle(q, late);
}

/** Settles reported tasks in order; a task named twice is settled by its first mention (the second finds it done). */
async function settle(q: Queryable, applied: Applied[]) {
  for (const a of applied) {
    const t = await completeTask(q, a.sid, a.id, a.ok, a.now);
    if (t) a.entry.result.tasks.push(t);
  }
}
