import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { routeImportSchema, type ImportReading } from '../src/contract/route.schema';
import { ASC_LAYOUT, INCOMPLETE_LINE, INCORRECT_FILE_FORMAT, iterationFromName, parseRouteFiles, TXT_LAYOUT, type CouncilLayout } from './route-import';

// organisation-and-routes 3 (import payload, normal route) and 5 (import of normal routes).
const ZONE = 'Pacific/Auckland';
const NOW = Date.UTC(2026, 10, 23, 22, 0, 0);
const fixture = (name: string) => ({ name, data: new Uint8Array(readFileSync(new URL(`../tests/fixtures/routes/${name}`, import.meta.url))) });
const file = (name: string, text: string) => ({ name, data: new TextEncoder().encode(text) });
const parse = (...files: { name: string; data: Uint8Array | Blob }[]) => parseRouteFiles(files, { timeZone: ZONE, now: NOW, group: 'North' });
const line = (n: number, over: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => over[i] ?? ['R1', '10', 'OZ1', 'V1', 'Addr', 'Owner', 'S1'][i] ?? '').join('|');
const midnight = (y: number, m: number, d: number) => DateTime.fromObject({ year: y, month: m, day: d }, { zone: ZONE }).toMillis();

describe('sample council files (tests/fixtures/routes)', () => {
  it('reads the .txt sample: route, iteration from the name, sequence fallback, Unknown defaults, previous reading with its date', async () => {
    const r = await parse(fixture('TCC_DCOL_R12_3_EXP.TXT'));
    expect(r.problems).toEqual([]);
    expect(r.payloads).toHaveLength(1);
    const p = r.payloads[0];
    expect(p).toMatchObject({ routeName: 'R12', iterationNumber: '3', group: 'North', isSpecial: false });
    expect(p.readings.map((x) => x.sequence)).toEqual([10, 20, 3, 40, 50]);
    expect(p.readings[0]).toEqual({
      sequence: 10,
      ozoneNumber: 'OZ10001',
      importedPrevReading: { value: 4521, date: midnight(2026, 8, 15) },
      serial: 'M12345',
      valuationRef: '1234/567',
      propertyAddress: '12 Harbour View Road',
      ownerName: 'J Smith',
      location: 'Front boundary left',
      additionalLocationInfo: 'Behind the gate',
      latitude: -36.848461,
      longitude: 174.763336,
    });
    expect(p.readings[3]).toMatchObject({ valuationRef: 'Unknown', propertyAddress: 'Unknown', ownerName: 'Unknown', location: 'Unknown', importedPrevReading: null });
    expect(p.readings[4]).toMatchObject({ ownerName: 'Ōtāhuhu Holdings Ltd', importedPrevReading: { value: 305, date: midnight(2026, 8, 15) } });
    expect(routeImportSchema.safeParse(p).success).toBe(true);
  });

  it('reads the .asc sample: 18 fields, iteration from the digits after the first underscore', async () => {
    const p = (await parse(fixture('R7_0042.asc'))).payloads[0];
    expect(p).toMatchObject({ routeName: 'R7', iterationNumber: '0042' });
    expect(p.readings.map((x) => [x.ozoneNumber, x.serial, x.importedPrevReading?.value ?? null])).toEqual([
      ['OZ20001', 'W9001', 1570],
      ['OZ20002', 'W9002', 98765],
      ['OZ20003', 'W9003', null],
    ]);
  });

  it('reads a 10,000-line council file into one payload (one import call), and refuses more than 20,000 readings', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => line(16, { 1: String((i + 1) * 10), 2: `OZ${i}`, 6: `S${i}`, 8: '100', 9: '01/10/2026' }));
    const r = await parse(file('TCC_DCOL_BIG_7_EXP.TXT', lines.join('\r\n')));
    expect(r.payloads[0].readings).toHaveLength(10_000);
    expect(routeImportSchema.safeParse(r.payloads[0]).success).toBe(true);
    const tooMany = await parse(file('a.txt', Array.from({ length: 20_001 }, () => line(16)).join('\n')));
    expect(tooMany.problems[0]).toMatchObject({ message: INCORRECT_FILE_FORMAT, detail: 'more than 20000 readings in one file' });
  });

  it('reads several files at once: one payload per file', async () => {
    const r = await parse(fixture('TCC_DCOL_R12_3_EXP.TXT'), fixture('R7_0042.asc'));
    expect(r.payloads.map((p) => p.routeName)).toEqual(['R12', 'R7']);
  });
});

