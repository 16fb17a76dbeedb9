import type { AppContext } from '../context';
import { topics } from '../broker/publisher';
import type { SensorRow } from '../ingest/uplink';
import { openNotification } from '../alarms/notifications';
import type { LiveNotificationMessage } from '../../src/contract/live.schema';
import { periodicJob, type PeriodicJob } from './periodic';

/** A sensor is offline once it has missed its schedule by this many transmission intervals. */
export const OFFLINE_AFTER_INTERVALS = 2.5;
const DEFAULT_TRANSMISSION_MIN = 30;

/**
 * Finds sensors that missed their transmission schedule (now - lastSeen > 2.5 x interval),
 * asserts offline in their latest data and opens SENSOR_OFFLINE; the next uplink clears both
 * (see the alarm engine). Sensors with the scheduler off are never offline: they do not transmit
 * on a schedule. Safe to run in several processes: each sensor is re-checked under its row lock.
 */
export function createOfflineScheduler(ctx: AppContext, opts: { now?: () => number; intervalMs?: number } = {}): PeriodicJob {
  const now = opts.now ?? ctx.now;

  const overdue = `org_id IS NOT NULL AND latest_data ? 'lastSeen'
    AND COALESCE((config->>'schedulerEnabled')::boolean, true)
    AND NOT COALESCE((latest_data->>'offlineAsserted')::boolean, false)
    AND (latest_data->>'lastSeen')::bigint < $1 - ${OFFLINE_AFTER_INTERVALS} * 60000 * COALESCE(NULLIF(config->>'transmissionInterval', '')::numeric, ${DEFAULT_TRANSMISSION_MIN})`;

  async function markOffline(id: string, t: number) {
    const res = await ctx.db.tx(async (q) => {
      const sensor = (await q.query<SensorRow>(`SELECT * FROM sensors WHERE id = $2 AND ${overdue} FOR UPDATE`, [t, id]))[0];
      if (!sensor?.org_id) return undefined; // an uplink arrived meanwhile
      const latest = { ...(sensor.latest_data ?? {}), offlineAsserted: true };
      await q.query('UPDATE sensors SET latest_data = $2 WHERE id = $1', [id, JSON.stringify(latest)]);
      const msg = await openNotification(q, { ...sensor, org_id: sensor.org_id }, 'offline', { type: 'SENSOR_OFFLINE' }, t, t);
      return { sensor, latest, msg };
    });
    if (!res) return false;
    const orgId = res.sensor.org_id!;
    const publish = (topic: string, payload: unknown) => ctx.publisher.publish(topic, payload).catch((err) => ctx.log.warn({ err }, 'publish failed'));
    await publish(topics.sensor(orgId, id), { sensorId: id, serial: res.sensor.serial, latestData: res.latest });
    if (res.msg) await publish(topics.notifications(orgId), res.msg satisfies LiveNotificationMessage);
    return true;
  }

  /** One pass over all sensors; resolves with how many went offline. */
  async function pass(): Promise<number> {
    const t = now();
    const rows = await ctx.db.query<{ id: string }>(`SELECT id FROM sensors WHERE ${overdue}`, [t]);
    let n = 0;
    for (const r of rows) if (await markOffline(r.id, t)) n++;
    return n;
  }
  return periodicJob(ctx, 'offline check', pass, opts.intervalMs);
}
