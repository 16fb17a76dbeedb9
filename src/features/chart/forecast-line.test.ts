import { describe, expect, it } from 'vitest';
import type { UsageResult } from '../../../workers/data-api';
import { forecastLine } from './forecast-line';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 18);
const forecast = (target: string, o: Partial<Record<string, number | null>> = {}) => ({
  target,
  volume: 0,
  levelMm: 0,
  days: 10,
  early: 8,
  late: 13,
  at: NOW + 10 * DAY,
  earliest: NOW + 8 * DAY,
  latest: NOW + 13 * DAY,
  rate: 800,
  spread: 50,
  daysUsed: 91,
  ...o,
});
const tank = (forecasts: ReturnType<typeof forecast>[]): UsageResult =>
  ({ kind: 'volume', days: [], fills: [], summary: { averageDaily: 800, maxDaily: 900, deliveries: 0, delivered: 0, lastFill: null, now: 16_000, lastTime: NOW, sigma: 1 }, forecasts }) as unknown as UsageResult;
const threeDays = { start: NOW - 3 * DAY, end: NOW };
const last = { time: NOW / 1000, value: 16_000 };

describe('forecastLine: the tank forecast the chart continues its line with (issue 38)', () => {
  it('goes from the latest point to empty at the rolling rate, its band between the early and late crossings, the axis half the window further at most', () => {
    const f = forecastLine(tank([forecast('empty', { volume: 0, levelMm: 0 })]), 'volume', 'Metres', threeDays, last)!;
    expect(f).toMatchObject({ x0: NOW / 1000, y0: 16_000, x1: (NOW + 10 * DAY) / 1000, y1: 0, early: (NOW + 8 * DAY) / 1000, late: (NOW + 13 * DAY) / 1000, label: 'Forecast: empty' });
    expect(f.xMax).toBe((NOW + 1.5 * DAY) / 1000);
    // a long window shows the whole forecast and its band
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', { start: NOW - 60 * DAY, end: NOW }, last)!.xMax).toBe((NOW + 13 * DAY) / 1000);
  });

  it('in Water Level mode ends at the target level in the organisation unit', () => {
    const usage = tank([forecast('empty', { levelMm: 250 })]);
    expect(forecastLine(usage, 'level', 'Metres', threeDays, { time: NOW / 1000, value: 1.8 })!.y1).toBe(0.25);
    expect(forecastLine(usage, 'level', 'Inches', threeDays, { time: NOW / 1000, value: 70 })!.y1).toBeCloseTo(9.84, 2);
  });

  it('a filling tank is continued to full', () => {
    const f = forecastLine(tank([forecast('empty', { rate: -300, days: null, at: null }), forecast('full', { volume: 20_000, levelMm: 2400 })]), 'volume', 'Metres', threeDays, last)!;
    expect(f).toMatchObject({ y1: 20_000, label: 'Forecast: full' });
  });

  it('is not drawn: without a forecast, for a flow, in Flow Rate mode, for a range that ends before the latest data, or when the view does not end at it', () => {
    expect(forecastLine(tank([forecast('empty', { days: null, at: null, earliest: null, latest: null })]), 'volume', 'Metres', threeDays, last)).toBeNull();
    expect(forecastLine({ kind: 'none' }, 'volume', 'Metres', threeDays, last)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'flow', 'Metres', threeDays, last)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', { start: NOW - 5 * DAY, end: NOW - 2 * DAY }, last)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', threeDays, { time: (NOW - DAY) / 1000, value: 1 })).toBeNull();
    expect(forecastLine(null, 'volume', 'Metres', threeDays, last)).toBeNull();
  });
});
