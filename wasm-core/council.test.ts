import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CANT_READ_CODES, COMMENT_CODES, EXCEPTIONS } from '../src/contract/route.schema';
import {
  buildExceptionsFile,
  buildMultiTaskCsv,
  buildResultsFile,
  buildSelectionCsv,
  CSV_COLUMNS,
  csvHeader,
  exceptionsFileName,
  multiTaskFileName,
  resultsFileName,
  selectionFileName,
  type ExportReading,
  type ExportTask,
} from './council-file';
import { refCsvRows, refResultRows } from './reference/council';
import { zoneOffsets } from './timezone';
import { core } from './test-kit';

// organisation-and-routes 3 (exported results file), 7.3 (client-side downloads, CSV columns,
// exceptions rows) and DESIGN.md (pipe-separated, CRLF, rows from 1, positions 15 to 17 blank).
const c = await core();
const ZONE = 'Pacific/Auckland';

/** Text with what breaks files: separators, quotes, formula starters, line breaks, NUL, non-ASCII. */
const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', '"', '|', "'", 'a', 'Z', '7', ' ', 'é', '漢', '😀', '\u0000', '\u0085', '\u009f', '\u00a0', '\u2028', '\u2029', '\u2027'), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
// both daylight-saving changes of 2026 in Auckland and Sydney (offset tables are sampled daily: keep spans short)
const time = fc.integer({ min: Date.UTC(2026, 2, 25), max: Date.UTC(2026, 9, 10) });

const reading: fc.Arbitrary<ExportReading> = fc.record({
  sequence: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 2_147_483_647 })),
  value: maybe(fc.oneof(fc.integer({ min: 0, max: 9_999_999 }), fc.constant(-1), fc.integer({ min: 10_000_000, max: 20_000_000 }))),
  recordedAt: maybe(time),
  recorderName: maybe(nasty),
  completed: fc.boolean(),
  notes: maybe(nasty),
  cantReadCode: maybe(fc.constantFrom(...CANT_READ_CODES)),
  commentCode: maybe(fc.constantFrom(...COMMENT_CODES)),
  exception: maybe(fc.constantFrom(...EXCEPTIONS)),
  serviceRequired: fc.boolean(),
  lastRecordedReading: maybe(fc.integer({ min: -1, max: 9_999_999 })),
  ozoneReference: maybe(nasty),
  meterInfo: fc.record({
    serial: nasty,
    location: nasty,
    propertyAddress: nasty,
    ownerName: nasty,
    valuationRef: nasty,
    additionalLocationInfo: nasty,
    latitude: maybe(fc.double({ min: -90, max: 90, noNaN: true })),
    longitude: maybe(fc.double({ min: -180, max: 180, noNaN: true })),
  }),
});
const task: fc.Arbitrary<ExportTask> = fc.record({
  routeName: nasty.filter((s) => s.length > 0),
  taskNumber: fc.integer({ min: 1, max: 1_000_000 }),
  iterationNumber: maybe(fc.stringMatching(/^[0-9]{1,4}$/)),
});
const zoneName = fc.constantFrom('Pacific/Auckland', 'Australia/Sydney', 'America/St_Johns', 'UTC', 'Asia/Kathmandu');

function zoneFor(tz: string, readings: readonly ExportReading[]) {
  const ts = readings.map((r) => r.recordedAt).filter((t): t is number => t !== null);
  return ts.length ? zoneOffsets(tz, Math.min(...ts), Math.max(...ts)) : { at: new Float64Array(), offset: new Float64Array() };
}

