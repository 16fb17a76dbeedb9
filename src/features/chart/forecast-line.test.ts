import { describe, expect, it } from 'vitest';
import type { UsageResult } from '../../../workers/data-api';
import type { ConversionConfig } from '../../contract/sensor.schema';
import { volumeLitres } from '../../domain/tank-volume';
import { forecastBand, forecastLine, forecastYAt, LEVEL_STEPS } from './forecast-line';

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
const OFFSET = 2600;
const sensorWith = (conversion: ConversionConfig) => ({ conversionConfigs: [conversion], displayInfo: { offsetMeasurement: OFFSET } }) as Parameters<typeof forecastLine>[5];
const vertical = sensorWith({ type: 'VOLUME_CYLINDER', diameter: 3 });
const horizontal = sensorWith({ type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 });

describe('forecastLine: the tank forecast the chart continues its line with (issue 38)', () => {
  it('goes from the latest point to empty at the rolling rate, its band between the early and late crossings, the axis half the window further at most', () => {
    const f = forecastLine(tank([forecast('empty', { volume: 0, levelMm: 0 })]), 'volume', 'Metres', threeDays, last, vertical)!;
    expect(f).toMatchObject({ x0: NOW / 1000, y0: 16_000, x1: (NOW + 10 * DAY) / 1000, y1: 0, early: (NOW + 8 * DAY) / 1000, late: (NOW + 13 * DAY) / 1000, label: 'Forecast: empty' });
    expect(f.xMax).toBe((NOW + 1.5 * DAY) / 1000);
    // in Water Volume mode the volume falls linearly: a straight line, its two ends
    expect(f.points).toEqual([
      [NOW / 1000, 16_000],
      [(NOW + 10 * DAY) / 1000, 0],
    ]);
    // a long window shows the whole forecast and its band
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', { start: NOW - 60 * DAY, end: NOW }, last, vertical)!.xMax).toBe((NOW + 13 * DAY) / 1000);
  });

  it('in Water Level mode ends at the target level in the organisation unit', () => {
    const usage = tank([forecast('empty', { levelMm: 250 })]);
    expect(forecastLine(usage, 'level', 'Metres', threeDays, { time: NOW / 1000, value: 1.8 }, vertical)!.y1).toBe(0.25);
    expect(forecastLine(usage, 'level', 'Inches', threeDays, { time: NOW / 1000, value: 70 }, vertical)!.y1).toBeCloseTo(9.84, 2);
  });

  it('a filling tank is continued to full', () => {
    const f = forecastLine(tank([forecast('empty', { rate: -300, days: null, at: null }), forecast('full', { volume: 20_000, levelMm: 2400 })]), 'volume', 'Metres', threeDays, last, vertical)!;
    expect(f).toMatchObject({ y1: 20_000, label: 'Forecast: full' });
  });

  it('is not drawn: without a forecast, for a flow, in Flow Rate mode, for a range that ends before the latest data, or when the view does not end at it', () => {
    expect(forecastLine(tank([forecast('empty', { days: null, at: null, earliest: null, latest: null })]), 'volume', 'Metres', threeDays, last, vertical)).toBeNull();
    expect(forecastLine({ kind: 'none' }, 'volume', 'Metres', threeDays, last, vertical)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'flow', 'Metres', threeDays, last, vertical)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', { start: NOW - 5 * DAY, end: NOW - 2 * DAY }, last, vertical)).toBeNull();
    expect(forecastLine(tank([forecast('empty')]), 'volume', 'Metres', threeDays, { time: (NOW - DAY) / 1000, value: 1 }, vertical)).toBeNull();
    expect(forecastLine(null, 'volume', 'Metres', threeDays, last, vertical)).toBeNull();
  });
  // Water Level mode: the volume still moves linearly in time, so each point's level is the level
  // holding the interpolated volume, checked here against src/domain/tank-volume.ts (a copy of the
  // geometry separate from the core's, which the line is computed with)
  const levelLine = (sensor: typeof vertical, conversion: ConversionConfig, unit: 'Metres' | 'Inches', fromM: number, target: ReturnType<typeof forecast>) => {
    const perM = unit === 'Inches' ? 1 / 0.0254 : 1;
    const f = forecastLine(tank([target]), 'level', unit, threeDays, { time: NOW / 1000, value: fromM * perM }, sensor)!;
    const v0 = volumeLitres(conversion, fromM)!;
    const v1 = volumeLitres(conversion, target.levelMm / 1000)!;
    return { f, v0, v1, perM };
  };

  it("in Water Level mode follows a horizontal cylinder's level as its volume falls linearly: a curve, each point holding the interpolated volume", () => {
    const conversion: ConversionConfig = { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 };
    for (const unit of ['Metres', 'Inches'] as const) {
      const { f, v0, v1, perM } = levelLine(horizontal, conversion, unit, 1.8, forecast('empty', { levelMm: 0 }));
      expect(f.points).toHaveLength(LEVEL_STEPS + 1);
      expect(f.points[0]).toEqual([f.x0, f.y0]);
      expect(f.points.at(-1)).toEqual([f.x1, f.y1]);
      expect(f.y1).toBe(0);
      f.points.forEach(([x, y], i) => {
        expect(x).toBeCloseTo(f.x0 + ((f.x1 - f.x0) * i) / LEVEL_STEPS, 6);
        expect(volumeLitres(conversion, y / perM)).toBeCloseTo(v0 + ((v1 - v0) * i) / LEVEL_STEPS, 3);
        if (i) expect(y).toBeLessThan(f.points[i - 1]![1]);
      });
      // halfway in time the tank holds half of what it held: not halfway down in level (the
      // 1.8 m of a 2 m cylinder hold 95% of it, half of that is at 0.96 m)
      const [, mid] = f.points[LEVEL_STEPS / 2]!;
      expect(Math.abs(mid - (f.y0 + f.y1) / 2)).toBeGreaterThan(0.05 * perM);
      expect(mid / perM).toBeCloseTo(0.96, 2);
    }
    // filling from 0.3 m toward the high alarm at 1.9 m
    const fill = [forecast('empty', { rate: -300, days: null, at: null }), forecast('high', { volume: volumeLitres(conversion, 1.9)!, levelMm: 1900 })];
    const f = forecastLine(tank(fill), 'level', 'Metres', threeDays, { time: NOW / 1000, value: 0.3 }, horizontal)!;
    expect(f).toMatchObject({ y0: 0.3, y1: 1.9, label: 'Forecast: full' });
    const [v0, v1] = [volumeLitres(conversion, 0.3)!, volumeLitres(conversion, 1.9)!];
    f.points.forEach(([, y], i) => expect(volumeLitres(conversion, y)).toBeCloseTo(v0 + ((v1 - v0) * i) / LEVEL_STEPS, 3));
    expect(Math.abs(f.points[LEVEL_STEPS / 2]![1] - 1.1)).toBeGreaterThan(0.03);
  });

  it('in Water Level mode is straight for a tank whose volume is proportional to its level', () => {
    const tanks: [typeof vertical, ConversionConfig][] = [
      [vertical, { type: 'VOLUME_CYLINDER', diameter: 3 }],
      [sensorWith({ type: 'VOLUME_RECTANGULAR', width: 2, length: 3 }), { type: 'VOLUME_RECTANGULAR', width: 2, length: 3 }],
    ];
    for (const [sensor, conversion] of tanks) {
      for (const unit of ['Metres', 'Inches'] as const) {
        const { f } = levelLine(sensor, conversion, unit, 1.8, forecast('empty', { levelMm: 250 }));
        expect(f.points).toHaveLength(LEVEL_STEPS + 1);
        f.points.forEach(([, y], i) => expect(y).toBeCloseTo(f.y0 + ((f.y1 - f.y0) * i) / LEVEL_STEPS, 6));
      }
    }
  });

  it('shades a band whose edges run to the early and late crossings along the line\'s shape: straight in Water Volume mode, bent as the level is in Water Level mode', () => {
    const straight = forecastLine(tank([forecast('empty')]), 'volume', 'Metres', threeDays, last, vertical)!;
    expect(forecastBand(straight)).toEqual([
      [straight.x0, straight.y0],
      [straight.early, straight.y1],
      [straight.late, straight.y1],
      [straight.x0, straight.y0],
    ]);
    const conversion: ConversionConfig = { type: 'VOLUME_CYLINDER_HORIZONTAL', diameter: 2, length: 5 };
    const { f } = levelLine(horizontal, conversion, 'Metres', 1.8, forecast('empty', { levelMm: 0 }));
    const band = forecastBand(f);
    expect(band).toHaveLength(2 * (LEVEL_STEPS + 1));
    const early = band.slice(0, LEVEL_STEPS + 1);
    const late = band.slice(LEVEL_STEPS + 1).reverse();
    // the same levels as the line, each reached sooner on the early edge and later on the late one
    early.forEach(([x, y], i) => {
      expect(y).toBe(f.points[i]![1]);
      expect(x).toBeCloseTo(f.x0 + ((f.early - f.x0) * i) / LEVEL_STEPS, 6);
      expect(late[i]![1]).toBe(y);
      expect(late[i]![0]).toBeCloseTo(f.x0 + ((f.late - f.x0) * i) / LEVEL_STEPS, 6);
    });
    expect(early.at(-1)).toEqual([f.early, f.y1]);
    expect(late.at(-1)![0]).toBeCloseTo(f.late, 6);
    // the line lies inside the band: at each step between its early and late edges
    f.points.forEach(([x], i) => expect(early[i]![0] <= x + 1e-6 && x <= late[i]![0] + 1e-6).toBe(true));
  });

  it("puts the label on the line where it leaves the plot (forecastYAt: linear between the points, clamped to the ends)", () => {
    const points: [number, number][] = [
      [0, 10],
      [10, 4],
      [20, 0],
    ];
    expect(forecastYAt(points, -5)).toBe(10);
    expect(forecastYAt(points, 5)).toBe(7);
    expect(forecastYAt(points, 10)).toBe(4);
    expect(forecastYAt(points, 15)).toBe(2);
    expect(forecastYAt(points, 30)).toBe(0);
  });
});
