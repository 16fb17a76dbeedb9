import { describe, expect, it } from 'vitest';
import { isValidTimeZone, normaliseTimeZone } from './time-zone';
import { formatTime } from './time-format';

describe("the organisation's time zone (monitoring-client 9: NZST maps to a Pacific zone; main zone Pacific/Auckland)", () => {
  it('NZST and NZDT, in any case and with spaces, are Pacific/Auckland', () => {
    expect(['NZST', 'NZDT', ' nzst ', 'nzdt'].map(normaliseTimeZone)).toEqual(Array(4).fill('Pacific/Auckland'));
  });
  it('other abbreviations map to the zone they stand for', () => {
    expect(normaliseTimeZone('AEST')).toBe('Australia/Sydney');
    expect(normaliseTimeZone('AWST')).toBe('Australia/Perth');
    expect(normaliseTimeZone('PST')).toBe('America/Los_Angeles');
    expect(normaliseTimeZone('GMT')).toBe('Etc/UTC');
  });
  it('IANA names stay (canonically spelled); empty, unknown or non-text values are the main zone', () => {
    expect(normaliseTimeZone('Pacific/Auckland')).toBe('Pacific/Auckland');
    expect(normaliseTimeZone('pacific/auckland')).toBe('Pacific/Auckland');
    expect(normaliseTimeZone('Australia/Perth')).toBe('Australia/Perth');
    for (const bad of ['', '  ', 'Mars/Olympus', 'NZST+12', null, undefined, 42]) expect(normaliseTimeZone(bad)).toBe('Pacific/Auckland');
  });
  it('the formatters accept every normalised zone where the raw NZST throws', () => {
    expect(() => formatTime(0, 'Friendly', 'NZST')).toThrow(RangeError);
    expect(formatTime(Date.UTC(2026, 0, 5, 20, 0), 'Friendly', normaliseTimeZone('NZST'))).toMatch(/6 Jan 2026/);
  });
  it('tells a stored value that needs normalising from one that does not', () => {
    expect(isValidTimeZone('Pacific/Auckland')).toBe(true);
    expect(isValidTimeZone('NZST')).toBe(false);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone(' Pacific/Auckland')).toBe(false);
  });
});
