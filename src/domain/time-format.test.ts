import { describe, expect, it } from 'vitest';
import { durationText, formatTime, timeAgo } from './time-format';

const T = Date.UTC(2026, 2, 10, 1, 5); // 14:05 in Auckland (NZDT)

describe('time display (user displaySettings.timeDisplay: Friendly or AmericanLocal)', () => {
  it('Friendly uses day month year and a 24-hour clock in the organisation time zone', () => {
    expect(formatTime(T, 'Friendly', 'Pacific/Auckland')).toBe('10 Mar 2026, 14:05');
  });
  it('AmericanLocal uses month day year and a 12-hour clock', () => {
    expect(formatTime(T, 'AmericanLocal', 'Pacific/Auckland')).toBe('Mar 10, 2026, 2:05 PM');
  });
  it('says how long ago and how long', () => {
    expect(timeAgo(T - 10_000, T)).toBe('just now');
    expect(timeAgo(T - 5 * 60_000, T)).toBe('5 minutes ago');
    expect(timeAgo(T - 3 * 3600_000, T)).toBe('3 hours ago');
    expect(durationText(125 * 60_000)).toBe('2 h 5 min');
  });
});
