import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { SensorNotification } from '../contract/notification.schema';
import { dashboardNotifications, endOfDay, notificationBadge, notificationCardStyle, notificationViewWindow, orderNotifications } from './notification-rules';

const MIN = 60_000;
const NOW = new Date(2026, 2, 10, 12, 0).getTime();
let seq = 0;
const n = (type: SensorNotification['meta']['type'], start: number, over: Partial<SensorNotification> = {}): SensorNotification => ({
  id: `n${++seq}`,
  sensorId: 's1',
  startTime: start,
  endTime: null,
  endless: false,
  meta: { type },
  ...over,
});

describe('notification badge (monitoring-client 4)', () => {
  it('is INFO for endless, ACTIVE without an end time, CLEARED when ended', () => {
    expect(notificationBadge(n('DELTA_ALARM', NOW, { endless: true }))).toBe('INFO');
    expect(notificationBadge(n('THRESHOLD_ALARM', NOW))).toBe('ACTIVE');
    expect(notificationBadge(n('THRESHOLD_ALARM', NOW, { endTime: NOW + MIN }))).toBe('CLEARED');
  });
});

describe('notification card style (monitoring-client 4)', () => {
  it('is history when ended, whatever the type', () => {
    expect(notificationCardStyle(n('THRESHOLD_ALARM', NOW, { endTime: NOW + MIN }))).toBe('history');
  });
  it('is alarm for threshold and level, info for delta and accelerometer, warning for offline, error and low battery', () => {
    const styles = (['THRESHOLD_ALARM', 'WATER_LEVEL_ALARM', 'DELTA_ALARM', 'ACCELEROMETER', 'SENSOR_OFFLINE', 'SENSOR_ERROR', 'LOW_BATTERY'] as const).map((t) =>
      notificationCardStyle(n(t, NOW)),
    );
    expect(styles).toEqual(['alarm', 'alarm', 'info', 'info', 'warning', 'warning', 'warning']);
  });
});

describe('notification order (monitoring-client 4: priorities 0-5, newest start first in a group)', () => {
  it('orders level/threshold 0, accelerometer 1, sensor error 2, low battery 3, offline 4, delta 5', () => {
    const list = [
      n('DELTA_ALARM', NOW),
      n('SENSOR_OFFLINE', NOW - 1),
      n('LOW_BATTERY', NOW - 2),
      n('SENSOR_ERROR', NOW - 3),
      n('ACCELEROMETER', NOW - 4),
      n('THRESHOLD_ALARM', NOW - 5),
      n('WATER_LEVEL_ALARM', NOW - 6),
    ];
    expect(orderNotifications(list).map((x) => x.meta.type)).toEqual([
      'THRESHOLD_ALARM',
      'WATER_LEVEL_ALARM',
      'ACCELEROMETER',
      'SENSOR_ERROR',
      'LOW_BATTERY',
      'SENSOR_OFFLINE',
      'DELTA_ALARM',
    ]);
  });
  it('puts the newest start first within a group', () => {
    const older = n('SENSOR_OFFLINE', NOW - 60 * MIN);
    const newer = n('SENSOR_OFFLINE', NOW);
    expect(orderNotifications([older, newer])).toEqual([newer, older]);
  });
});

const NZ = 'Pacific/Auckland';

