import { describe, expect, it } from 'vitest';
import { allowedTaskTypes, blockerMessage, remoteTasksBlocker, statusDisplay, taskTypeLabel, underLimit, type TaskSensor } from './remote-tasks';
import { estimateApplyAt, estimateText, SIGFOX_DOWNLINK_GAP_MS } from './task-estimate';
import { adjustTransmission, alarmOptions, measurementOptions, scheduleErrors, transmissionOptions } from './update-rate';
import { alarmSlotFor, alarmsInForce, alarmValueError, mmToPercent, offeredAlarmTypes, percentAvailable, percentError, percentToMm, userRangeErrors } from './task-params';
import { applicableFirmware } from './firmware';

const MIN = 60_000;
const sensor = (over: Partial<TaskSensor> & { fw?: number } = {}): TaskSensor => ({
  sensorType: 'LS1-R',
  radio: { type: 'cellular' },
  config: { schedulerEnabled: true, measurementInterval: 15, transmissionInterval: 60 },
  latestBootInfo: { firmwareVersion: over.fw ?? 72, hardwareVersion: 13 },
  ...over,
});

describe('remote task availability (sensor-setup 2, 6, 9)', () => {
  it('gives the three banners in order: satellite, scheduler off, firmware below 27', () => {
    expect(blockerMessage(remoteTasksBlocker(sensor({ radio: { type: 'myriota' }, fw: 10 }))!)).toBe('Remote tasks are currently not supported by the satellite network.');
    expect(remoteTasksBlocker(sensor({ config: { schedulerEnabled: false, measurementInterval: 5, transmissionInterval: 30 } }))).toEqual({ kind: 'schedulerOff' });
    expect(blockerMessage(remoteTasksBlocker(sensor({ fw: 26 }))!)).toBe("The sensor's firmware version must be 27 or higher to access remote tasks.");
    expect(remoteTasksBlocker(sensor({ fw: 27 }))).toBeNull();
  });

  it('offers types by role, radio, module, firmware and queued limits', () => {
    expect(allowedTaskTypes(sensor(), false, [])).toEqual(['SensorConfig', 'AlarmConfig', 'ExtendedConfig']);
    expect(allowedTaskTypes(sensor({ fw: 131 }), true, [])).toEqual(['SensorConfig', 'AlarmConfig', 'ExtendedConfig', 'TransmissionConfig', 'RadarConfig', 'FullRadarConfig', 'FirmwareDownload']);
    expect(allowedTaskTypes(sensor({ radio: { type: 'sigfox' } }), true, [])).not.toContain('FirmwareDownload');
    expect(allowedTaskTypes(sensor({ sensorType: 'LS1' }), true, [])).not.toContain('RadarConfig');
    expect(allowedTaskTypes(sensor({ fw: 40 }), false, [])).toEqual(['SensorConfig', 'AlarmConfig']);
    const fw = { type: 'FirmwareDownload' as const, params: {} };
    expect(underLimit('FirmwareDownload', [fw, fw])).toBe(true);
    expect(underLimit('FirmwareDownload', [fw, fw, fw])).toBe(false);
    expect(underLimit('SensorConfig', [{ type: 'SensorConfig', params: {} }])).toBe(false);
    const a = (type: string) => ({ type: 'AlarmConfig' as const, params: { value: { type } } });
    expect(underLimit('AlarmConfig', [a('THRESHOLD_INCREASING'), a('DELTA_INCREASING')])).toBe(true);
  });

  it('labels and status displays', () => {
    expect(taskTypeLabel('ExtendedConfig', true)).toBe('Update Extended Configuration');
    expect(taskTypeLabel('ExtendedConfig', false)).toBe('Update Alarm Mode Scheduler');
    expect(statusDisplay('Dispatched').label).toBe('Executing...');
    expect(statusDisplay('Error').label).toBe('Failed');
    expect(statusDisplay('Weird').label).toBe('N/A');
  });
});

