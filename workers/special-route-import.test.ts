import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { parseSpecialRouteFiles } from './special-route-import';

// organisation-and-routes 5 "Import of special routes": xlsx files; every row needs ozone
// reference, serial, meter location and reason; four per-row messages; file-level prefix.
const fixture = () => ({ name: 'special-route.xlsx', data: new Uint8Array(readFileSync(new URL('../tests/fixtures/routes/special-route.xlsx', import.meta.url))) });
const parse = (...files: { name: string; data: Uint8Array | Blob }[]) => parseSpecialRouteFiles(files, { group: 'Specials' });

function workbook(rows: unknown[][], edit?: (ws: XLSX.WorkSheet) => void): Uint8Array {
  const wb = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet(rows);
  edit?.(ws);
  XLSX.utils.book_append_sheet(wb, ws, 'S');
  return new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer);
}
const HEAD = ['Trans Id', 'Serial Number', 'Meter Location', 'Reason'];

/** A zip with one deflated entry; `declare` overrides the uncompressed size written in the headers. */
function zipOf(name: string, content: Uint8Array, declare = content.byteLength): Uint8Array {
  const data = deflateRawSync(content);
  const n = new TextEncoder().encode(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.byteLength, 18);
  local.writeUInt32LE(declare, 22);
  local.writeUInt16LE(n.byteLength, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.byteLength, 20);
  central.writeUInt32LE(declare, 24);
  central.writeUInt16LE(n.byteLength, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = 30 + n.byteLength + data.byteLength;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.byteLength, 12);
  end.writeUInt32LE(cdOffset, 16);
  return new Uint8Array(Buffer.concat([local, n, data, central, n, end]));
}

describe('special route workbooks', () => {
  it('reads the sample into one special-route payload (bytes or a File)', async () => {
    expect((await parse({ name: 'special-route.xlsx', data: new Blob([fixture().data as Uint8Array<ArrayBuffer>]) })).payload?.meters).toHaveLength(3);
    const r = await parse(fixture());
    expect(r.errors).toEqual([]);
    expect(r.payload).toEqual({
      isSpecial: true,
      group: 'Specials',
      meters: [
        { ozoneReference: 'OZ10001', serial: 'M12345', meterLocation: 'Front boundary left', reason: 'Customer query: high bill' },
        { ozoneReference: 'OZ10003', serial: 'M12347', meterLocation: 'Berm', reason: 'Final read: property sold' },
        { ozoneReference: 'OZ10005', serial: 'M12349', meterLocation: 'Side path', reason: 'Check for leak' },
      ],
    });
  });

  it('gives the four per-row messages with the sheet row number, and no payload', async () => {
    const data = workbook([HEAD, ['OZ1', 'S1', 'Front', 'Why'], ['', 'S2', 'Front', 'Why'], ['OZ3', '', 'Front', 'Why'], [], ['OZ4', 'S4', '', 'Why'], ['OZ5', 'S5', 'Back', '']]);
    const r = await parse({ name: 'rows.xlsx', data });
    expect(r.payload).toBeNull();
    expect(r.errors).toEqual([
      "The 'Trans Id' of row 3 is missing",
      "The 'serial number' of row 4 is missing",
      "The 'meter location' of row 6 is missing",
      "The 'Reason' of row 7 is missing",
    ]);
  });

  it('joins several files into one route; numbers become text', async () => {
    const r = await parse(fixture(), { name: 'b.xlsx', data: workbook([HEAD, [12345, 678, 'Kerb', 'Audit']]) });
    expect(r.payload?.meters).toHaveLength(4);
    expect(r.payload?.meters[3]).toEqual({ ozoneReference: '12345', serial: '678', meterLocation: 'Kerb', reason: 'Audit' });
  });

  it('prefixes file-level errors with "Invalid xlsx file {name}: "', async () => {
    const cases: [string, Uint8Array][] = [
      ['noheader.xlsx', workbook([['A', 'B'], ['1', '2']])],
      ['empty.xlsx', workbook([])],
      ['text.xlsx', new TextEncoder().encode('Trans Id,Serial\n1,2\n')],
      ['special.txt', workbook([HEAD])],
    ];
    for (const [name, data] of cases) {
      const r = await parse({ name, data });
      expect(r.payload).toBeNull();
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0].startsWith(`Invalid xlsx file ${name}: `)).toBe(true);
    }
  });
});

describe('hostile workbooks get a clear error and no payload', () => {
  const refused = async (name: string, data: Uint8Array, why: RegExp) => {
    const r = await parse({ name, data });
    expect(r.payload).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(new RegExp(`^Invalid xlsx file ${name.replace('.', '\\.')}: `));
    expect(r.errors[0]).toMatch(why);
  };

  it('formula cells', async () => {
    const data = workbook([HEAD, ['OZ1', 'S1', 'Front', 'x']], (ws) => {
      ws.D2 = { t: 's', v: 'x', f: 'HYPERLINK("http://evil.example","click")' };
    });
    await refused('formula.xlsx', data, /formula/);
  });

  it('prototype-polluting column names', async () => {
    await refused('proto.xlsx', workbook([[...HEAD, '__proto__'], ['OZ1', 'S1', 'Front', 'x', 'polluted']]), /__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a zip bomb: 80 MB of zeros in a 80 kB workbook', async () => {
    await refused('bomb.xlsx', zipOf('xl/worksheets/sheet1.xml', new Uint8Array(80 * 1024 * 1024)), /expands to more than|zip bomb/);
  });

  it('a zip that declares less than it inflates to', async () => {
    await refused('liar.xlsx', zipOf('xl/worksheets/sheet1.xml', new Uint8Array(4 * 1024 * 1024), 1000), /more than it declares/);
  });

  it('a file over the size limit, and bytes that are not a workbook', async () => {
    await refused('big.xlsx', new Uint8Array(50 * 1024 * 1024), /larger than/);
    await refused('junk.xlsx', Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251), /not an xlsx workbook/);
  });
});
