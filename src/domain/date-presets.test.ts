import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { endOfToday, parseDateQuery, pickedDaysRange, presetRange } from './date-presets';

const NZ = 'Pacific/Auckland';
const at = (iso: string, zone = NZ) => DateTime.fromISO(iso, { zone }).toMillis();

describe('date presets (monitoring-client 4): day boundaries in the organisation time zone', () => {
  const now = at('2026-03-15T09:30:00');

  it('Today starts at the organisation midnight, not the browser or UTC midnight', () => {
    expect(presetRange('today', now, NZ)).toEqual({ start: at('2026-03-15T00:00:00'), end: now });
    // 09:30 in Auckland is still 14 March in UTC: the UTC day would start 13 hours later
    expect(presetRange('today', now, 'UTC').start).toBe(at('2026-03-14T00:00:00', 'UTC'));
  });

  it('Last 3 Days and Last 30 Days are rolling windows ending now', () => {
    expect(presetRange('last3Days', now, NZ)).toEqual({ start: at('2026-03-12T09:30:00'), end: now });
    expect(presetRange('last30Days', now, NZ)).toEqual({ start: at('2026-02-13T09:30:00'), end: now });
  });

  it('Last 3 Days keeps wall-clock time across the April DST change (73 hours that week)', () => {
    const afterDst = at('2026-04-06T12:00:00'); // NZDT ended 5 April 2026 at 03:00
    const r = presetRange('last3Days', afterDst, NZ);
    expect(r.start).toBe(at('2026-04-03T12:00:00'));
    expect((r.end - r.start) / 3_600_000).toBe(73);
  });

  it('This Month starts on the 1st; Last Month is the whole previous calendar month', () => {
    expect(presetRange('thisMonth', now, NZ)).toEqual({ start: at('2026-03-01T00:00:00'), end: now });
    expect(presetRange('lastMonth', now, NZ)).toEqual({ start: at('2026-02-01T00:00:00'), end: at('2026-03-01T00:00:00') - 1 });
    const january = at('2026-01-10T08:00:00');
    expect(presetRange('lastMonth', january, NZ)).toEqual({ start: at('2025-12-01T00:00:00'), end: at('2026-01-01T00:00:00') - 1 });
  });
});

describe('date query (monitoring-client 5)', () => {
  const now = at('2026-03-15T09:30:00');
  const q = (s: string | null, e: string | null) => parseDateQuery(s, e, now, NZ);

  it('accepts valid non-negative numbers with start <= end', () => {
    const s = at('2026-03-10T00:00:00');
    const e = at('2026-03-11T00:00:00');
    expect(q(String(s), String(e))).toEqual({ start: s, end: e });
    expect(q('0', '0')).toEqual({ start: 0, end: 0 });
  });

  it('caps end at the end of today', () => {
    expect(q(String(now - 1000), String(now + 30 * 86_400_000))).toEqual({ start: now - 1000, end: endOfToday(now, NZ) });
    expect(endOfToday(now, NZ)).toBe(at('2026-03-15T23:59:59.999'));
  });

  it('rejects missing, non-numeric, negative, reversed and future-start values', () => {
    expect(q(null, '5')).toBeNull();
    expect(q('5', '')).toBeNull();
    expect(q('abc', '5')).toBeNull();
    expect(q('-5', '5')).toBeNull();
    expect(q('1e12', '2e12')).toBeNull();
    expect(q('10', '5')).toBeNull();
    expect(q(String(now + 60_000), String(now + 120_000))).toBeNull();
  });
});

describe('picked days (manual picking gives Custom)', () => {
  const now = at('2026-03-15T09:30:00');
  it('spans whole days in the organisation zone, in either order, capped at the end of today', () => {
    expect(pickedDaysRange('2026-03-01', '2026-03-02', now, NZ)).toEqual({ start: at('2026-03-01T00:00:00'), end: at('2026-03-02T23:59:59.999') });
    expect(pickedDaysRange('2026-03-02', '2026-03-01', now, NZ)).toEqual({ start: at('2026-03-01T00:00:00'), end: at('2026-03-02T23:59:59.999') });
    expect(pickedDaysRange('2026-03-14', '2026-03-20', now, NZ)?.end).toBe(endOfToday(now, NZ));
    expect(pickedDaysRange('2026-03-16', '2026-03-20', now, NZ)).toBeNull();
    expect(pickedDaysRange('nonsense', '2026-03-20', now, NZ)).toBeNull();
  });
});
