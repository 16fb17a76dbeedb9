import { endOfDay } from './notification-rules';

/** A chart or error range from the URL query, or undefined when it is not valid (monitoring-client 5). */
export interface DateRange {
  start: number;
  end: number;
}

/**
 * Date query: start and end valid non-negative numbers, start <= end, start not in the future;
 * the end is capped at the end of today.
 */
export function parseDateQuery(start: string | null | undefined, end: string | null | undefined, now: number): DateRange | undefined {
  if (start === null || start === undefined || end === null || end === undefined || start.trim() === '' || end.trim() === '') return undefined;
  const s = Number(start);
  const e = Number(end);
  if (!Number.isFinite(s) || !Number.isFinite(e) || s < 0 || e < 0) return undefined;
  if (s > e || s > now) return undefined;
  return { start: s, end: Math.min(e, endOfDay(now)) };
}

/** Loading measurement errors requires start not greater than end. */
export const isLoadableRange = (r: DateRange) => r.start <= r.end;
