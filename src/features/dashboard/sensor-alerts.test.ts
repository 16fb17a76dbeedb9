import { describe, expect, it } from 'vitest';
import type { NotificationPage, NotificationType, SensorNotification } from '../../contract/notification.schema';
import { dashboardNotifications, NOTIFICATION_PRIORITY } from '../../domain/notification-rules';
import { readSensorAlertNotifications } from './sensor-alerts';

const NOW = 1_800_000_000_000;
const MIN = 60_000;
const S = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

let seq = 0;
const n = (type: NotificationType, ageMin: number, over: Partial<SensorNotification> = {}): SensorNotification => ({
  id: `n${++seq}`,
  sensorId: S,
  startTime: NOW - ageMin * MIN,
  endTime: null,
  endless: false,
  meta: { type, alarmSetting: type === 'DELTA_ALARM' ? { type: 'DELTA_INCREASING', threshold: 100, enabled: true } : null },
  ...over,
});

/** The server's paged list (notifications.routes.ts) over a list: filters, the page's order, limit and an index cursor. */
function server(all: SensorNotification[]) {
  const asked: string[] = [];
  const read = async (q: URLSearchParams): Promise<NotificationPage> => {
    asked.push(q.toString());
    const types = q.get('type')?.split(',');
    const state = q.get('state');
    const list = all
      .filter((x) => x.sensorId === q.get('sensor'))
      .filter((x) => !types || types.includes(x.meta.type))
      .filter((x) => state !== 'open' || (x.endTime === null && !x.endless))
      .filter((x) => state !== 'closed' || x.endTime !== null || x.endless)
      .sort((a, b) => NOTIFICATION_PRIORITY[a.meta.type] - NOTIFICATION_PRIORITY[b.meta.type] || b.startTime - a.startTime);
    const from = Number(q.get('cursor') ?? 0);
    const limit = Number(q.get('limit'));
    const page = list.slice(from, from + limit);
    return { notifications: page, sensors: {}, next: from + limit < list.length ? String(from + limit) : null };
  };
  return { read, asked };
}

describe("the dashboard's status alerts read the sensor's own notifications (monitoring-client 4, issue 32)", () => {
  it("keeps every open notification however old, the hour's endless rapid changes and movements, and nothing cleared or another sensor's", async () => {
    const oldAlarm = n('THRESHOLD_ALARM', 60 * 24 * 30);
    const battery = n('LOW_BATTERY', 5);
    const endlessDelta = n('DELTA_ALARM', 20, { endless: true });
    const oldEndless = n('DELTA_ALARM', 61, { endless: true });
    const cleared = [...Array(300)].map((_, i) => n(i % 2 ? 'DELTA_ALARM' : 'ACCELEROMETER', i / 10, { endTime: NOW - (i / 10) * MIN + 1 }));
    const older = [...Array(200)].map((_, i) => n('DELTA_ALARM', 120 + i, { endTime: NOW - (120 + i) * MIN + 1 }));
    const others = [...Array(500)].map((_, i) => n('THRESHOLD_ALARM', i, { sensorId: OTHER }));
    const { read, asked } = server([oldAlarm, battery, endlessDelta, oldEndless, ...cleared, ...older, ...others]);

    const got = await readSensorAlertNotifications(read, S, NOW);
    expect(got.map((x) => x.id).sort()).toEqual([oldAlarm.id, battery.id, endlessDelta.id].sort());
    // the cleared ones of the hour are paged past until a page reaches beyond it, and no further (8 pages in all)
    expect(asked.filter((q) => q.includes('type=DELTA_ALARM')).length).toBe(4);
    expect(asked.every((q) => q.startsWith(`sensor=${S}&`))).toBe(true);
    const shown = dashboardNotifications(got, { id: S, alarms: { '1': { type: 'DELTA_INCREASING', threshold: 100, enabled: true } } }, NOW);
    expect(shown.map((x) => x.id)).toEqual([oldAlarm.id, battery.id, endlessDelta.id]);
  });

  it('follows the open list past a page', async () => {
    const open = [...Array(450)].map((_, i) => n('SENSOR_ERROR', i));
    const { read } = server(open);
    expect((await readSensorAlertNotifications(read, S, NOW)).length).toBe(450);
  });
});
