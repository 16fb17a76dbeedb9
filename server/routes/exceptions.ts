import type { MeterException } from '../../src/contract/route.schema';
import { DEFAULT_PERIOD_DAYS, IMPLAUSIBLE_FACTOR, TYPICAL_DAILY_USE, periodDays } from '../../src/domain/meter-plausibility';

/**
 * The meter-reading exception rule (our choice; docs/service-routes.md, "Meter-reading exceptions"). Checked in
 * this order, the first that holds wins:
 * 1. CantRead: a can't-read code is set (or no value).
 * 2. Without a previous reading there is nothing to compare: ServiceRequired if flagged, else NoError.
 * 3. Abnormal: the change is implausible for a water meter, more than ABNORMAL_CHANGE units either
 *    way or more than ABNORMAL_DAILY units a day (misread digit, rollover, replaced meter).
 * 4. NegativeConsumption: the value is below the previous reading.
 * 5. NoConsumption: the value equals the previous reading.
 * 6. HighConsumption: more than HIGH_DAILY units a day since the previous reading (its date when
 *    known, else DEFAULT_PERIOD_DAYS, a council quarter).
 * 7. ServiceRequired: the reader flagged the meter for service.
 * 8. NoError.
 */
export const ABNORMAL_CHANGE = 10_000;
export const ABNORMAL_DAILY = 50;
/** Three times the typical daily use: the reader app's plausibility limit (src/domain/meter-plausibility.ts). */
export const HIGH_DAILY = IMPLAUSIBLE_FACTOR * TYPICAL_DAILY_USE;
export { DEFAULT_PERIOD_DAYS };

export interface ExceptionInput {
  value: number | null;
  cantReadCode: string | null;
  serviceRequired: boolean;
  recordedAt: number;
  /** The previous reading's value, or null when the meter has none. */
  previous: number | null;
  /** The previous reading's date (epoch ms), when known. */
  previousAt: number | null;
}

export function meterException(r: ExceptionInput): MeterException {
  if (r.cantReadCode || r.value === null || r.value < 0) return 'CantRead';
  if (r.previous === null || r.previous < 0) return r.serviceRequired ? 'ServiceRequired' : 'NoError';
  const change = r.value - r.previous;
  const days = periodDays(r.recordedAt, r.previousAt);
  if (Math.abs(change) > ABNORMAL_CHANGE || change / days > ABNORMAL_DAILY) return 'Abnormal';
  if (change < 0) return 'NegativeConsumption';
  if (change === 0) return 'NoConsumption';
  if (change / days > HIGH_DAILY) return 'HighConsumption';
  return r.serviceRequired ? 'ServiceRequired' : 'NoError';
}