describe('estimated time to apply (DESIGN.md two readings, radio budget)', () => {
  const now = Date.UTC(2026, 0, 10, 12);
  const est = (over: Record<string, unknown>, position = 0, createdAt = now - 10 * MIN) =>
    estimateApplyAt({ radio: { type: 'cellular' }, config: { measurementInterval: 15, transmissionInterval: 60, txCountOnAlarm: 2 }, latestBootInfo: { firmwareVersion: 72 }, latestData: null, ...over } as never, { createdAt }, position, now);
  it('last transmission plus the interval from firmware 65, shortened while an alert is asserted', () => {
    expect(est({ latestData: { lastMeasurementTransmission: now - 20 * MIN } })).toBe(now + 40 * MIN);
    expect(est({ latestData: { lastMeasurementTransmission: now - 20 * MIN, alertAsserted: true } })).toBe(now + 10 * MIN);
    expect(est({ latestData: { lastMeasurementTransmission: now - 20 * MIN } }, 2)).toBe(now + 160 * MIN);
  });
  it('otherwise the last downlink request or creation time in 3-day steps past now', () => {
    expect(est({ latestBootInfo: { firmwareVersion: 60 }, latestData: { lastMeasurementTransmission: now - MIN, lastDownlinkRequestAt: now - 4 * 1440 * MIN } })).toBe(now + 2 * 1440 * MIN);
    expect(est({ latestBootInfo: { firmwareVersion: 60 } })).toBe(now - 10 * MIN + 3 * 1440 * MIN);
    // an offline sensor (a whole transmission overdue) is not expected on schedule
    expect(est({ latestData: { lastMeasurementTransmission: now - 3 * 60 * MIN } })).toBe(now - 10 * MIN + 3 * 1440 * MIN);
  });
  it('never promises a Sigfox device sooner than its downlink budget', () => {
    const at = est({ radio: { type: 'sigfox' }, latestData: { lastMeasurementTransmission: now - 20 * MIN, lastDownlinkRequestAt: now - 60 * MIN } }, 1);
    expect(at).toBe(now - 60 * MIN + SIGFOX_DOWNLINK_GAP_MS + SIGFOX_DOWNLINK_GAP_MS);
    expect(estimateText(now + 30 * MIN, now)).toBe('In the next hour');
    expect(estimateText(now - 30 * MIN, now)).toBe('In the next hour');
    expect(estimateText(now + 3 * 60 * MIN, now)).toBe('in 3 hours');
  });
});

describe('update-rate rules (sensor-setup 4, 5, 9)', () => {
  it('lists, multiples, auto-adjust and alarm options', () => {
    expect(measurementOptions('cellular', 5)).toEqual([5, 10, 15, 30, 60, 120, 180, 240, 360, 480, 720, 1440]);
    expect(measurementOptions('sigfox', 5)).toBeNull();
    expect(transmissionOptions('cellular', 15)).toEqual([15, 30, 60]);
    expect(transmissionOptions('sigfox', 7)).toEqual([7, 14, 21, 28, 35, 42]);
    expect(adjustTransmission('sigfox', 20, 42)).toBe(120);
    expect(adjustTransmission('sigfox', 21, 42)).toBe(42);
    expect(alarmOptions(15, 60)).toEqual([1, 2]);
    expect(alarmOptions(60, 60)).toEqual([]);
  });
  it('messages', () => {
    expect(scheduleErrors({ radio: 'sigfox', currentMeasurement: 5, measurementInterval: 7, transmissionInterval: 20 }).transmissionInterval).toBe('Transmission interval must be a multiple of the measurement interval');
    expect(scheduleErrors({ radio: 'sigfox', currentMeasurement: 5, measurementInterval: undefined, transmissionInterval: undefined })).toEqual({ measurementInterval: 'Missing measurement interval', transmissionInterval: 'Missing transmission interval' });
    expect(scheduleErrors({ radio: 'sigfox', currentMeasurement: 5, measurementInterval: 10, transmissionInterval: 40, txCountOnAlarm: 4 }).txCountOnAlarm).toBe('Invalid txIntervalOnAlarm value');
    expect(scheduleErrors({ radio: 'sigfox', currentMeasurement: 5, measurementInterval: 10, transmissionInterval: 10, txCountOnAlarm: 1 }).txCountOnAlarm).toBe('No alarm options available for your current settings.');
    expect(scheduleErrors({ radio: 'sigfox', currentMeasurement: 5, measurementInterval: 10, transmissionInterval: 120, deltaCompressionEnabled: true })).toEqual({});
  });
});

