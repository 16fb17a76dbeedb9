import { notificationPageSchema, type NotificationPage, type NotificationType, type SensorNotification } from '../../contract/notification.schema';
import { RECENT_ALERT_MS } from '../../domain/notification-rules';
import { api } from '../../shared/api';

/** One page of GET /organisations/{orgId}/notifications for a query (sensor=, state=, type=, limit=, cursor=). */
export type NotificationPageReader = (query: URLSearchParams) => Promise<NotificationPage>;

/** Rapid-change and movement: shown only while recent, and the only types stored endless (INFO). */
const RECENT_ONLY: readonly NotificationType[] = ['ACCELEROMETER', 'DELTA_ALARM'];
/** A sensor has at most one open notification per condition: one page holds them all. */
const OPEN_PAGE = 200;
const RECENT_PAGE = 50;

/**
 * The notifications the dashboard's status alerts choose from (monitoring-client 4: this sensor's
 * notifications with no end time), read from the server for this one sensor, however many the
 * organisation has: its open ones (state=open), and for rapid change and movement, which only count
 * within the last hour, its endless ones of that hour (state=closed of the type, newest first, read
 * until a page reaches past the hour).
 */
export async function readSensorAlertNotifications(read: NotificationPageReader, sensorId: string, now: number): Promise<SensorNotification[]> {
  const pages = async (params: Record<string, string>, more: (page: NotificationPage) => boolean) => {
    const out: SensorNotification[] = [];
    let cursor: string | null = null;
    do {
      const q = new URLSearchParams({ sensor: sensorId, ...params });
      if (cursor) q.set('cursor', cursor);
      const page = await read(q);
      out.push(...page.notifications);
      cursor = more(page) ? page.next : null;
    } while (cursor);
    return out;
  };
  const since = now - RECENT_ALERT_MS;
  const recent = (page: NotificationPage) => (page.notifications.at(-1)?.startTime ?? 0) >= since;
  const [open, ...endless] = await Promise.all([
    pages({ state: 'open', limit: String(OPEN_PAGE) }, () => true),
    ...RECENT_ONLY.map((type) => pages({ state: 'closed', type, limit: String(RECENT_PAGE) }, recent)),
  ]);
  return [...open, ...endless.flat().filter((n) => n.endless && n.endTime === null && n.startTime >= since)];
}

/** The gateway's reader of one organisation's notification pages. */
export const notificationPages =
  (orgId: string, signal?: AbortSignal): NotificationPageReader =>
  (q) =>
    api.get(`/organisations/${orgId}/notifications?${q}`, { schema: notificationPageSchema, signal });
