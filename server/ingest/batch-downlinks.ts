import type { Queryable } from '../db/db';
import type { Uplink } from '../../src/contract/uplink.schema';

export interface Downlink {
  id: string;
  type: string;
  params: Record<string, unknown>;
}

interface Entry {
  sensorId: string;
  up: Uplink;
  now: number;
  result: { downlinks: Downlink[] };
}

type Applied = { id: string; sid: string; ok: boolean; now: number };

/**
 * The downlink side of a batch, as uplinks one after another would leave it: each uplink first
 * settles the tasks it applied (Dispatched becomes Success or Error), then takes the sensor's
 * queued ones (Created becomes Dispatched), in creation order. Only a sensor's first uplink of the
 * batch can find queued tasks (the sensor row is locked, so none are added meanwhile), so the
 * batch runs: tasks applied by first uplinks, one dispatch for all sensors, tasks applied by the
 * later uplinks (which may be the ones just dispatched).
 */
export async function settleDownlinks(q: Queryable, entries: Entry[]) {
  const first = new Map<string, Entry>();
  const early: Applied[] = [];
  const late: Applied[] = [];
  for (const e of entries) {
    const isFirst = !first.has(e.sensorId);
    if (isFirst) first.set(e.sensorId, e);
    for (const t of e.up.appliedTasks) (isFirst ? early : late).push({ id: t.id, sid: e.sensorId, ok: t.ok, now: e.now });
  }
  await settle(q, early);
  const due = await q.query<Downlink & { sensor_id: string }>(
    `UPDATE downlink_tasks d SET status = 'Dispatched', dispatched_at = u.now
     FROM unnest($1::uuid[], $2::bigint[]) AS u(sid, now)
     WHERE d.sensor_id = u.sid AND d.status = 'Created'
     RETURNING d.sensor_id, d.id, d.type, d.params, d.created_at`,
    [[...first.keys()], [...first.values()].map((e) => e.now)],
  );
  (due as (Downlink & { sensor_id: string; created_at: number })[]).sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  for (const { sensor_id, id, type, params } of due) first.get(sensor_id)!.result.downlinks.push({ id, type, params });
  await settle(q, late);
}

/** Marks applied tasks; a task named twice is settled by its first mention (the second finds it done). */
async function settle(q: Queryable, applied: Applied[]) {
  const seen = new Set<string>();
  const once = applied.filter((a) => !seen.has(`${a.id}/${a.sid}`) && !!seen.add(`${a.id}/${a.sid}`));
  if (!once.length) return;
  await q.query(
    `UPDATE downlink_tasks d SET status = CASE WHEN u.ok THEN 'Success' ELSE 'Error' END, ended_at = u.now
     FROM unnest($1::uuid[], $2::uuid[], $3::bool[], $4::bigint[]) AS u(id, sid, ok, now)
     WHERE d.id = u.id AND d.sensor_id = u.sid AND d.status = 'Dispatched'`,
    [once.map((a) => a.id), once.map((a) => a.sid), once.map((a) => a.ok), once.map((a) => a.now)],
  );
}
