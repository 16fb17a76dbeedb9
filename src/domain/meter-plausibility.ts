/**
 * The reader app's plausibility check (issue 33, beyond the spec): the consumption against the
 * previous reading, shown as it is typed; a negative consumption, or one above three times the
 * meter's average daily use over the period, asks the reader to confirm and requires a photo.
 *
 * The meter's average daily use: a council file carries one previous reading, so the app takes
 * TYPICAL_DAILY_USE (1 unit a day) for every meter; three times it is the server's
 * HighConsumption threshold (server/routes/exceptions.ts HIGH_DAILY = 3 a day), so a reading the
 * app asks to confirm is one the server marks as an exception, with the same period rule.
 */
export const DAY_MS = 86_400_000;
/** Without the previous reading's date the period is a council quarter. */
export const DEFAULT_PERIOD_DAYS = 90;
export const TYPICAL_DAILY_USE = 1;
export const IMPLAUSIBLE_FACTOR = 3;

/** Days between the previous reading and this one: at least 1; a quarter when the date is unknown. */
export function periodDays(recordedAt: number, previousAt: number | null): number {
  return previousAt !== null && recordedAt > previousAt ? Math.max((recordedAt - previousAt) / DAY_MS, 1) : DEFAULT_PERIOD_DAYS;
}

export interface PlausibilityInput {
  value: number;
  previous: number | null;
  previousAt: number | null;
  recordedAt: number;
  /** The meter's average daily use, when known; else TYPICAL_DAILY_USE. */
  averageDailyUse?: number | null;
}

export type Plausibility =
  | { kind: 'no-previous' }
  | { kind: 'ok'; consumption: number; days: number }
  | { kind: 'negative'; consumption: number; days: number }
  | { kind: 'high'; consumption: number; days: number; limit: number };

/** The consumption and whether it needs a confirmation and a photo (negative or high). */
export function plausibility(r: PlausibilityInput): Plausibility {
  if (r.previous === null || r.previous < 0) return { kind: 'no-previous' };
  const consumption = r.value - r.previous;
  const days = periodDays(r.recordedAt, r.previousAt);
  if (consumption < 0) return { kind: 'negative', consumption, days };
  const limit = IMPLAUSIBLE_FACTOR * (r.averageDailyUse ?? TYPICAL_DAILY_USE) * days;
  if (consumption > limit) return { kind: 'high', consumption, days, limit: Math.floor(limit) };
  return { kind: 'ok', consumption, days };
}

export const needsConfirmation = (p: Plausibility) => p.kind === 'negative' || p.kind === 'high';
