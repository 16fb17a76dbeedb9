import { Hono } from 'hono';
import type { AppContext } from '../context';
import { requireMember, type GatewayEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { serverTimer } from '../http/server-timing';
import {
  NOTIFICATION_PAGE_DEFAULT,
  NOTIFICATION_PAGE_MAX,
  NOTIFICATION_STATES,
  NOTIFICATION_TYPES,
  type NotificationQuery,
  type NotificationSensor,
  type NotificationType,
  type SensorNotification,
} from '../../src/contract/notification.schema';
import { UUID_PATTERN } from '../../src/contract/safe-text';
import { NOTIFICATION_PRIORITY } from '../../src/domain/notification-rules';

/** Cleared and endless notifications older than this drop off the page; open ones stay however old. */
export const NOTIFICATION_WINDOW_MS = 90 * 24 * 3600_000;
export const NOTIFICATION_LIMIT = 200;
/** page_order's scale (migration 019): priority × this − start time. */
const PRIORITY_SCALE = 10n ** 16n;

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

const PARAMS = ['type', 'state', 'sensor', 'limit', 'cursor'] as const;

const encodeCursor = (pageOrder: string, id: string) => Buffer.from(`${pageOrder}:${id}`).toString('base64url');
function decodeCursor(cursor: string) {
  const m = /^(-?\d{1,19}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m || !UUID_PATTERN.test(m[2]) || BigInt(m[1]) > 2n ** 63n - 1n || BigInt(m[1]) < -(2n ** 63n)) {
    throw badRequest('INVALID_CURSOR', 'cursor is not one this server gave out; pass the `next` value of the previous page.');
  }
  return { pageOrder: m[1], id: m[2] };
}

/** The paging query, or a 400 naming the parameter and what it accepts; undefined when no paging parameter is sent. */
export function pageQuery(raw: Record<string, string>): NotificationQuery | undefined {
  if (!PARAMS.some((p) => raw[p] !== undefined)) return undefined;
  const q: NotificationQuery = {};
  if (raw.type !== undefined) {
    const types = raw.type.split(',').map((t) => t.trim());
    const bad = types.find((t) => !(NOTIFICATION_TYPES as readonly string[]).includes(t));
    if (bad !== undefined) throw badRequest('INVALID_QUERY', `type must be one or more of ${NOTIFICATION_TYPES.join(', ')}, separated by commas, not "${bad}".`);
    q.type = [...new Set(types as NotificationType[])];
  }
  if (raw.state !== undefined) {
    if (!(NOTIFICATION_STATES as readonly string[]).includes(raw.state)) throw badRequest('INVALID_QUERY', `state must be ${NOTIFICATION_STATES.map((s) => `"${s}"`).join(' or ')}, not "${raw.state}".`);
    q.state = raw.state as NotificationQuery['state'];
  }
  if (raw.sensor !== undefined) {
    if (!UUID_PATTERN.test(raw.sensor)) throw badRequest('INVALID_QUERY', `sensor must be a sensor's id (a UUID), not "${raw.sensor}".`);
    q.sensor = raw.sensor.toLowerCase();
  }
  if (raw.limit !== undefined) {
    const n = /^\d{1,4}$/.test(raw.limit) ? Number(raw.limit) : NaN;
    if (!(n >= 1 && n <= NOTIFICATION_PAGE_MAX)) throw badRequest('INVALID_QUERY', `limit must be a whole number from 1 to ${NOTIFICATION_PAGE_MAX}, not "${raw.limit}".`);
    q.limit = n;
  }
  if (raw.cursor !== undefined) q.cursor = raw.cursor;
  return q;
}

interface PageRow extends NotificationRow {
  page_order: string;
  serial: string;
  name: string;
  measurement_interval: number | null;
}

/**
 * One page in the page's order, read off the notifications_page indexes (migration 019): the
 * organisation's (or the one sensor's) rows from the cursor on, in page_order, until the page is
 * full. A type filter narrows the scan to its priorities' range of page_order.
 */
async function readPage(ctx: AppContext, orgId: string, q: NotificationQuery) {
  const limit = q.limit ?? NOTIFICATION_PAGE_DEFAULT;
  const params: unknown[] = [orgId, ctx.now() - NOTIFICATION_WINDOW_MS, limit + 1];
  const where: string[] = [];
  const arg = (v: unknown) => `$${params.push(v)}`;
  if (q.sensor) where.push(`n.sensor_id = ${arg(q.sensor)}::uuid`);
  if (q.type) {
    const priorities = q.type.map((t) => BigInt(NOTIFICATION_PRIORITY[t]));
    const lo = priorities.reduce((a, b) => (b < a ? b : a));
    const hi = priorities.reduce((a, b) => (b > a ? b : a));
    // within priority p, page_order lies in ((p - 1) × scale, p × scale]
    where.push(`n.page_order > ${arg(String((lo - 1n) * PRIORITY_SCALE))}::bigint AND n.page_order <= ${arg(String(hi * PRIORITY_SCALE))}::bigint`);
    where.push(`n.type = ANY(${arg(q.type)}::text[])`);
  }
  if (q.state === 'open') where.push('n.end_time IS NULL AND n.endless = false');
  if (q.state === 'closed') where.push('(n.end_time IS NOT NULL OR n.endless)');
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push(`(n.page_order, n.id) > (${arg(c.pageOrder)}::bigint, ${arg(c.id)}::uuid)`);
  }
  const rows = await ctx.db.query<PageRow>(
    `SELECT n.id, n.sensor_id, n.type, n.start_time, n.end_time, n.endless, n.meta, n.page_order::text AS page_order,
            s.serial, s.name, (s.config->>'measurementInterval')::float8 AS measurement_interval
     FROM notifications n JOIN sensors s ON s.id = n.sensor_id AND s.org_id = n.org_id
     WHERE n.org_id = $1 AND ((n.end_time IS NULL AND NOT n.endless) OR n.start_time >= $2 OR n.end_time >= $2)
       ${where.map((w) => `AND ${w}`).join(' ')}
     ORDER BY n.page_order, n.id LIMIT $3`,
    params,
  );
  const page = rows.slice(0, limit);
  const sensors: Record<string, NotificationSensor> = {};
  for (const r of page) sensors[r.sensor_id] ??= { serial: r.serial, name: r.name, measurementInterval: r.measurement_interval };
  const last = page[page.length - 1];
  return { notifications: page.map(toNotification), sensors, next: rows.length > limit ? encodeCursor(last.page_order, last.id) : null };
}

