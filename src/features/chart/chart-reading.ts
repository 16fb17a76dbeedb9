import { DateTime } from 'luxon';
import type { CursorStep } from '../../../machines/chart.machine';
import type { ViewResult } from '../../../workers/data-api';

/**
 * The chart in words (issue 16): a drawn point as a screen reader hears it, and a summary of the
 * drawn window (range, lowest, highest, latest, trend). Times are in the chosen zone, values in
 * the chart's unit with its decimals.
 */

/** The viewer's own time zone (the browser's). */
export const viewerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** "Tue 17 Nov 2026, 14:05 NZDT" for an x in epoch seconds. */
export function timeText(seconds: number, zone: string): string {
  return DateTime.fromSeconds(seconds, { zone, locale: 'en-NZ' }).toFormat('ccc d LLL yyyy, HH:mm ZZZZ');
}

export const valueText = (value: number, unit: string, decimals: number) => `${value.toFixed(decimals)} ${unit}`;

/** What the live region says when the keyboard cursor lands on point `i`. */
export function pointText(view: ViewResult, i: number, zone: string, unit: string, decimals: number): string {
  return `${timeText(view.time[i]!, zone)}: ${valueText(view.value[i]!, unit, decimals)}. Point ${i + 1} of ${view.time.length}.`;
}

export type Trend = 'rising' | 'falling' | 'steady';

/**
 * First to latest drawn value: a change under 2% of the drawn span (or none) is steady.
 */
export function trendOf(view: ViewResult): { trend: Trend; change: number } {
  const n = view.time.length;
  if (n < 2) return { trend: 'steady', change: 0 };
  const change = view.value[n - 1]! - view.value[0]!;
  const span = view.max - view.min;
  if (span === 0 || Math.abs(change) < span * 0.02) return { trend: 'steady', change };
  return { trend: change > 0 ? 'rising' : 'falling', change };
}

/** The summary a screen reader gets for the drawn window. */
export function summaryText(view: ViewResult, label: string, zone: string, unit: string, decimals: number): string {
  const n = view.time.length;
  if (n === 0) return `${label}: no measurements in this window.`;
  let lo = 0;
  let hi = 0;
  for (let i = 1; i < n; i++) {
    if (view.value[i]! < view.value[lo]!) lo = i;
    if (view.value[i]! > view.value[hi]!) hi = i;
  }
  const at = (i: number) => `${valueText(view.value[i]!, unit, decimals)} at ${timeText(view.time[i]!, zone)}`;
  const { trend, change } = trendOf(view);
  const trendText = trend === 'steady' ? 'steady over the window' : `${trend} by ${valueText(Math.abs(change), unit, decimals)} over the window`;
  return [
    `${label} from ${timeText(view.time[0]!, zone)} to ${timeText(view.time[n - 1]!, zone)}, ${view.rawPoints.toLocaleString('en-NZ')} measurements.`,
    `Lowest ${at(lo)}.`,
    `Highest ${at(hi)}.`,
    `Latest ${at(n - 1)}.`,
    `Trend: ${trendText}.`,
  ].join(' ');
}

/** The keys of the chart's keyboard cursor. */
export const CURSOR_KEYS: Record<string, CursorStep> = {
  ArrowRight: 'next',
  ArrowDown: 'next',
  ArrowLeft: 'prev',
  ArrowUp: 'prev',
  Home: 'first',
  End: 'last',
  PageDown: 'dayNext',
  PageUp: 'dayPrev',
};
