import { DateTime } from 'luxon';

/** The chart's date presets (monitoring-client 4); Last 3 Days is the default. */
export const DATE_PRESETS = ['today', 'last3Days', 'last30Days', 'thisMonth', 'lastMonth', 'custom'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export const DEFAULT_PRESET: Exclude<DatePreset, 'custom'> = 'last3Days';

export const PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today',
  last3Days: 'Last 3 Days',
  last30Days: 'Last 30 Days',
  thisMonth: 'This Month',
  lastMonth: 'Last Month',
  custom: 'Custom',
};

/** A time range in epoch ms, both ends inclusive. */
export interface TimeRange {
  start: number;
  end: number;
}

/**
 * The range a preset stands for at `now`, with day and month boundaries in the organisation's
 * time zone. "Last N Days" is rolling (now minus N days, DST-aware); calendar presets start at
 * midnight. Presets end at now: nothing later exists yet. Last Month ends at its last ms.
 */
export function presetRange(preset: Exclude<DatePreset, 'custom'>, now: number, timeZone: string): TimeRange {
  const t = DateTime.fromMillis(now, { zone: timeZone });
  switch (preset) {
    case 'today':
      return { start: t.startOf('day').toMillis(), end: now };
    case 'last3Days':
      return { start: t.minus({ days: 3 }).toMillis(), end: now };
    case 'last30Days':
      return { start: t.minus({ days: 30 }).toMillis(), end: now };
    case 'thisMonth':
      return { start: t.startOf('month').toMillis(), end: now };
    case 'lastMonth': {
      const thisMonth = t.startOf('month');
      return { start: thisMonth.minus({ months: 1 }).toMillis(), end: thisMonth.toMillis() - 1 };
    }
  }
}

/** End of the organisation's today: the latest end a date query or a picked range may have. */
export const endOfToday = (now: number, timeZone: string) => DateTime.fromMillis(now, { zone: timeZone }).endOf('day').toMillis();

const MS = /^\d+(\.\d+)?$/;

/**
 * The date query rule (monitoring-client 5): start and end are valid non-negative numbers,
 * start <= end, start not in the future; end is capped at the end of today. Anything else: null.
 */
export function parseDateQuery(start: string | null | undefined, end: string | null | undefined, now: number, timeZone: string): TimeRange | null {
  if (!start || !end || !MS.test(start.trim()) || !MS.test(end.trim())) return null;
  const s = Math.floor(Number(start));
  const e = Math.floor(Number(end));
  if (!Number.isFinite(s) || !Number.isFinite(e) || s > e || s > now) return null;
  return { start: s, end: Math.min(e, endOfToday(now, timeZone)) };
}

/**
 * A range picked as calendar days ('YYYY-MM-DD', as the date picker gives them): from the first
 * day's midnight to the last day's end in the organisation's zone, capped at the end of today.
 */
export function pickedDaysRange(firstDay: string, lastDay: string, now: number, timeZone: string): TimeRange | null {
  const a = DateTime.fromISO(firstDay, { zone: timeZone });
  const b = DateTime.fromISO(lastDay, { zone: timeZone });
  if (!a.isValid || !b.isValid) return null;
  const [from, to] = a <= b ? [a, b] : [b, a];
  const start = from.startOf('day').toMillis();
  if (start > now) return null;
  return { start, end: Math.min(to.endOf('day').toMillis(), endOfToday(now, timeZone)) };
}

/** The calendar day ('YYYY-MM-DD') an instant falls on in the organisation's zone. */
export const dayOf = (ms: number, timeZone: string) => DateTime.fromMillis(ms, { zone: timeZone }).toISODate()!;
