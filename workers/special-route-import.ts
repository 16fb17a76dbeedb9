// Special routes from .xlsx files (organisation-and-routes 5 "Import of special routes"), read in
// the data worker with SheetJS 0.20.3 (the `xlsx` name, DESIGN.md "Dependencies").
import type * as XLSX from 'xlsx';
import { MAX_IMPORT_READINGS, specialMeterSchema, specialRouteCreateSchema, type SpecialMeter, type SpecialRouteCreate } from '../src/contract/route.schema';
import { z } from 'zod';
import { bytesOf, checkMessage } from './route-import';
import { checkZip } from './zip-guard';

/** A workbook larger than this is refused before it is opened. */
export const MAX_XLSX_BYTES = 8 * 1024 * 1024;

/** The four columns; each header is matched without case or spacing, with a few common names. */
export const SPECIAL_COLUMNS = [
  { key: 'ozoneReference', label: 'Trans Id', names: ['transid', 'ozonereference', 'ozonenumber', 'ozoneref'] },
  { key: 'serial', label: 'serial number', names: ['serialnumber', 'serial', 'meterserial', 'serialno'] },
  { key: 'meterLocation', label: 'meter location', names: ['meterlocation', 'location'] },
  { key: 'reason', label: 'Reason', names: ['reason'] },
] as const;

/** Section 5's per-row message, N the sheet row number. */
export const missingMessage = (label: string, row: number) => `The '${label}' of row ${row} is missing`;
/** Section 5's file-level prefix. */
export const invalidXlsx = (name: string, why: string) => `Invalid xlsx file ${name}: ${why}`;

const POLLUTING = new Set(['__proto__', 'constructor', 'prototype']);

export interface SpecialFile {
  name: string;
  /** A File (a Blob) is best: its size is checked before a byte of it is read. */
  data: ArrayBuffer | Uint8Array | Blob;
}

export interface ParsedSpecialFile {
  fileName: string;
  meters: SpecialMeter[];
  /** Row messages and file-level messages; the file counts only when empty. */
  errors: string[];
}

/** The special-route body made from meters (the other form is made from existing readings). */
export type SpecialRouteFromMeters = Extract<SpecialRouteCreate, { meters: unknown }>;

export interface SpecialFilesResult {
  /** All files' meters in one special route; null when no file was given or any file has an error. */
  payload: SpecialRouteFromMeters | null;
  files: ParsedSpecialFile[];
  errors: string[];
}

const norm = (s: string) => s.toLowerCase().replace(/[\s_.-]+/g, '');

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null || cell.t === 'e' || cell.t === 'z') return '';
  if (cell.t === 'n') return String(cell.v);
  if (cell.t === 'd') return cell.w ?? String(cell.v);
  return String(cell.v).trim();
}

