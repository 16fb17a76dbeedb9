import { describe, expect, it } from 'vitest';
import { aboutDays, bandDays, formatCubicMetres, formatLitres, shortDate } from './usage-format';

describe('usage pane texts (issue 38)', () => {
  it('says about N days, whole and rounded, and less than a day under half a day', () => {
    expect(aboutDays(0.2)).toBe('less than a day');
    expect(aboutDays(0.6)).toBe('about 1 day');
    expect(aboutDays(6.4)).toBe('about 6 days');
    expect(aboutDays(6.5)).toBe('about 7 days');
  });
  it('writes the band as whole days', () => {
    expect(bandDays(4.6, 8.2)).toBe('5 to 8 days');
    expect(bandDays(0.9, 1.2)).toBe('1 day');
    expect(bandDays(null, 3)).toBeNull();
  });
  it('formats litres and cubic metres, a dash for nothing', () => {
    expect(formatLitres(12345.6)).toBe('12,346 L');
    expect(formatLitres(null)).toBe('–');
    expect(formatCubicMetres(36.66)).toBe('36.7 m³');
    expect(formatCubicMetres(Number.NaN)).toBe('–');
  });
  it('dates in the organisation’s zone', () => {
    // 2026-08-13 20:00 UTC is Friday morning in Auckland
    expect(shortDate(Date.UTC(2026, 7, 13, 20), 'Pacific/Auckland')).toBe('Fri 14 Aug');
    expect(shortDate(Date.UTC(2026, 7, 13, 20), 'UTC')).toBe('Thu 13 Aug');
  });
});