export function notificationRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // Notifications of the organisation's own sensors: every open one, plus the last 90 days. With no
  // paging parameter, the spec's list (the newest 200); with any, one page of the page's order.
  r.get('/organisations/:orgId/notifications', async (c) => {
    const orgId = c.req.param('orgId');
    const timer = serverTimer();
    await requireMember(ctx, c, orgId);
    const q = pageQuery(c.req.query());
    timer.mark('auth');
    if (q) {
      const page = await readPage(ctx, orgId, q);
      timer.mark('db');
      timer.set(c);
      return c.json(page);
    }
    const since = ctx.now() - NOTIFICATION_WINDOW_MS;
    const rows = await ctx.db.query<NotificationRow>(
      `SELECT n.id, n.sensor_id, n.type, n.start_time, n.end_time, n.endless, n.meta
       FROM notifications n JOIN sensors s ON s.id = n.sensor_id AND s.org_id = n.org_id
       WHERE n.org_id = $1 AND ((n.end_time IS NULL AND NOT n.endless) OR n.start_time >= $2 OR n.end_time >= $2)
       ORDER BY n.start_time DESC, n.id LIMIT $3`,
      [orgId, since, NOTIFICATION_LIMIT],
    );
    timer.mark('db');
    timer.set(c);
    return c.json({ notifications: rows.map(toNotification) });
  });

  return r;
}
