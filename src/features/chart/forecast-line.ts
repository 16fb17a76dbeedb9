import type { TimeRange } from '../../domain/date-presets';
import type { Sensor } from '../../contract/sensor.schema';
import type { DataMode, UsageResult } from '../../../workers/data-api';
import { conversionParams, isVolume } from '../../../wasm-core/conversion';
import { levelPath } from '../../../wasm-core/tank-level';
import type { Unit } from './chart-scales';

/**
 * The tank forecast drawn on the chart (issue 38): a dashed line from the latest point to the
 * target (empty, or full for a filling tank) at the rolling daily use, with its band (the early and
 * late crossings) shaded. The volume falls (or rises) linearly in time, so in Water Volume mode the
 * line is straight; in Water Level mode it is the level of that volume at each step, by the sensor's
 * own conversion inverted (a polyline: curved for a horizontal cylinder, straight for a tank whose
 * volume is proportional to its level). Drawn in Water Volume and Water Level modes only, never in
 * the data: the tooltip, the table and the CSV know nothing of it.
 */
export interface ForecastLine {
  /** From the latest point (epoch s, chart unit)... */
  x0: number;
  y0: number;
  /** ...to the target at the rolling rate, and the band's ends on the target (epoch s). */
  x1: number;
  y1: number;
  early: number;
  late: number;
  /** The line as drawn, (x0, y0) first and (x1, y1) last (epoch s, chart unit): its two ends in Water Volume mode, LEVEL_STEPS + 1 points in Water Level mode. */
  points: [x: number, y: number][];
  /** Where the x axis is taken to so the forecast is seen (epoch s): half the window past its end at most. */
  xMax: number;
  label: string;
}

/** How far past the picked window's end the axis may go to show a forecast, as a share of the window. */
export const FORECAST_SHARE = 0.5;

/** Steps of the Water Level mode polyline: smooth at the chart's width (a horizontal cylinder bends most near its bottom and top). */
export const LEVEL_STEPS = 48;

export function forecastLine(
  usage: UsageResult | null,
  mode: DataMode,
  unit: Unit,
  window: TimeRange | null,
  last: { time: number; value: number } | null,
  sensor: Pick<Sensor, 'conversionConfigs' | 'displayInfo'>,
): ForecastLine | null {
  if (!usage || usage.kind !== 'volume' || !window || !last || (mode !== 'volume' && mode !== 'level')) return null;
  const lastTime = usage.summary.lastTime;
  // only a window reaching the latest data is continued (not a past range, not a zoom into the past)
  if (lastTime === null || window.end < lastTime || Math.abs(last.time * 1000 - lastTime) > 60_000) return null;
  const empty = usage.forecasts.find((f) => f.target === 'empty');
  const filling = (empty?.rate ?? 0) < 0;
  const f = filling ? usage.forecasts.find((g) => (g.target === 'high' || g.target === 'full') && g.days !== null) : empty;
  if (!f || f.at === null || f.earliest === null || f.latest === null) return null;
  const mmPerUnit = unit === 'Inches' ? 25.4 : 1000;
  const y1 = mode === 'volume' ? f.volume : f.levelMm / mmPerUnit;
  const span = window.end - window.start;
  const xMax = Math.min(Math.max(f.at, f.latest), window.end + FORECAST_SHARE * span);
  const [x0, y0, x1] = [last.time, last.value, f.at / 1000];
  let points: [number, number][] = [
    [x0, y0],
    [x1, y1],
  ];
  const conversion = sensor.conversionConfigs[0] ?? null;
  if (mode === 'level' && isVolume(conversion)) {
    // the same conversion (and offset) the usage analysis took the volumes from
    const p = conversionParams('volume', sensor.displayInfo.offsetMeasurement ?? null, conversion, 'Metres');
    const levels = levelPath(p, y0 * mmPerUnit, f.levelMm, LEVEL_STEPS);
    points = levels.map((mm, i) => [x0 + ((x1 - x0) * i) / LEVEL_STEPS, mm / mmPerUnit]);
    points[0] = [x0, y0];
    points[LEVEL_STEPS] = [x1, y1];
  }
  return {
    x0,
    y0,
    x1,
    y1,
    early: Math.min(f.earliest, f.latest) / 1000,
    late: Math.max(f.earliest, f.latest) / 1000,
    xMax: Math.max(window.end, xMax) / 1000,
    label: filling ? 'Forecast: full' : 'Forecast: empty',
    points,
  };
}

/**
 * The band's outline: from the latest point along the line's shape to the target at the early
 * crossing, back along it from the late crossing. Each edge is the line's points with time scaled
 * to end at its crossing (the same volumes, reached sooner or later), so in Water Level mode the
 * band bends as the line does.
 */
export function forecastBand(f: Pick<ForecastLine, 'x0' | 'x1' | 'early' | 'late' | 'points'>): [x: number, y: number][] {
  const span = f.x1 - f.x0;
  const edge = (end: number) => f.points.map(([x, y]): [number, number] => [span > 0 ? f.x0 + ((x - f.x0) * (end - f.x0)) / span : end, y]);
  return [...edge(f.early), ...edge(f.late).reverse()];
}

/** The line's y at x (linear between its points), clamped to its ends: where the label sits. */
export function forecastYAt(points: readonly [number, number][], x: number): number {
  const first = points[0]!;
  if (x <= first[0]) return first[1];
  for (let i = 1; i < points.length; i++) {
    const [bx, by] = points[i]!;
    const [ax, ay] = points[i - 1]!;
    if (x <= bx) return bx > ax ? ay + ((by - ay) * (x - ax)) / (bx - ax) : by;
  }
  return points.at(-1)![1];
}