describe('council results file (core against reference)', { timeout: 60_000 }, () => {
  it('is byte for byte the reference on random readings and zones', () => {
    fc.assert(
      fc.property(task, fc.array(reading, { maxLength: 40 }), zoneName, (t, rs, tz) => {
        const file = buildResultsFile(c, t, rs, tz);
        expect(file.content).toBe(refResultRows(t, rs, zoneFor(tz, rs)));
        expect(file.filename).toBe(resultsFileName(t));
      }),
      { numRuns: 150 },
    );
  });

  it('has 17 pipe-separated positions per CRLF row, rows numbered from 1, completed readings only, 15 to 17 blank', () => {
    fc.assert(
      fc.property(task, fc.array(reading, { maxLength: 40 }), (t, rs) => {
        const { content, rows } = buildResultsFile(c, t, rs, ZONE);
        const completed = rs.filter((r) => r.completed);
        expect(rows).toBe(completed.length);
        if (!completed.length) {
          expect(content).toBe('');
          return;
        }
        expect(content.endsWith('\r\n')).toBe(true);
        const lines = content.slice(0, -2).split('\r\n');
        expect(lines).toHaveLength(completed.length);
        lines.forEach((line, i) => {
          const f = line.split('|');
          expect(f).toHaveLength(17);
          expect(f[0]).toBe(String(i + 1));
          expect(f.slice(14)).toEqual(['', '', '']);
          const r = completed[i];
          // (3) sequence divided by 10; (9) reading blank when invalid or -1
          expect(f[2]).toBe(String(r.sequence / 10));
          expect(f[8]).toBe(r.value !== null && r.value >= 0 && r.value <= 9_999_999 ? String(r.value) : '');
          // (11) and (13): notes only with their code
          if (!r.cantReadCode) expect(f[10]).toBe('');
          if (!r.commentCode) expect(f[12]).toBe('');
        });
      }),
      { numRuns: 100 },
    );
  });

  it('hostile text (not in the spec; what a council importer needs): separators and every line break become one space, the text itself stays, no CSV quote prefix', () => {
    const hostile = '=SUM(A1)|x\r\ny\u0085z\u2028w\u2029v\u0007u\u007f@t';
    const r = sample({ completed: true, meterInfo: { ...sample({}).meterInfo, ownerName: hostile, propertyAddress: '+64 Main St\u00a0É' } });
    const { content } = buildResultsFile(c, { routeName: 'R|1', taskNumber: 1, iterationNumber: null }, [r], ZONE);
    expect(content.endsWith('\r\n')).toBe(true);
    const body = content.slice(0, -2);
    // eslint-disable-next-line no-control-regex -- control characters are what must be absent
    expect(body).not.toMatch(/[\r\n\u0085\u2028\u2029\u0000-\u001f\u007f]/);
    const f = body.split('|');
    expect(f).toHaveLength(17);
    expect(f[1]).toBe('R 1');
    expect(f[5]).toBe('+64 Main St\u00a0É'); // a no-break space and accents are text, kept
    expect(f[6]).toBe('=SUM(A1) x  y z w v u @t');
  });

  it('writes the read date DD-MM-YY in the organisation zone, as luxon does, across daylight saving', () => {
    const readings: ExportReading[] = [];
    for (let t = Date.UTC(2026, 2, 30); t < Date.UTC(2026, 9, 5); t += 97 * 60_000) readings.push(sample({ recordedAt: t }));
    const lines = buildResultsFile(c, { routeName: 'R1', taskNumber: 1, iterationNumber: null }, readings, ZONE).content.trimEnd().split('\r\n');
    lines.forEach((l, i) => expect(l.split('|')[7]).toBe(DateTime.fromMillis(readings[i].recordedAt!, { zone: ZONE }).toFormat('dd-MM-yy')));
  });

  it('numbers rows on across the core blocks of a large file', () => {
    const readings = Array.from({ length: 40_000 }, (_, i) => sample({ sequence: i * 10, completed: i % 3 !== 0 }));
    const t = { routeName: 'BIG', taskNumber: 7, iterationNumber: '12' };
    const file = buildResultsFile(c, t, readings, ZONE);
    expect(file.content).toBe(refResultRows(t, readings, zoneFor(ZONE, readings)));
    expect(file.rows).toBe(readings.filter((r) => r.completed).length);
  });
});

