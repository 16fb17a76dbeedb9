import { describe, expect, it } from 'vitest';
import type { SensorNotification } from '../contract/notification.schema';
import type { Sensor } from '../contract/sensor.schema';
import { applyLatestData, applyNotification } from './live-updates';

const n = (id: string, endTime: number | null = null): SensorNotification => ({
  id,
  sensorId: 's1',
  startTime: 1000,
  endTime,
  endless: false,
  meta: { type: 'THRESHOLD_ALARM' },
});

describe('live notifications (issue 6: the notifications page updates without a reload)', () => {
  it('adds an opened notification first', () => {
    expect(applyNotification([n('a')], n('b')).map((x) => x.id)).toEqual(['b', 'a']);
  });
  it('closing one sets its end time in place', () => {
    const out = applyNotification([n('a'), n('b')], n('b', 5000));
    expect(out.map((x) => [x.id, x.endTime])).toEqual([
      ['a', null],
      ['b', 5000],
    ]);
  });
});

describe('live latest data (issue 6: dashboard status and highlight pane update live)', () => {
  const sensor = (id: string) => ({ id, latestData: { battery: 50, lastSeen: 1 } }) as unknown as Sensor;
  it('merges into the sensor that changed and keeps the others as they were', () => {
    const before = [sensor('a'), sensor('b')];
    const after = applyLatestData(before, 'a', { lastSeen: 2, alertAsserted: true });
    expect(after[0].latestData).toEqual({ battery: 50, lastSeen: 2, alertAsserted: true });
    expect(after[1]).toBe(before[1]);
  });
});
