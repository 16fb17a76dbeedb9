import { Hono } from 'hono';
import type { AppContext } from '../context';
import { requireMember, type GatewayEnv } from '../http/auth';
import type { SensorNotification } from '../../src/contract/notification.schema';

/** Cleared and endless notifications older than this drop off the page; open ones stay however old. */
export const NOTIFICATION_WINDOW_MS = 90 * 24 * 3600_000;
export const NOTIFICATION_LIMIT = 200;

interface NotificationRow {
  id: string;
  sensor_id: string;
  type: SensorNotification['meta']['type'];
  start_time: number;
  end_time: number | null;
  endless: boolean;
  meta: Partial<SensorNotification['meta']>;
}

export const toNotification = (row: NotificationRow): SensorNotification => ({
  id: row.id,
  sensorId: row.sensor_id,
  startTime: row.start_time,
  endTime: row.end_time,
  endless: row.endless,
  meta: { ...row.meta, type: row.type },
});

export function notificationRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // Notifications of the organisation's own sensors: every open one, plus the last 90 days, newest first.
  r.get('/organisations/:orgId/notifications', async (c) => {
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId);
    const since = ctx.now() - NOTIFICATION_WINDOW_MS;
    const rows = await ctx.db.query<NotificationRow>(
      `SELECT n.id, n.sensor_id, n.type, n.start_time, n.end_time, n.endless, n.meta
       FROM notifications n JOIN sensors s ON s.id = n.sensor_id AND s.org_id = n.org_id
       WHERE n.org_id = $1 AND ((n.end_time IS NULL AND NOT n.endless) OR n.start_time >= $2 OR n.end_time >= $2)
       ORDER BY n.start_time DESC, n.id LIMIT $3`,
      [orgId, since, NOTIFICATION_LIMIT],
    );
    return c.json({ notifications: rows.map(toNotification) });
  });

  return r;
}
