import type { TimeRange } from '../../domain/date-presets';
import type { DataMode, UsageResult } from '../../../workers/data-api';
import type { Unit } from './chart-scales';

/**
 * The tank forecast drawn on the chart (issue 38): a dashed line from the latest point to the
 * target (empty, or full for a filling tank) at the rolling daily use, with its band (the early and
 * late crossings) shaded. Drawn in Water Volume and Water Level modes only, never in the data: the
 * tooltip, the table and the CSV know nothing of it.
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
  /** Where the x axis is taken to so the forecast is seen (epoch s): half the window past its end at most. */
  xMax: number;
  label: string;
}

/** How far past the picked window's end the axis may go to show a forecast, as a share of the window. */
export const FORECAST_SHARE = 0.5;

export function forecastLine(
  usage: UsageResult | null,
  mode: DataMode,
  unit: Unit,
  window: TimeRange | null,
  last: { time: number; value: number } | null,
): ForecastLine | null {
  if (!usage || usage.kind !== 'volume' || !window || !last || (mode !== 'volume' && mode !== 'level')) return null;
  const lastTime = usage.summary.lastTime;
  // only a window reaching the latest data is continued (not a past range, not a zoom into the past)
  if (lastTime === null || window.end < lastTime || Math.abs(last.time * 1000 - lastTime) > 60_000) return null;
  const empty = usage.forecasts.find((f) => f.target === 'empty');
  const filling = (empty?.rate ?? 0) < 0;
  const f = filling ? usage.forecasts.find((g) => (g.target === 'high' || g.target === 'full') && g.days !== null) : empty;
  if (!f || f.at === null || f.earliest === null || f.latest === null) return null;
  const y1 = mode === 'volume' ? f.volume : unit === 'Inches' ? f.levelMm / 25.4 : f.levelMm / 1000;
  const span = window.end - window.start;
  const xMax = Math.min(Math.max(f.at, f.latest), window.end + FORECAST_SHARE * span);
  return {
    x0: last.time,
    y0: last.value,
    x1: f.at / 1000,
    y1,
    early: Math.min(f.earliest, f.latest) / 1000,
    late: Math.max(f.earliest, f.latest) / 1000,
    xMax: Math.max(window.end, xMax) / 1000,
    label: filling ? 'Forecast: full' : 'Forecast: empty',
  };
}
