import { describe, expect, it } from 'vitest';
import { DAY_MS, needsConfirmation, periodDays, plausibility } from './meter-plausibility';

const T = Date.UTC(2026, 10, 1);

// issue 33 "Plausibility, beyond the spec"
describe('meter plausibility', () => {
  it('shows the consumption against the previous reading; none without a previous reading', () => {
    expect(plausibility({ value: 1040, previous: 1000, previousAt: T - 90 * DAY_MS, recordedAt: T })).toEqual({ kind: 'ok', consumption: 40, days: 90 });
    expect(plausibility({ value: 5, previous: null, previousAt: null, recordedAt: T })).toEqual({ kind: 'no-previous' });
  });

  it('a negative consumption asks for confirmation', () => {
    const p = plausibility({ value: 990, previous: 1000, previousAt: T - 90 * DAY_MS, recordedAt: T });
    expect(p.kind).toBe('negative');
    expect(needsConfirmation(p)).toBe(true);
  });

  it('above three times the average daily use over the period asks for confirmation; at the limit it does not', () => {
    // 30 days at the typical 1 unit a day: the limit is 90
    expect(plausibility({ value: 1090, previous: 1000, previousAt: T - 30 * DAY_MS, recordedAt: T }).kind).toBe('ok');
    expect(plausibility({ value: 1091, previous: 1000, previousAt: T - 30 * DAY_MS, recordedAt: T })).toMatchObject({ kind: 'high', consumption: 91, limit: 90 });
    // a meter known to use 10 a day
    expect(plausibility({ value: 1500, previous: 1000, previousAt: T - 30 * DAY_MS, recordedAt: T, averageDailyUse: 10 }).kind).toBe('ok');
    // unknown previous date: a quarter; a period under a day counts as one day
    expect(periodDays(T, null)).toBe(90);
    expect(periodDays(T, T - 1000)).toBe(1);
  });

});