describe('readings CSVs (core against reference)', { timeout: 60_000 }, () => {
  it('are byte for byte the reference: all readings and exceptions only', () => {
    fc.assert(
      fc.property(task, fc.array(reading, { maxLength: 40 }), zoneName, (t, rs, tz) => {
        const zone = zoneFor(tz, rs);
        expect(buildSelectionCsv(c, t, rs, tz).content).toBe(csvHeader(tz) + refCsvRows(t, rs, zone, false));
        expect(buildExceptionsFile(c, t, rs, tz).content).toBe(csvHeader(tz) + refCsvRows(t, rs, zone, true));
      }),
      { numRuns: 150 },
    );
  });

  it('round-trips through a CSV parser: every text cell comes back, neutralised when it starts a formula', () => {
    fc.assert(
      fc.property(task, fc.array(reading, { minLength: 1, maxLength: 30 }), (t, rs) => {
        const file = buildSelectionCsv(c, t, rs, ZONE);
        const parsed = Papa.parse<string[]>(file.content, { delimiter: ',', newline: '\r\n', skipEmptyLines: false });
        const data = parsed.data.slice(0, -1); // the last CRLF leaves one empty record
        expect(data[0]).toEqual([...CSV_COLUMNS.map((x) => (x === 'Recorded Time' ? `Recorded Time (${ZONE})` : x))]);
        expect(data).toHaveLength(rs.length + 1);
        const col = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
        const asWritten = (s: string | null) => {
          const x = (s ?? '').replaceAll('\u0000', '');
          return /^[=+\-@\t\r]/.test(x) ? `'${x}` : x;
        };
        rs.forEach((r, i) => {
          const row = data[i + 1];
          expect(row).toHaveLength(CSV_COLUMNS.length);
          expect(row[col('Serial')]).toBe(asWritten(r.meterInfo.serial));
          expect(row[col('Property Address')]).toBe(asWritten(r.meterInfo.propertyAddress));
          expect(row[col('Notes')]).toBe(asWritten(r.notes));
          expect(row[col('Recorded By')]).toBe(asWritten(r.recorderName));
          expect(row[col('Route Name')]).toBe(asWritten(t.routeName));
          expect(row[col('Task No.')]).toBe(String(t.taskNumber));
          expect(row[col('Sequence')]).toBe(String(r.sequence));
          expect(row[col('Service Required')]).toBe(r.serviceRequired ? 'Yes' : 'No');
          if (r.recordedAt !== null) expect(row[col('Recorded Time')]).toBe(DateTime.fromMillis(r.recordedAt, { zone: ZONE }).toFormat('HH:mm:ss dd/MM/yyyy'));
          // OWASP: no text cell can start a formula
          for (const name of ['Serial', 'Location', 'Property Address', 'Owner', 'Valuation Ref', 'Additional Location Info', 'Recorded By', 'Notes', 'Route Name'] as const) {
            expect(row[col(name)]).not.toMatch(/^[=+\-@\t\r]/);
          }
        });
      }),
      { numRuns: 100 },
    );
  });

  it('keeps only exception rows in the exceptions file (section 7.3)', () => {
    const t = { routeName: 'R9', taskNumber: 3, iterationNumber: '4' };
    const rs = [
      sample({ sequence: 1 }),
      sample({ sequence: 2, exception: 'HighConsumption' }),
      sample({ sequence: 3, cantReadCode: 'Dog', value: null }),
      sample({ sequence: 4, commentCode: 'Broken Lid' }),
      sample({ sequence: 5, serviceRequired: true }),
      sample({ sequence: 6, exception: 'Abnormal', completed: false }),
    ];
    const file = buildExceptionsFile(c, t, rs, ZONE);
    expect(file.filename).toBe('TCC_DCOL_R9_4_IMP_exceptions.csv');
    expect(file.rows).toBe(4);
    const seqs = file.content.trimEnd().split('\r\n').slice(1).map((l) => l.split(',')[0]);
    expect(seqs).toEqual(['2', '3', '4', '5']);
  });

  it('multi-task CSVs carry each row\u2019s route and task and are named with the time in the zone', () => {
    const a = { routeName: 'A', taskNumber: 1, iterationNumber: null };
    const b = { routeName: 'B', taskNumber: 2, iterationNumber: '9' };
    const now = Date.UTC(2026, 10, 23, 22, 5, 9); // 11:05:09 on 24 Nov in Auckland (NZDT)
    const all = buildMultiTaskCsv(c, [{ task: a, readings: [sample({}), sample({})] }, { task: b, readings: [sample({ exception: 'NoConsumption' })] }], false, ZONE, now);
    expect(all.filename).toBe('WW_ALL_READINGS_24112026_110509.csv');
    expect(all.content.trimEnd().split('\r\n').slice(1).map((l) => l.split(',').slice(-2).join(','))).toEqual(['A,1', 'A,1', 'B,2']);
    const ex = buildMultiTaskCsv(c, [{ task: a, readings: [sample({})] }, { task: b, readings: [sample({ exception: 'NoConsumption' })] }], true, ZONE, now);
    expect(ex.filename).toBe('WW_EXCEPTIONS_24112026_110509.csv');
    expect(ex.rows).toBe(1);
  });
});

