import fc from 'fast-check';
import { DateTime } from 'luxon';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { conversionParams, KIND } from './conversion';
import { EXPORT_FORMATS, type ExportFormat } from './core';
import { buildCsv, exportFileName, neutraliseCell, textCell } from './csv-file';
import { refCsvRows } from './reference/csv';
import { zoneOffsets } from './timezone';
import { core, series } from './test-kit';

// monitoring-client.md 7 and 9: CSV generated on the client from full resolution, named from
// sensor name, serial and timestamp, formats Default, DD/MM/YYYY HH:mm:ss, ISO8601 local and
// ISO8601 UTC, main zone Pacific/Auckland; OWASP CSV injection rule for text cells.
const c = await core();
const level = conversionParams('level', 3000, null, 'Metres');

function storeOf(time: ArrayLike<number>, value: ArrayLike<number>) {
  const s = c.newStore();
  c.merge(s, time, value);
  return s;
}

describe('csvRows', () => {
  it('agrees with the reference on random series, formats, decimals, conversions and offset tables', () => {
    const zone = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: -14 * 60, max: 14 * 60 })), { maxLength: 5 })
      .map((rows) => {
        const sorted = rows.sort((a, b) => a[0] - b[0]);
        return {
          at: Float64Array.from([-Infinity, ...sorted.map(([dt]) => 1_700_000_000_000 + dt * 1000)]),
          offset: Float64Array.from([46_800_000, ...sorted.map(([, m]) => m * 60_000)]),
        };
      });
    fc.assert(
      fc.property(series(400), zone, fc.constantFrom(...EXPORT_FORMATS), fc.integer({ min: 0, max: 4 }), fc.constantFrom(KIND.LEVEL, KIND.WEIR_FLOW_VN, KIND.VOLUME_CYLINDER), (s, z, fmt, dec, kind) => {
        const p = { kind, offsetMm: 2000, inches: false, a: 1.5, b: 1.2, c: 2.5 };
        const store = storeOf(s.time, s.value);
        const got = c.csvRows(store, 0, s.time.length, fmt, dec, p, z);
        c.freeStore(store);
        expect(got).toBe(refCsvRows(s.time, s.value, fmt, dec, p, z));
      }),
      { numRuns: 200 },
    );
  });

  it('writes Pacific/Auckland local times across both daylight-saving changes exactly as luxon does', () => {
    const start = Date.UTC(2026, 2, 30); // NZDT ends 5 April 2026, NZST ends 27 September 2026
    const end = Date.UTC(2026, 9, 5);
    const time: number[] = [];
    for (let t = start; t <= end; t += 37 * 60_000) time.push(t);
    const store = storeOf(time, time.map(() => 1000));
    const zone = zoneOffsets('Pacific/Auckland', start, end);
    expect(zone.at.length).toBe(3);
    const expectFormat = (fmt: ExportFormat, luxonOf: (t: number) => string) => {
      const rows = c.csvRows(store, 0, time.length, fmt, 3, level, zone).trimEnd().split('\r\n');
      rows.forEach((row, i) => expect(row).toBe(`${luxonOf(time[i])},2.000`));
    };
    const local = (t: number) => DateTime.fromMillis(t, { zone: 'Pacific/Auckland' });
    expectFormat('Default', (t) => local(t).toFormat('yyyy-MM-dd HH:mm:ss'));
    expectFormat('DD/MM/YYYY HH:mm:ss', (t) => local(t).toFormat('dd/MM/yyyy HH:mm:ss'));
    expectFormat('ISO8601 local', (t) => local(t).toISO({ suppressMilliseconds: true })!);
    expectFormat('ISO8601 UTC', (t) => new Date(t).toISOString().replace('.000Z', 'Z'));
    c.freeStore(store);
  }, 30_000);

  it('writes values with the display decimals: metres 3, inches 1, negative levels as numbers', () => {
    const store = storeOf([0, 60_000], [2500, 3125]);
    const z = zoneOffsets('UTC', 0, 60_000);
    expect(c.csvRows(store, 0, 2, 'ISO8601 UTC', 3, level, z)).toBe('1970-01-01T00:00:00Z,0.500\r\n1970-01-01T00:01:00Z,-0.125\r\n');
    const inches = conversionParams('level', 3000, null, 'Inches');
    expect(c.csvRows(store, 0, 1, 'Default', 1, inches, z)).toBe('1970-01-01 00:00:00,19.7\r\n');
    c.freeStore(store);
  });
});

describe('the export file', () => {
  it('neutralises text cells that begin with = + - @ tab or CR, and only those', () => {
    for (const bad of ['=SUM(A1)', '+1', '-2+3', '@cmd', '\tx', '\rx']) expect(neutraliseCell(bad)).toBe(`'${bad}`);
    expect(neutraliseCell('Main Reservoir')).toBe('Main Reservoir');
    expect(textCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('names the file from sensor name, serial and the export time in the zone', () => {
    const now = Date.UTC(2026, 0, 21, 2, 30, 0);
    expect(exportFileName('Main Reservoir', '1A2B3C4D', 'Pacific/Auckland', now)).toBe('Main_Reservoir_1A2B3C4D_20260121-153000.csv');
    expect(exportFileName('a/b:c', undefined, 'UTC', now)).toBe('a_b_c_20260121-023000.csv');
  });

  it('has a header row, one row per stored point in range, a neutralised sensor name, and parses back', () => {
    const time = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1), Date.UTC(2026, 0, 1, 0, 2), Date.UTC(2026, 0, 1, 0, 3)];
    const store = storeOf(time, [1000, 4000, 2999.5, 500]);
    const out = buildCsv(c, store, {
      startTime: time[1],
      endTime: time[2],
      format: 'DD/MM/YYYY HH:mm:ss',
      timeZone: 'Pacific/Auckland',
      sensorName: '=cmd|calc',
      serial: '1A2B3C4D',
      params: level,
      nowMs: time[0],
    });
    c.freeStore(store);
    expect(out.rows).toBe(2);
    expect(out.filename).toBe('cmd_calc_1A2B3C4D_20260101-130000.csv');
    const parsed = Papa.parse<string[]>(out.csv.trimEnd(), { newline: '\r\n' }).data;
    expect(parsed).toEqual([
      ['Time (Pacific/Auckland)', "'=cmd|calc - Water Level (m)"],
      ['01/01/2026 13:01:00', '-1.000'],
      ['01/01/2026 13:02:00', '0.001'],
    ]);
  });

  it('rejects an unknown time zone with a clear message', () => {
    const store = storeOf([0], [0]);
    expect(() => buildCsv(c, store, { startTime: 0, endTime: 1, format: 'Default', timeZone: 'Mars/Olympus', sensorName: 'x', params: level, nowMs: 0 })).toThrow(
      'Unknown time zone: Mars/Olympus',
    );
    c.freeStore(store);
  });
});
