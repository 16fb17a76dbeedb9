import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db';
import type { SensorNotification } from '../../src/contract/notification.schema';
import type { LiveNotificationMessage } from '../../src/contract/live.schema';
import { enqueueAlertDelivery, type AlertSensor } from '../delivery/alerts';
import type { ConditionMeta } from './rules';

export interface OpenRow {
  id: string;
  type: string;
  condition_key: string;
  start_time: number;
  meta: ConditionMeta;
}

export const toNotification = (r: OpenRow & { sensor_id: string; end_time: number | null; endless?: boolean }): SensorNotification => ({
  id: r.id,
  sensorId: r.sensor_id,
  startTime: r.start_time,
  endTime: r.end_time,
  endless: r.endless ?? false,
  meta: r.meta as SensorNotification['meta'],
});

/**
 * Opens a notification for one condition and queues its "alert triggered" deliveries, in the
 * caller's transaction. Returns undefined when one is already open (the partial unique index
 * notifications_open allows one open notification per sensor and condition).
 */
export async function openNotification(
  q: Queryable,
  sensor: AlertSensor & { org_id: string },
  key: string,
  meta: ConditionMeta,
  at: number,
  now: number,
): Promise<LiveNotificationMessage | undefined> {
  const rows = await q.query<OpenRow & { sensor_id: string; end_time: null }>(
    `INSERT INTO notifications (id, org_id, sensor_id, type, condition_key, start_time, meta, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (sensor_id, condition_key) WHERE end_time IS NULL AND endless = false DO NOTHING
     RETURNING id, sensor_id, type, condition_key, start_time, end_time, meta`,
    [randomUUID(), sensor.org_id, sensor.id, meta.type, key, at, JSON.stringify(meta), now],
  );
  if (!rows[0]) return undefined;
  const notification = toNotification(rows[0]);
  await enqueueAlertDelivery(q, 'alert.triggered', sensor, notification, now);
  return { event: 'opened', serial: sensor.serial, sensorName: sensor.name, notification };
}

/** Closes an open notification with its end time and queues the "alert cleared" deliveries. */
export async function closeNotification(
  q: Queryable,
  sensor: AlertSensor & { org_id: string },
  open: OpenRow,
  at: number,
  now: number,
): Promise<LiveNotificationMessage | undefined> {
  const rows = await q.query<OpenRow & { sensor_id: string; end_time: number }>(
    `UPDATE notifications SET end_time = GREATEST(start_time, $2::bigint) WHERE id = $1 AND end_time IS NULL
     RETURNING id, sensor_id, type, condition_key, start_time, end_time, meta`,
    [open.id, at],
  );
  if (!rows[0]) return undefined;
  const notification = toNotification(rows[0]);
  await enqueueAlertDelivery(q, 'alert.cleared', sensor, notification, now);
  return { event: 'closed', serial: sensor.serial, sensorName: sensor.name, notification };
}

/** The sensor's open (not endless) notifications, keyed by condition. */
export async function openNotifications(q: Queryable, sensorId: string): Promise<Map<string, OpenRow>> {
  const rows = await q.query<OpenRow>(
    'SELECT id, type, condition_key, start_time, meta FROM notifications WHERE sensor_id = $1 AND end_time IS NULL AND endless = false',
    [sensorId],
  );
  return new Map(rows.map((r) => [r.condition_key, r]));
}
