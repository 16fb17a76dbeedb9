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
  it('says when a tank is forecast empty or full and the alarm it is inside (the forecast alarm, beyond the spec)', () => {
    const at = (target: 'empty' | 'full', days: number, withinDays: number) => notificationText({ meta: { type: 'FORECAST_ALARM', forecast: { target, days, withinDays, at: null } } }, 'Metres');
    expect(at('empty', 4.4, 7)).toBe("At its daily use the tank is forecast to be empty in about 4 days, inside the alarm's 7 days.");
    expect(at('full', 0.4, 1)).toBe("At its daily use the tank is forecast to be full in less than a day, inside the alarm's 1 day.");
    expect(at('empty', 1.2, 3)).toBe("At its daily use the tank is forecast to be empty in about 1 day, inside the alarm's 3 days.");
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
