import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { tzDate } from './tz-date';

const fields = (d: Date) => [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];

describe('chart x axis in the organisation time zone (monitoring-client 9: main zone Pacific/Auckland)', () => {
  it('shows the wall time of the zone, across the 2026 daylight-saving changes', () => {
    const start = Date.UTC(2026, 3, 4, 10); // 5 Apr 2026, NZDT ends; the range runs past September's start
    for (const zone of ['Pacific/Auckland', 'Australia/Sydney', 'America/New_York', 'UTC']) {
      for (let h = 0; h < 24 * 200; h += 7) {
        const ts = start / 1000 + h * 3600 + 17 * 60 + 5;
        const wall = DateTime.fromSeconds(ts, { zone });
        // uPlot draws the Date's local fields, so they must read as the zone's wall clock (the
        // local hour that a spring-forward skips cannot be shown; no tick in these zones lands there here)
        expect(fields(tzDate(ts, zone)), `${zone} ${wall.toISO()}`).toEqual([wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second]);
      }
    }
  });
  it('returns a fresh Date each time, so a caller changing it does not change the next answer', () => {
    const a = tzDate(1_790_000_000, 'Pacific/Auckland');
    a.setFullYear(1999);
    expect(tzDate(1_790_000_000, 'Pacific/Auckland').getFullYear()).toBe(2026);
  });
});
