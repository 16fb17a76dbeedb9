import { DateTime } from 'luxon';
import type { NotificationType, SensorNotification } from '../contract/notification.schema';
import type { Alarm } from '../contract/sensor.schema';

/** Notification rules of monitoring-client 4: badge, card style, order, view window, dashboard display. */
export type NotificationBadge = 'INFO' | 'ACTIVE' | 'CLEARED';
export type NotificationCardStyle = 'history' | 'alarm' | 'info' | 'warning';

type Timed = Pick<SensorNotification, 'startTime' | 'endTime' | 'endless'>;
type Typed = Timed & { meta: { type: NotificationType } };

/** INFO for endless notifications, ACTIVE while there is no end time, CLEARED once ended. */
export function notificationBadge(n: Timed): NotificationBadge {
  if (n.endless) return 'INFO';
  return n.endTime === null || n.endTime === undefined ? 'ACTIVE' : 'CLEARED';
}

/** History when ended; alarm for level and threshold; info for delta and accelerometer; warning for offline, error, low battery. */
export function notificationCardStyle(n: Typed): NotificationCardStyle {
  if (n.endTime !== null && n.endTime !== undefined) return 'history';
  switch (n.meta.type) {
    case 'WATER_LEVEL_ALARM':
    case 'THRESHOLD_ALARM':
      return 'alarm';
    case 'DELTA_ALARM':
    case 'ACCELEROMETER':
      return 'info';
    default:
      return 'warning';
  }
}

export const NOTIFICATION_PRIORITY: Record<NotificationType, number> = {
  WATER_LEVEL_ALARM: 0,
  THRESHOLD_ALARM: 0,
  ACCELEROMETER: 1,
  SENSOR_ERROR: 2,
  LOW_BATTERY: 3,
  SENSOR_OFFLINE: 4,
  DELTA_ALARM: 5,
  FORECAST_ALARM: 6,
};

/** The page order: by type priority, then newest start first within a group. */
export function orderNotifications<T extends Typed>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => NOTIFICATION_PRIORITY[a.meta.type] - NOTIFICATION_PRIORITY[b.meta.type] || b.startTime - a.startTime);
}

const MINUTE = 60_000;

/**
 * The days of each zone worked out so far, first and last millisecond: a page of cards mostly falls
 * on a few days, and luxon's arithmetic in a named zone is several Intl calls (about 0.8 ms a card
 * on this project's test machine, in the first cards' render). A day is exact whatever its length.
 */
const knownDays = new Map<string, [number, number][]>();
const KNOWN_DAYS_PER_ZONE = 64;

/** End of the day containing t in the organisation's time zone (not the browser's). */
export function endOfDay(t: number, timeZone: string): number {
  let days = knownDays.get(timeZone);
  if (!days) knownDays.set(timeZone, (days = []));
  for (const [first, last] of days) if (t >= first && t <= last) return last;
  const at = DateTime.fromMillis(t, { zone: timeZone });
  const day: [number, number] = [at.startOf('day').toMillis(), at.endOf('day').toMillis()];
  if (Number.isFinite(day[0]) && Number.isFinite(day[1])) {
    if (days.length >= KNOWN_DAYS_PER_ZONE) days.shift();
    days.push(day);
  }
  return day[1];
}

/**
 * The chart window the VIEW link opens. Endless: 20 minutes plus the measurement interval either
 * side of the start. Otherwise 60 minutes before the start to 60 minutes after the end, or (still
 * open) to the end of the start's day in the organisation's zone.
 */
export function notificationViewWindow(n: Timed, measurementIntervalMinutes: number, timeZone: string): { start: number; end: number } {
  if (n.endless) {
    const pad = (20 + Math.max(0, measurementIntervalMinutes)) * MINUTE;
    return { start: n.startTime - pad, end: n.startTime + pad };
  }
  const end = n.endTime === null || n.endTime === undefined ? endOfDay(n.startTime, timeZone) : n.endTime + 60 * MINUTE;
  return { start: n.startTime - 60 * MINUTE, end };
}

/** Rapid-change and movement recency window (monitoring-client 9). */
export const RECENT_ALERT_MS = 60 * MINUTE;

const matchesEnabledAlarm = (n: SensorNotification, alarms: Record<string, Alarm>) => {
  const wanted = n.meta.type === 'ACCELEROMETER' ? ['ACCELEROMETER'] : ['DELTA_INCREASING', 'DELTA_DECREASING'];
  const setting = n.meta.alarmSetting;
  return Object.values(alarms).some((a) => a.enabled && wanted.includes(a.type) && (!setting || setting.type === a.type));
};

/**
 * The status alerts the dashboard shows: open notifications of this sensor only; delta and
 * movement alerts only when recent and matching an enabled alarm; one alert per type (the newest).
 */
export function dashboardNotifications(list: readonly SensorNotification[], sensor: { id: string; alarms: Record<string, Alarm> }, now: number): SensorNotification[] {
  const byType = new Map<NotificationType, SensorNotification>();
  for (const n of [...list].sort((a, b) => b.startTime - a.startTime)) {
    if (n.sensorId !== sensor.id || n.endTime !== null || byType.has(n.meta.type)) continue;
    if (n.meta.type === 'DELTA_ALARM' || n.meta.type === 'ACCELEROMETER') {
      if (now - n.startTime > RECENT_ALERT_MS || !matchesEnabledAlarm(n, sensor.alarms)) continue;
    }
    byType.set(n.meta.type, n);
  }
  return orderNotifications([...byType.values()]);
}

export const NOTIFICATION_TITLE: Record<NotificationType, string> = {
  WATER_LEVEL_ALARM: 'Water level alarm',
  THRESHOLD_ALARM: 'Threshold alarm',
  ACCELEROMETER: 'Movement detected',
  SENSOR_ERROR: 'Sensor error',
  LOW_BATTERY: 'Low battery',
  SENSOR_OFFLINE: 'Sensor offline',
  DELTA_ALARM: 'Rapid change',
  FORECAST_ALARM: 'Forecast alarm',
};