/** One workbook to its meters, or its errors. Never throws. */
export async function parseSpecialFile(file: SpecialFile): Promise<ParsedSpecialFile> {
  const fail = (why: string): ParsedSpecialFile => ({ fileName: file.name, meters: [], errors: [invalidXlsx(file.name, why)] });
  if (!/\.xlsx$/i.test(file.name)) return fail('only .xlsx files can be imported');
  let bytes: Uint8Array;
  try {
    bytes = await bytesOf(file.data, MAX_XLSX_BYTES, (mb) => new Error(`the file is larger than ${mb} MB`));
    await checkZip(bytes);
  } catch (err) {
    return fail((err as Error).message);
  }
  // SheetJS loads on the first workbook only: the chart pages' worker never pays for it
  const { read, utils } = await import('xlsx');
  let wb: XLSX.WorkBook;
  try {
    wb = read(bytes, { type: 'array', dense: true, cellFormula: true, cellHTML: false, cellText: false, cellStyles: false, bookVBA: false, sheetRows: MAX_IMPORT_READINGS + 2, WTF: false });
  } catch {
    return fail('the workbook cannot be read');
  }
  const sheetName = wb.SheetNames[0];
  const sheet = sheetName ? wb.Sheets[sheetName] : undefined;
  if (!sheet || !sheet['!ref']) return fail('the first sheet is empty');
  const range = utils.decode_range(sheet['!ref']);
  const data = (sheet as XLSX.DenseWorkSheet)['!data'] ?? [];
  // formulas are not data: a cell computing its value could be anything by the time it is opened elsewhere
  for (let r = 0; r < data.length; r++) {
    const row = data[r];
    if (!row) continue;
    for (let c = 0; c < row.length; c++) {
      if (row[c]?.f) return fail(`cell ${utils.encode_cell({ r, c })} holds a formula; paste values only`);
    }
  }
  const rowText = (r: number) => {
    const row = data[r] ?? [];
    const out: string[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) out.push(cellText(row[c]));
    return out;
  };
  let headerRow = range.s.r;
  while (headerRow <= range.e.r && rowText(headerRow).every((x) => !x)) headerRow++;
  if (headerRow > range.e.r) return fail('the first sheet is empty');
  const header = rowText(headerRow);
  const bad = header.find((h) => POLLUTING.has(h.trim()));
  if (bad !== undefined) return fail(`the column name "${bad}" is not allowed`);
  const columns = SPECIAL_COLUMNS.map((col) => ({ ...col, at: header.findIndex((h) => (col.names as readonly string[]).includes(norm(h))) }));
  const absent = columns.filter((c) => c.at < 0).map((c) => `'${c.label}'`);
  if (absent.length) return fail(`the column${absent.length > 1 ? 's' : ''} ${absent.join(', ')} ${absent.length > 1 ? 'are' : 'is'} missing from the first row`);
  if (range.e.r - headerRow > MAX_IMPORT_READINGS) return fail(`more than ${MAX_IMPORT_READINGS} rows`);
  const meters: SpecialMeter[] = [];
  const errors: string[] = [];
  for (let r = headerRow + 1; r <= range.e.r; r++) {
    const cells = rowText(r);
    if (cells.every((x) => !x)) continue;
    const n = r + 1; // the sheet's own row number
    const v = columns.map((c) => cells[c.at] ?? '');
    let ok = true;
    columns.forEach((c, i) => {
      if (!v[i]) {
        errors.push(missingMessage(c.label, n));
        ok = false;
      }
    });
    if (!ok) continue;
    const meter = specialMeterSchema.safeParse({ ozoneReference: v[0], serial: v[1], meterLocation: v[2], reason: v[3] });
    if (meter.success) meters.push(meter.data);
    else {
      const issue = meter.error.issues[0];
      const col = columns.find((c) => c.key === issue.path[0]);
      errors.push(`The '${col?.label ?? String(issue.path[0])}' of row ${n} ${issue.message}`);
    }
  }
  if (!meters.length && !errors.length) return fail('there are no rows under the column names');
  return { fileName: file.name, meters: errors.length ? [] : meters, errors };
}

/** Several workbooks to one special route (all their meters), or every file's errors. */
export async function parseSpecialRouteFiles(files: readonly SpecialFile[], opts: { group: string; organisationId?: string }): Promise<SpecialFilesResult> {
  checkMessage(files, opts, z.object({ group: z.string(), organisationId: z.string().optional() }));
  const parsed: ParsedSpecialFile[] = [];
  for (const f of files) parsed.push(await parseSpecialFile(f));
  const errors = parsed.flatMap((p) => p.errors);
  if (errors.length || !parsed.length) return { payload: null, files: parsed, errors };
  const meters = parsed.flatMap((p) => p.meters);
  if (meters.length > MAX_IMPORT_READINGS) return { payload: null, files: parsed, errors: [`More than ${MAX_IMPORT_READINGS} meters in one special route`] };
  const checked = specialRouteCreateSchema.safeParse({ isSpecial: true, group: opts.group, meters, ...(opts.organisationId ? { organisationId: opts.organisationId } : {}) });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { payload: null, files: parsed, errors: [`${issue.path.join('.')}: ${issue.message}`] };
  }
  return { payload: checked.data as SpecialRouteFromMeters, files: parsed, errors: [] };
}
