import { describe, expect, it } from 'vitest';
import { parseDateQuery } from './date-query';
import { endOfDay } from './notification-rules';

const NOW = new Date(2026, 4, 20, 9, 30).getTime();

describe('date query validation (monitoring-client 5)', () => {
  it('accepts valid non-negative numbers with start <= end', () => {
    expect(parseDateQuery('1000', '2000', NOW)).toEqual({ start: 1000, end: 2000 });
    expect(parseDateQuery('1000', '1000', NOW)).toEqual({ start: 1000, end: 1000 });
  });
  it('rejects missing, non-numeric and negative values', () => {
    expect(parseDateQuery(null, '2000', NOW)).toBeUndefined();
    expect(parseDateQuery('abc', '2000', NOW)).toBeUndefined();
    expect(parseDateQuery('-1', '2000', NOW)).toBeUndefined();
    expect(parseDateQuery('', '2000', NOW)).toBeUndefined();
  });
  it('rejects start after end and a start in the future', () => {
    expect(parseDateQuery('3000', '2000', NOW)).toBeUndefined();
    expect(parseDateQuery(String(NOW + 1), String(NOW + 2), NOW)).toBeUndefined();
  });
  it('caps the end at the end of today', () => {
    expect(parseDateQuery(String(NOW - 1000), String(NOW + 10 * 86_400_000), NOW)).toEqual({ start: NOW - 1000, end: endOfDay(NOW) });
  });
});