describe('section 5 rules', () => {
  const problem = async (name: string, text: string) => {
    const r = await parse(file(name, text));
    expect(r.payloads).toEqual([]);
    return r.problems[0];
  };

  it('rejects a line without exactly 16 (.txt) or 18 (.asc) fields with "incomplete line"', async () => {
    expect(await problem('a.txt', `${line(16)}\n${line(15)}\n`)).toMatchObject({ message: INCOMPLETE_LINE, fileName: 'a.txt' });
    expect((await problem('a.txt', `${line(17)}\n`)).message).toBe(INCOMPLETE_LINE);
    expect((await problem('a_1.asc', `${line(16)}\n`)).message).toBe(INCOMPLETE_LINE);
    expect((await parse(file('a_1.asc', `${line(18)}\n\n  \n${line(18, { 1: '20' })}`))).payloads[0].readings).toHaveLength(2);
  });

  it('needs one route name per file; SPECIALREAD becomes SP plus the current unix seconds', async () => {
    expect((await problem('a.txt', `${line(16)}\n${line(16, { 0: 'R2' })}`)).message).toBe(INCORRECT_FILE_FORMAT);
    const sp = (await parse(file('b.txt', `${line(16, { 0: 'SPECIALREAD' })}\n${line(16, { 0: 'SPECIALREAD', 1: '20' })}`))).payloads[0];
    expect(sp.routeName).toBe(`SP${Math.floor(NOW / 1000)}`);
    expect(sp.isSpecial).toBe(false);
  });

  it('rejects an empty file, and one of blank lines only', async () => {
    expect(await problem('a.txt', '')).toMatchObject({ message: INCORRECT_FILE_FORMAT, detail: 'the file is empty' });
    expect((await problem('a.txt', '\r\n  \r\n')).message).toBe(INCORRECT_FILE_FORMAT);
  });

  it('includes the previous reading only when a last read date is present', async () => {
    const rs = (await parse(file('a.txt', [line(16, { 8: '77' }), line(16, { 8: '77', 9: '01/02/2026' }), line(16, { 9: '01/02/2026' })].join('\n')))).payloads[0].readings;
    expect(rs.map((x) => x.importedPrevReading)).toEqual([null, { value: 77, date: midnight(2026, 2, 1) }, null]);
    expect((await problem('a.txt', line(16, { 8: '12.5', 9: '01/02/2026' }))).message).toBe(INCORRECT_FILE_FORMAT);
    expect((await problem('a.txt', line(16, { 8: '12', 9: '31/02/2026' }))).message).toBe(INCORRECT_FILE_FORMAT);
  });

  it('any other parse failure is "Incorrect File Format": bad sequence, no ozone number, no serial, bad coordinates, other extensions', async () => {
    expect((await problem('a.txt', line(16, { 1: 'ten' }))).message).toBe(INCORRECT_FILE_FORMAT);
    expect((await problem('a.txt', line(16, { 2: '' }))).message).toBe(INCORRECT_FILE_FORMAT);
    expect((await problem('a.txt', line(16, { 6: '' }))).message).toBe(INCORRECT_FILE_FORMAT);
    expect((await problem('a.txt', line(16, { 11: '123' }))).message).toBe(INCORRECT_FILE_FORMAT);
    expect((await problem('a.csv', line(16))).message).toBe(INCORRECT_FILE_FORMAT);
  });

  it('refuses a malformed worker message with a readable error', async () => {
    await expect(parseRouteFiles([{ name: 'a.txt', data: 'text' as unknown as Uint8Array }], { timeZone: ZONE })).rejects.toThrow(/Bad route-file request: files\.0\.data/);
    await expect(parseRouteFiles([], { timeZone: 'Mars/Base' })).rejects.toThrow(/options\.timeZone must be a known time zone/);
  });

  it('takes the iteration number from the file name', async () => {
    expect(iterationFromName('TCC_DCOL_R12_3_EXP.TXT')).toBe('3');
    expect(iterationFromName('TCC_DCOL_R12_0042_EXPORT_2026.txt')).toBe('0042');
    expect(iterationFromName('R12.txt')).toBeNull();
    expect(iterationFromName('EXP_R12.txt')).toBeNull();
    expect(iterationFromName('R7_0042.asc')).toBe('0042');
    expect(iterationFromName('ROUTE__12_b.ASC')).toBe('12');
    expect(iterationFromName('R7_x12.asc')).toBeNull();
  });

  it('keeps the other files\u2019 results but no payloads when one file fails', async () => {
    const r = await parse(file('good.txt', line(16)), file('bad.txt', line(3)));
    expect(r.payloads).toEqual([]);
    expect(r.files.map((f) => [f.fileName, f.payload !== null, f.problem?.message ?? null])).toEqual([
      ['good.txt', true, null],
      ['bad.txt', false, INCOMPLETE_LINE],
    ]);
  });
});