describe('alarm, extended and firmware rules', () => {
  const s = { sensorType: 'LS1', offset: 3000 };
  it('thresholds inside the range and ordered; rapid change and movement bounds', () => {
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: 2800, enabled: true }, s, {})).toBe('The threshold has exceeded the measurement range of the sensor.');
    expect(alarmValueError({ type: 'THRESHOLD_DECREASING', threshold: 1500, enabled: true }, s, { THRESHOLD_INCREASING: 1000 })).toBe('The depth is bigger than the high level alarm');
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: 900, enabled: true }, s, { THRESHOLD_DECREASING: 1000 })).toBe('The depth is smaller than the low level alarm');
    expect(alarmValueError({ type: 'DELTA_INCREASING', threshold: 4700, enabled: true }, s, {})).toBe('The rapid change must be at least 1 and less than the range of the sensor');
    expect(alarmValueError({ type: 'ACCELEROMETER', threshold: 256, enabled: true }, s, {})).toBe('The threshold must be between 0 and 255');
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: undefined, enabled: true }, s, {})).toBe('Please input the threshold');
  });
  it('without an offset the threshold is a distance inside the type range, with the distance wording', () => {
    const d = { sensorType: 'LS1', offset: null };
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: 200, enabled: true }, d, {})).toBe('The threshold has exceeded the measurement range of the sensor.');
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: 1200, enabled: true }, d, {})).toBeNull();
    expect(alarmValueError({ type: 'THRESHOLD_DECREASING', threshold: 1500, enabled: true }, d, { THRESHOLD_INCREASING: 1000 })).toBe('The distance is bigger than the high level alarm');
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: 900, enabled: true }, d, { THRESHOLD_DECREASING: 1000 })).toBe('The distance is smaller than the low level alarm');
  });
  it('percentages: of the display limits, not negative, must convert, then the mm rules with the percentage wording', () => {
    const limits = { minLevel: 0, maxLevel: 2000 };
    expect(percentAvailable(limits)).toBe(true);
    expect(percentAvailable({ minLevel: 0, maxLevel: 0 })).toBe(false);
    expect(percentAvailable({ minLevel: 0 })).toBe(false);
    expect(percentToMm(25, limits)).toBe(500);
    expect(percentToMm(25, { minLevel: 500, maxLevel: 1500 })).toBe(750);
    expect(mmToPercent(750, { minLevel: 500, maxLevel: 1500 })).toBe(25);
    expect(percentToMm(25, {})).toBeUndefined();
    expect(percentError(-1, true, limits)).toBe('The percentage must not be negative');
    expect(percentError(undefined, true, limits)).toBe('Please input the threshold');
    expect(percentError(50, true, {})).toBe('The threshold must be a number');
    expect(percentError(0, true, limits)).toBeNull();
    // 200% of 0-2000 mm is 4000 mm, above what an LS1 with a 3000 mm offset can measure (2700)
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: percentToMm(200, limits), enabled: true }, s, {}, 'percentage')).toBe('The threshold has exceeded the measurement range of the sensor.');
    expect(alarmValueError({ type: 'THRESHOLD_DECREASING', threshold: percentToMm(60, limits), enabled: true }, s, { THRESHOLD_INCREASING: 1000 }, 'percentage')).toBe('The percentage is bigger than the high level alarm');
    expect(alarmValueError({ type: 'THRESHOLD_INCREASING', threshold: percentToMm(40, limits), enabled: true }, s, { THRESHOLD_DECREASING: 1000 }, 'percentage')).toBe('The percentage is smaller than the low level alarm');
  });
  it('the alarms in force are the sensor\'s overridden by queued values, without the edited slot', () => {
    const alarms = { '0': { type: 'THRESHOLD_DECREASING' as const, threshold: 500, enabled: true }, '1': { type: 'THRESHOLD_INCREASING' as const, threshold: 2000, enabled: true } };
    expect(alarmsInForce(alarms, [], 0)).toEqual({ THRESHOLD_INCREASING: 2000 });
    expect(alarmsInForce(alarms, [{ type: 'THRESHOLD_INCREASING', threshold: 1500, enabled: true }], 0)).toEqual({ THRESHOLD_INCREASING: 1500 });
    expect(alarmsInForce(alarms, [{ type: 'THRESHOLD_DECREASING', threshold: 1, enabled: false }], 1)).toEqual({});
  });
  it('slots and offered types', () => {
    const alarms = { '0': { type: 'THRESHOLD_DECREASING' as const, threshold: 1, enabled: true } };
    expect(alarmSlotFor('THRESHOLD_DECREASING', alarms, new Set())).toBe(0);
    expect(alarmSlotFor('THRESHOLD_INCREASING', alarms, new Set([1]))).toBe(2);
    expect(offeredAlarmTypes(alarms, new Set(['DELTA_INCREASING']))).toEqual(['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_DECREASING']);
  });
  it('user range strictly inside the type range', () => {
    expect(userRangeErrors('LS1', 300, 5000)).toEqual({ min: 'The minimum must be a whole number above 300 mm', max: 'The maximum must be a whole number below 5000 mm' });
    expect(userRangeErrors('LS1', 400, 400)).toEqual({ max: 'The minimum must be less than the maximum' });
  });
  it('firmware: hardware, build type, newer main, not queued', () => {
    const f = (id: string, fwType: 'Main' | 'Radar', fwVersion: number, buildType: 'Production' | 'Beta', hw: number[]) => ({ id, fwName: id, fwType, fwVersion, buildType, createdAt: 0, applyTo: { hardwareVersions: hw } });
    const list = [f('a', 'Main', 72, 'Production', [13]), f('b', 'Main', 74, 'Beta', [13]), f('c', 'Main', 75, 'Production', [11]), f('d', 'Radar', 3, 'Production', [13]), f('e', 'Main', 76, 'Production', [13])];
    const sensorFw = { latestBootInfo: { firmwareVersion: 72, hardwareVersion: 13, buildType: 'Production' } };
    expect(applicableFirmware(list, sensorFw, new Set(['e'])).map((x) => x.id)).toEqual(['d']);
  });
});