describe('notification view window (monitoring-client 4)', () => {
  it('endless: 20 minutes plus the interval around the start', () => {
    expect(notificationViewWindow(n('DELTA_ALARM', NOW, { endless: true }), 5, NZ)).toEqual({ start: NOW - 25 * MIN, end: NOW + 25 * MIN });
  });
  it('ended: 60 minutes before the start to 60 minutes after the end', () => {
    expect(notificationViewWindow(n('THRESHOLD_ALARM', NOW, { endTime: NOW + 30 * MIN }), 5, NZ)).toEqual({ start: NOW - 60 * MIN, end: NOW + 90 * MIN });
  });
  it('open: 60 minutes before the start to the end of the day', () => {
    const w = notificationViewWindow(n('THRESHOLD_ALARM', NOW), 5, NZ);
    expect(w).toEqual({ start: NOW - 60 * MIN, end: endOfDay(NOW, NZ) });
    expect(DateTime.fromMillis(w.end, { zone: NZ }).toFormat('HH:mm:ss.SSS')).toBe('23:59:59.999');
  });
  it("open: the day ends in the organisation's zone, whatever the browser's zone", () => {
    // 2026-03-15 09:30 in Auckland is 14 March 20:30 UTC: the UTC day would end 13 hours before Auckland's
    const start = DateTime.fromISO('2026-03-15T09:30:00', { zone: NZ }).toMillis();
    expect(notificationViewWindow(n('THRESHOLD_ALARM', start), 5, NZ).end).toBe(DateTime.fromISO('2026-03-15T23:59:59.999', { zone: NZ }).toMillis());
    expect(notificationViewWindow(n('THRESHOLD_ALARM', start), 5, 'UTC').end).toBe(DateTime.fromISO('2026-03-14T23:59:59.999', { zone: 'UTC' }).toMillis());
  });
});

describe('end of day in a zone', () => {
  it("gives luxon's end of the day every 131 minutes over 200 days across daylight-saving changes, in zones with whole, half and quarter hours, asked in any order", () => {
    const zones = [NZ, 'Pacific/Chatham', 'Australia/Adelaide', 'America/St_Johns', 'UTC'];
    const from = DateTime.fromISO('2026-03-28T00:00:00Z').toMillis(); // New Zealand's and Chatham's daylight saving ends 5 April, begins 27 September
    const times: number[] = [];
    for (let t = from; t < from + 200 * 24 * 60 * MIN; t += 131 * MIN) times.push(t);
    // shuffled the same way each run: later days learnt before earlier ones
    const order = times.map((t, i) => [t, (i * 7919) % times.length] as const).sort((a, b) => a[1] - b[1]).map(([t]) => t);
    // one expect of the differences, not one a case
    const wrong: string[] = [];
    for (const zone of zones) {
      for (const t of order) {
        const got = endOfDay(t, zone);
        const want = DateTime.fromMillis(t, { zone }).endOf('day').toMillis();
        if (got !== want) wrong.push(`${zone} ${new Date(t).toISOString()}: ${new Date(got).toISOString()}, not ${new Date(want).toISOString()}`);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(order.length * zones.length).toBeGreaterThan(10_000);
  });
  it('is not a number in a zone luxon does not know, as before', () => {
    expect(endOfDay(NOW, 'Nowhere/Atlantis')).toBeNaN();
  });
});

describe('dashboard notification display (monitoring-client 4)', () => {
  const sensor = { id: 's1', alarms: { '0': { type: 'DELTA_INCREASING' as const, threshold: 100, enabled: true } } };
  it('shows only open notifications of this sensor', () => {
    const shown = dashboardNotifications([n('THRESHOLD_ALARM', NOW), n('LOW_BATTERY', NOW, { endTime: NOW + 1 }), n('SENSOR_OFFLINE', NOW, { sensorId: 's2' })], sensor, NOW);
    expect(shown.map((x) => x.meta.type)).toEqual(['THRESHOLD_ALARM']);
  });
  it('shows delta and movement alerts only within 1 hour and matching an enabled alarm', () => {
    const recentDelta = n('DELTA_ALARM', NOW - 59 * MIN, { endless: true });
    const oldDelta = n('DELTA_ALARM', NOW - 61 * MIN, { endless: true });
    const movement = n('ACCELEROMETER', NOW - MIN, { endless: true }); // no accelerometer alarm enabled
    expect(dashboardNotifications([recentDelta], sensor, NOW)).toEqual([recentDelta]);
    expect(dashboardNotifications([oldDelta, movement], sensor, NOW)).toEqual([]);
    const disabled = { id: 's1', alarms: { '0': { ...sensor.alarms['0'], enabled: false } } };
    expect(dashboardNotifications([recentDelta], disabled, NOW)).toEqual([]);
  });
  it('shows one alert per type, the newest', () => {
    const a = n('THRESHOLD_ALARM', NOW - 10 * MIN);
    const b = n('THRESHOLD_ALARM', NOW - MIN);
    expect(dashboardNotifications([a, b], sensor, NOW)).toEqual([b]);
  });
});
