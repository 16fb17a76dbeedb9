import type { MeasurementError } from '../contract/measurement.schema';
import { moduleOf } from './sensor-types';

/** Measurement error codes (monitoring-client 8) with the label and help text the page shows. */
export const ERROR_CODES = {
  E1: { label: 'Bad Sensor', help: 'An internal error. Contact support if it continues.' },
  E2: { label: 'Too Far', help: 'The surface is further away than the sensor can measure. Adjust its position.' },
  E3: { label: 'Too Close', help: 'The surface is closer than the sensor can measure.' },
  E4: { label: 'Gradient', help: 'The measurement was outside the delta filter range and was not recorded.' },
  E9: { label: 'Out of Range', help: 'The measurement was outside the sensor\'s range.' },
  E5: { label: 'Nothing Found', help: 'The radar had difficulty detecting the water surface.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** 'E2', 'e2' and '2' are the same code. */
export function normaliseErrorCode(raw: string): string {
  const t = raw.trim().toUpperCase();
  return /^\d+$/.test(t) ? `E${t}` : t;
}

/** The code's label; E5 is a radar code only; anything else is Unknown. */
export function errorLabel(code: string, sensorType?: string): string {
  const c = normaliseErrorCode(code) as ErrorCode;
  if (!(c in ERROR_CODES)) return 'Unknown';
  if (c === 'E5' && sensorType !== undefined && moduleOf(sensorType) !== 'radar') return 'Unknown';
  return ERROR_CODES[c].label;
}

export function errorHelp(code: string): string | undefined {
  const c = normaliseErrorCode(code) as ErrorCode;
  return c in ERROR_CODES ? ERROR_CODES[c].help : undefined;
}

export type ErrorSort = 'desc' | 'asc';
export const ERROR_SORT_OPTIONS: { value: ErrorSort; label: string }[] = [
  { value: 'desc', label: 'Time (newest first)' },
  { value: 'asc', label: 'Time (oldest first)' },
];

/** Error filters (monitoring-client 4); Bad Position covers the readings a better mounting fixes. */
export const ERROR_FILTERS = ['None', 'Bad Sensor', 'Gradient', 'Too Close', 'Too Far', 'Bad Position'] as const;
export type ErrorFilter = (typeof ERROR_FILTERS)[number];
const FILTER_CODES: Record<Exclude<ErrorFilter, 'None'>, string[]> = {
  'Bad Sensor': ['E1'],
  Gradient: ['E4'],
  'Too Close': ['E3'],
  'Too Far': ['E2'],
  'Bad Position': ['E2', 'E3', 'E5', 'E9'],
};

/** Filters then sorts by time (descending by default). */
export function sortAndFilterErrors(errors: readonly MeasurementError[], filter: ErrorFilter = 'None', sort: ErrorSort = 'desc'): MeasurementError[] {
  const kept = filter === 'None' ? [...errors] : errors.filter((e) => FILTER_CODES[filter].includes(normaliseErrorCode(e.code)));
  return kept.sort((a, b) => (sort === 'desc' ? b.time - a.time : a.time - b.time));
}

export interface ErrorSummary {
  total: number;
  /** Count per label, most frequent first. */
  counts: { code: string; label: string; count: number }[];
  /** Mean time between errors in ms; only with more than 2 errors. */
  averageIntervalMs: number | undefined;
  first: number | undefined;
  last: number | undefined;
}

/** The analysis summary: counts per code and, with more than 2 errors, the average frequency. */
export function summariseErrors(errors: readonly MeasurementError[], sensorType?: string): ErrorSummary {
  const counts = new Map<string, number>();
  for (const e of errors) counts.set(normaliseErrorCode(e.code), (counts.get(normaliseErrorCode(e.code)) ?? 0) + 1);
  const times = errors.map((e) => e.time);
  const first = times.length ? Math.min(...times) : undefined;
  const last = times.length ? Math.max(...times) : undefined;
  return {
    total: errors.length,
    counts: [...counts].map(([code, count]) => ({ code, label: errorLabel(code, sensorType), count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    averageIntervalMs: errors.length > 2 && first !== undefined && last !== undefined ? (last - first) / (errors.length - 1) : undefined,
    first,
    last,
  };
}
