import { NOTIFICATION_STATES, NOTIFICATION_TYPES, type NotificationState, type NotificationType, type SensorNotification } from '../contract/notification.schema';
import { UUID_PATTERN } from '../contract/safe-text';
import { NOTIFICATION_PRIORITY } from './notification-rules';

/** The notifications page's filters, as its URL query holds them (?type=&state=&sensor=). */
export interface NotificationFilters {
  type?: NotificationType;
  state?: NotificationState;
  sensor?: string;
}

/** The filters of a URL query; a value the server would refuse (typed by hand) is left out. */
export function filtersFromQuery(params: URLSearchParams): NotificationFilters {
  const f: NotificationFilters = {};
  const type = params.get('type');
  if (type && (NOTIFICATION_TYPES as readonly string[]).includes(type)) f.type = type as NotificationType;
  const state = params.get('state');
  if (state && (NOTIFICATION_STATES as readonly string[]).includes(state)) f.state = state as NotificationState;
  const sensor = params.get('sensor');
  if (sensor && UUID_PATTERN.test(sensor)) f.sensor = sensor.toLowerCase();
  return f;
}

/** The URL query of the filters (only those set), e.g. for the page's address or a page request. */
export function filtersToQuery(f: NotificationFilters): URLSearchParams {
  const q = new URLSearchParams();
  if (f.type) q.set('type', f.type);
  if (f.state) q.set('state', f.state);
  if (f.sensor) q.set('sensor', f.sensor);
  return q;
}

const isOpen = (n: Pick<SensorNotification, 'endTime' | 'endless'>) => n.endTime === null && !n.endless;

/** Whether a notification passes the filters: the server's rules (open is ACTIVE; closed is ended or endless). */
export function matchesFilters(n: SensorNotification, f: NotificationFilters): boolean {
  if (f.type && n.meta.type !== f.type) return false;
  if (f.state === 'open' && !isOpen(n)) return false;
  if (f.state === 'closed' && isOpen(n)) return false;
  if (f.sensor && n.sensorId.toLowerCase() !== f.sensor) return false;
  return true;
}

/** The page's order (monitoring-client 4) with the server's tie-break: priority, newest start, then id. */
export function compareNotifications(a: SensorNotification, b: SensorNotification): number {
  return NOTIFICATION_PRIORITY[a.meta.type] - NOTIFICATION_PRIORITY[b.meta.type] || b.startTime - a.startTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * A notification opened or closed on the live feed, applied to the pages loaded so far: replaced
 * or removed by id, and placed in order if it passes the filters and falls within what is loaded
 * (`complete`: every page is; otherwise only before the last card, since a later page brings the rest).
 */
export function placeLiveNotification(list: readonly SensorNotification[], n: SensorNotification, f: NotificationFilters, complete: boolean): SensorNotification[] {
  const rest = list.filter((x) => x.id !== n.id);
  if (!matchesFilters(n, f)) return rest.length === list.length ? (list as SensorNotification[]) : rest;
  const at = rest.findIndex((x) => compareNotifications(n, x) < 0);
  if (at < 0) return complete ? [...rest, n] : rest;
  return [...rest.slice(0, at), n, ...rest.slice(at)];
}
