import { describe, expect, it } from 'vitest';
import { currentBattery, notificationText } from './notification-text';

describe('notification text (levels in the organisation unit: metres 3 decimals, inches 1)', () => {
  it('says which threshold a level crossed', () => {
    const meta = { type: 'THRESHOLD_ALARM' as const, alarmSetting: { type: 'THRESHOLD_INCREASING', threshold: 2500 }, measurement: 2614 };
    expect(notificationText({ meta }, 'Metres')).toBe('The level rose above the 2.500 m threshold at 2.614 m.');
    expect(notificationText({ meta }, 'Inches')).toBe('The level rose above the 98.4 in threshold at 102.9 in.');
  });
  it('says how far a rapid change moved', () => {
    expect(notificationText({ meta: { type: 'DELTA_ALARM', delta: -350, measurement: 1200 } }, 'Metres')).toBe('The level fell 0.350 m within an hour, to 1.200 m.');
  });
  it('names the error code of a sensor error and the battery level', () => {
    expect(notificationText({ meta: { type: 'SENSOR_ERROR', errorCode: 'E2' } }, 'Metres')).toBe('The sensor reported a measurement error: Too Far (E2).');
    expect(notificationText({ meta: { type: 'LOW_BATTERY', measurement: 4 } }, 'Metres')).toBe('The battery is low, below 5%.');
    expect(notificationText({ meta: { type: 'LOW_BATTERY', measurement: 9.4 } }, 'Metres')).toBe('The battery is low at 9%.');
  });
});

describe("an open low-battery alert beside the sensor's information (issue 36 item 14: one value, the latest)", () => {
  const raised = { endTime: null, meta: { type: 'LOW_BATTERY' as const, measurement: 9 } };
  const sensor = (battery: number | null) => ({ latestData: { battery } }) as never;
  it('reads the latest battery, as the information table does', () => {
    expect(notificationText(currentBattery(raised, sensor(3)), 'Metres')).toBe('The battery is low, below 5%.');
    expect(notificationText(currentBattery(raised, sensor(8)), 'Metres')).toBe('The battery is low at 8%.');
  });
  it('keeps the raised value when the latest is unknown, once the alert has ended, and for other types', () => {
    expect(currentBattery(raised, sensor(null))).toBe(raised);
    const ended = { ...raised, endTime: 1 };
    expect(currentBattery(ended, sensor(3))).toBe(ended);
    const offline = { endTime: null, meta: { type: 'SENSOR_OFFLINE' as const } };
    expect(currentBattery(offline, sensor(3))).toBe(offline);
  });
});