describe('hostile files get a clear error and no payload', () => {
  const refused = async (f: { name: string; data: Uint8Array | Blob }) => {
    const r = await parse(f);
    expect(r.payloads).toEqual([]);
    expect(r.problems[0].message).toBe(INCORRECT_FILE_FORMAT);
    return r.problems[0].detail;
  };

  it('wrong encodings: Latin-1 bytes, UTF-16, binary', async () => {
    expect(await refused({ name: 'a.txt', data: Uint8Array.from([...new TextEncoder().encode(line(16, { 5: 'M' })), 0xe9, 0x0a]) })).toMatch(/^the file is not UTF-8 text \(if the council's files are Windows-1252, an admin can choose that encoding/);
    expect(await refused({ name: 'a.txt', data: Uint8Array.from([0xff, 0xfe, 0x52, 0x00]) })).toMatch(/UTF-16/);
    expect(await refused({ name: 'a.txt', data: Uint8Array.from([0x52, 0x00, 0x31]) })).toMatch(/binary/);
  });

  it("an organisation whose council files are Windows-1252 reads them; UTF-8 files still read as UTF-8", async () => {
    // the é and the ’ are the single bytes 0xE9 and 0x92, which are not UTF-8
    const text = line(16, { 4: '1 Caf\u00e9 Road', 5: 'O\u2019Brien' });
    const bytes = Uint8Array.from([...text].map((ch) => ({ '\u00e9': 0xe9, '\u2019': 0x92 })[ch] ?? ch.charCodeAt(0)));
    const withEncoding = (data: Uint8Array, encoding: 'UTF-8' | 'Windows-1252') => parseRouteFiles([{ name: 'TCC_DCOL_R1_2_EXP.TXT', data }], { timeZone: ZONE, now: NOW, encoding });
    const r = await withEncoding(bytes, 'Windows-1252');
    expect(r.problems).toEqual([]);
    expect(r.payloads[0].readings[0]).toMatchObject({ propertyAddress: '1 Café Road', ownerName: 'O’Brien' });
    expect((await withEncoding(bytes, 'UTF-8')).problems[0].detail).toMatch(/^the file is not UTF-8 text/);
    // a UTF-8 file (here with a macron Windows-1252 has not got) is read as UTF-8 either way
    const utf8 = new TextEncoder().encode(line(16, { 5: 'Ōtāhuhu Holdings' }));
    expect((await withEncoding(utf8, 'Windows-1252')).payloads[0].readings[0].ownerName).toBe('Ōtāhuhu Holdings');
  });

  it('50 MB is refused before it is read', async () => {
    expect(await refused({ name: 'big.txt', data: new Uint8Array(50 * 1024 * 1024).fill(0x41) })).toMatch(/larger than/);
    // a File from the import dialog: refused on its size, never read
    const big = new Blob([new Uint8Array(50 * 1024 * 1024)]);
    big.arrayBuffer = () => Promise.reject(new Error('read'));
    expect(await refused({ name: 'big.txt', data: big })).toMatch(/larger than/);
  });

  it('reads a File (a Blob) like bytes', async () => {
    expect((await parse({ name: 'blob.txt', data: new Blob([line(16)]) })).payloads[0].readings).toHaveLength(1);
  });

  it('control characters and formula-looking text stay text or are refused by the contract', async () => {
    expect(await refused(file('a.txt', line(16, { 4: 'a\u0007b' })))).toMatch(/control characters/);
    // a leading = is just text here: the CSV exports neutralise it
    expect((await parse(file('a.txt', line(16, { 4: '=HYPERLINK("x")' })))).payloads[0].readings[0].propertyAddress).toBe('=HYPERLINK("x")');
  });

  it('keys like __proto__ in a file are values, never properties', async () => {
    const p = (await parse(file('a.txt', line(16, { 3: '__proto__', 4: 'constructor', 5: 'prototype' })))).payloads[0];
    expect(p.readings[0]).toMatchObject({ valuationRef: '__proto__', propertyAddress: 'constructor', ownerName: 'prototype' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** Writes readings in a layout (the inverse the property checks the parser against). */
function writeLine(layout: CouncilLayout, route: string, r: ImportReading, prevDate: string): string {
  const f = Array.from({ length: layout.fields }, () => '');
  f[layout.route] = route;
  f[layout.sequence] = String(r.sequence);
  f[layout.ozone] = r.ozoneNumber;
  f[layout.serial] = r.serial;
  f[layout.valuationRef] = r.valuationRef;
  f[layout.address] = r.propertyAddress;
  f[layout.owner] = r.ownerName;
  f[layout.location] = r.location;
  f[layout.additional] = r.additionalLocationInfo ?? '';
  f[layout.prevValue] = r.importedPrevReading ? String(r.importedPrevReading.value) : '';
  f[layout.prevDate] = r.importedPrevReading ? prevDate : '';
  f[layout.latitude] = r.latitude == null ? '' : String(r.latitude);
  f[layout.longitude] = r.longitude == null ? '' : String(r.longitude);
  return f.join('|');
}

describe('parse(write(readings)) gives the readings back', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '-', '/', '=', '@', ',', '"', 'ā', '漢', '😀'), minLength: 1, maxLength: 12 }).map((s) => s.trim()).filter((s) => s.length > 0);
  const reading = fc.record({
    sequence: fc.integer({ min: 0, max: 1_000_000 }),
    ozoneNumber: word,
    serial: word,
    valuationRef: word,
    propertyAddress: word,
    ownerName: word,
    location: word,
    additionalLocationInfo: fc.oneof(fc.constant(''), word),
    day: fc.option(fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2030, 0, 1)), noInvalidDate: true }), { nil: null }),
    prev: fc.integer({ min: 0, max: 9_999_999 }),
    latitude: fc.option(fc.integer({ min: -90_000_000, max: 90_000_000 }).map((x) => x / 1e6), { nil: null }),
    longitude: fc.option(fc.integer({ min: -180_000_000, max: 180_000_000 }).map((x) => x / 1e6), { nil: null }),
  });

  it('for both layouts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(TXT_LAYOUT, ASC_LAYOUT), word, fc.array(reading, { minLength: 1, maxLength: 30 }), fc.constantFrom('\n', '\r\n'), async (layout, route, rows, eol) => {
        const expected: ImportReading[] = rows.map((r) => {
          const civil = r.day && DateTime.fromJSDate(r.day, { zone: 'UTC' });
          return {
            sequence: r.sequence,
            ozoneNumber: r.ozoneNumber,
            serial: r.serial,
            valuationRef: r.valuationRef,
            propertyAddress: r.propertyAddress,
            ownerName: r.ownerName,
            location: r.location,
            additionalLocationInfo: r.additionalLocationInfo,
            importedPrevReading: civil ? { value: r.prev, date: midnight(civil.year, civil.month, civil.day) } : null,
            latitude: r.latitude === null ? null : Object.is(r.latitude, -0) ? 0 : r.latitude,
            longitude: r.longitude === null ? null : Object.is(r.longitude, -0) ? 0 : r.longitude,
          };
        });
        const text = rows
          .map((r, i) => {
            const civil = r.day && DateTime.fromJSDate(r.day, { zone: 'UTC' });
            return writeLine(layout, route, expected[i], civil ? civil.toFormat('dd/MM/yyyy') : '');
          })
          .join(eol);
        const name = layout === TXT_LAYOUT ? 'R_5_EXP.txt' : 'R_5.asc';
        const r = await parse(file(name, text + eol));
        expect(r.problems).toEqual([]);
        expect(r.payloads[0].routeName).toBe(route === 'SPECIALREAD' ? `SP${Math.floor(NOW / 1000)}` : route);
        expect(r.payloads[0].iterationNumber).toBe('5');
        expect(r.payloads[0].readings).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
