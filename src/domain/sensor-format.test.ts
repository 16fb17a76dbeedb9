import { describe, expect, it } from 'vitest';
import { batteryText, formatLevel, intervalText, latestLevelText, levelMm, levelPercent, measurementIntervalText } from './sensor-format';

describe('battery text (monitoring-client 9)', () => {
  it("shows 'Less than 5%' below 5 percent", () => {
    expect(batteryText(4.9)).toBe('Less than 5%');
    expect(batteryText(5)).toBe('5%');
    expect(batteryText(87)).toBe('87%');
    expect(batteryText(undefined)).toBe('N/A');
  });
});

describe('level display (monitoring-client 9: metres 3 decimals, inches 1 decimal)', () => {
  it('formats metres with 3 decimals and inches with 1', () => {
    expect(formatLevel(1234.4, 'Metres')).toBe('1.234 m');
    expect(formatLevel(1234.4, 'Inches')).toBe('48.6 in');
  });
  it('takes the level as offset minus raw distance (mm)', () => {
    const sensor = { displayInfo: { offsetMeasurement: 3000, referenceLines: [] }, latestData: { lastMeasurement: { time: 1, rawDistance: 1750 } } };
    expect(levelMm(sensor, 1750)).toBe(1250);
    expect(latestLevelText(sensor, 'Metres')).toBe('1.250 m');
    expect(latestLevelText({ ...sensor, latestData: null }, 'Metres')).toBeUndefined();
  });
  it('gives a percentage only when both display limits are set and differ', () => {
    expect(levelPercent({ displayInfo: { minLevel: 0, maxLevel: 2000 } }, 500)).toBe(25);
    expect(levelPercent({ displayInfo: { minLevel: 0 } }, 500)).toBeUndefined();
  });
});

describe('measurement interval display (monitoring-client 9: default 5, under 1 shows N/A)', () => {
  it('shows N/A under 1 and the default 5 minutes when missing', () => {
    expect(measurementIntervalText(0.5)).toBe('N/A');
    expect(measurementIntervalText(undefined)).toBe('5 minutes');
    expect(measurementIntervalText(1)).toBe('1 minute');
    expect(intervalText(360)).toBe('6 hours');
    expect(intervalText(1440)).toBe('1 day');
    expect(intervalText(90)).toBe('1 hour 30 minutes');
    expect(intervalText(8634)).toBe('5 days 23 hours 54 minutes'); // 6 x 1439 (issue 36 item 5)
  });
});
