import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from './core';
import { refUsageDayRows, refUsageFillRows } from './reference/csv';
import { core, syntheticTank } from './test-kit';
import { zoneOffsets } from './timezone';
import { analyseUsage, dayBounds } from './usage';
import { buildUsageCsv } from './usage-file';

// Issue 38: the usage export's rows are written by the core, the same as the reference.
const c = await core();
const ZONE = 'Pacific/Auckland';
const T0 = Date.UTC(2026, 2, 20); // across the end of New Zealand's daylight saving (5 April)

describe('usage CSV rows', () => {
  it('daily and fill rows are the reference’s, in every format, across a daylight-saving change', () => {
    const num = fc.double({ min: -1e7, max: 1e7, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.record({ use: num, covered: fc.double({ min: 0, max: 9e7, noNaN: true }), fills: fc.integer({ min: 0, max: 5 }), filled: num }), { maxLength: 40 }),
        fc.array(fc.record({ start: fc.integer({ min: T0, max: T0 + 40 * 86_400_000 }), len: fc.integer({ min: 0, max: 7_200_000 }), volume: num }), { maxLength: 20 }),
        fc.constantFrom(...EXPORT_FORMATS),
        fc.boolean(),
        (skip, raw, fillRaw, format, tank) => {
          const { bounds } = dayBounds(ZONE, T0 + skip * 86_400_000, T0 + (skip + raw.length) * 86_400_000);
          const days = raw.slice(0, bounds.length - 1);
          const fills = fillRaw.map((f) => ({ start: f.start, end: f.start + f.len, volume: f.volume, before: 0, after: f.volume }));
          const zone = zoneOffsets(ZONE, T0 - 86_400_000, T0 + 90 * 86_400_000);
          const got = c.usageCsvRows(days, bounds, tank, fills, format, zone);
          expect(got.days).toBe(refUsageDayRows(days, bounds, tank, zone));
          expect(got.fills).toBe(refUsageFillRows(fills, format, zone));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a tank’s file: one row a local day, then its fills; the sensor name is a safe text cell', () => {
    const tank = syntheticTank({ seed: 4, start: T0, days: 30, stepMin: 5, start_volume: 9000, weekday: [600, 1400, 1500, 1450, 1550, 1300, 700], fill: 8000, refillBelow: 2500 });
    const sensor = { offsetMeasurement: 3000, conversionConfigs: [{ type: 'VOLUME_CYLINDER' as const, diameter: 2.5 }], alarms: {} };
    const usage = analyseUsage(c, sensor, tank, { timeZone: ZONE, startTime: T0, endTime: T0 + 30 * 86_400_000 })!;
    const { csv, filename } = buildUsageCsv(c, usage, { sensorName: '=Tank, north', serial: '2B3C4D5E', timeZone: ZONE, format: 'Default', nowMs: T0 + 30 * 86_400_000 });
    expect(filename).toMatch(/^Tank,_north_usage_2B3C4D5E_\d{8}-\d{6}\.csv$/);
    const [daysPart, fillsPart] = csv.split('\r\n\r\n');
    const dayLines = daysPart.split('\r\n');
    expect(dayLines[0]).toBe(`Date (${ZONE}),"'=Tank, north - Use (l)",Covered (h),Fills,Filled (l)`);
    expect(dayLines.length - 1).toBe(usage.days.length);
    expect(dayLines[1].split(',')[0]).toBe(usage.days[0].date);
    // 5 April 2026 is 25 hours long in Auckland
    const long = dayLines.find((l) => l.startsWith('2026-04-05'))!;
    expect(long.split(',')[2]).toBe('25.0');
    const fillLines = fillsPart.trimEnd().split('\r\n');
    expect(fillLines.length - 1).toBe(usage.kind === 'volume' ? usage.fills.length : -1);
    expect(fillLines.length).toBeGreaterThan(1);
  });
});