describe('the sample route (tests/fixtures/routes)', () => {
  const dir = new URL('../tests/fixtures/routes/', import.meta.url);
  const sample = JSON.parse(readFileSync(new URL('R12-recorded.json', dir), 'utf8')) as { timeZone: string; task: ExportTask; readings: ExportReading[] };

  it('gives the stored results file byte for byte', () => {
    const file = buildResultsFile(c, sample.task, sample.readings, sample.timeZone);
    expect(file.filename).toBe('TCC_DCOL_R12_3_IMP.TXT');
    expect(Buffer.from(new TextEncoder().encode(file.content)).equals(readFileSync(new URL(file.filename, dir)))).toBe(true);
  });

  it('gives the stored exceptions file byte for byte', () => {
    const file = buildExceptionsFile(c, sample.task, sample.readings, sample.timeZone);
    expect(Buffer.from(new TextEncoder().encode(file.content)).equals(readFileSync(new URL(file.filename, dir)))).toBe(true);
  });
});

describe('file names (section 7.3)', () => {
  it('follows the council patterns, with and without an iteration', () => {
    expect(resultsFileName({ routeName: 'R12', taskNumber: 1, iterationNumber: '3' })).toBe('TCC_DCOL_R12_3_IMP.TXT');
    expect(resultsFileName({ routeName: 'R12', taskNumber: 1, iterationNumber: null })).toBe('TCC_DCOL_R12_IMP.TXT');
    expect(exceptionsFileName({ routeName: 'R12', taskNumber: 1, iterationNumber: '3' })).toBe('TCC_DCOL_R12_3_IMP_exceptions.csv');
    expect(selectionFileName({ routeName: 'R12', taskNumber: 1, iterationNumber: '3' })).toBe('WW_R12_3.csv');
    expect(selectionFileName({ routeName: 'a/b:c', taskNumber: 1, iterationNumber: null })).toBe('WW_a_b_c.csv');
    expect(multiTaskFileName(true, 'UTC', Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('WW_EXCEPTIONS_02012026_030405.csv');
  });
});

function sample(over: Partial<ExportReading>): ExportReading {
  return {
    sequence: 10,
    value: 1234,
    recordedAt: Date.UTC(2026, 10, 20, 1, 2, 3),
    recorderName: 'Demo Reader',
    completed: true,
    notes: null,
    cantReadCode: null,
    commentCode: null,
    exception: 'NoError',
    serviceRequired: false,
    lastRecordedReading: 1200,
    ozoneReference: 'OZ1',
    meterInfo: { serial: 'S1', location: 'Front', propertyAddress: '1 Main St', ownerName: 'Owner', valuationRef: 'V1', additionalLocationInfo: '', latitude: null, longitude: null },
    ...over,
  };
}
