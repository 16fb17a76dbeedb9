// Reference for assembly/council.ts: the same rows, written from the reading objects with strings.
import { EXCEPTION_LABELS } from '../../src/contract/route.schema';
import type { ExportReading, ExportTask } from '../council-file';
import type { ZoneOffsets } from '../core';
import { civilFromDays, refFormatNumber, zoneOffsetAt } from './csv';

const pad2 = (x: number) => (x < 10 ? '0' : '') + x;

function local(t: number, zone: ZoneOffsets): { y: number; m: number; d: number; sod: number } {
  const lt = t + zoneOffsetAt(zone, t);
  const days = Math.floor(lt / 86_400_000);
  const sod = Math.trunc((lt - days * 86_400_000) / 1000);
  const [y, m, d] = civilFromDays(days);
  return { y, m, d, sod };
}

/** NUL never reaches the files (PostgreSQL cannot store it; the packing drops it). */
const noNul = (s: string | null | undefined) => (s ?? '').replaceAll('\u0000', '');
// '|' and whatever a line reader may split on (C0, DEL, C1 with NEL, U+2028, U+2029): one space each
// eslint-disable-next-line no-control-regex -- control characters are what is being replaced
const plain = (s: string | null | undefined) => noNul(s).replace(/[|\u0001-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
const isReading = (v: number | null) => v !== null && Number.isInteger(v) && v >= 0 && v <= 9_999_999;

/** Positions 1 to 17 of a results row (section 3), positions 15 to 17 blank. */
export function refResultFields(row: number, task: ExportTask, r: ExportReading, zone: ZoneOffsets): string[] {
  const seq = r.sequence;
  const seqText = Number.isInteger(seq) && seq >= 0 && seq < 2 ** 32 ? `${Math.trunc(seq / 10)}${seq % 10 ? `.${seq % 10}` : ''}` : '';
  let date = '';
  if (r.recordedAt !== null && Number.isFinite(r.recordedAt)) {
    const { y, m, d } = local(r.recordedAt, zone);
    date = `${pad2(d)}-${pad2(m)}-${pad2(((y % 100) + 100) % 100)}`;
  }
  const cant = plain(r.cantReadCode);
  const comment = plain(r.commentCode);
  return [
    String(row),
    plain(task.routeName),
    seqText,
    plain(r.meterInfo.valuationRef),
    plain(r.ozoneReference),
    plain(r.meterInfo.propertyAddress),
    plain(r.meterInfo.ownerName),
    date,
    isReading(r.value) ? String(r.value) : '',
    cant,
    cant ? plain(r.notes) : '',
    comment,
    comment ? plain(r.notes) : '',
    plain(r.meterInfo.serial),
    '',
    '',
    '',
  ];
}

/** The results file body: completed readings only, rows numbered from rowsBefore + 1, CRLF. */
export function refResultRows(task: ExportTask, readings: readonly ExportReading[], zone: ZoneOffsets, rowsBefore = 0): string {
  let out = '';
  let row = rowsBefore;
  for (const r of readings) {
    if (!r.completed) continue;
    out += refResultFields(++row, task, r, zone).join('|') + '\r\n';
  }
  return out;
}

/** OWASP CSV injection then RFC 4180 quoting, as wasm-core/csv-file.ts textCell. */
export function refCell(text: string | null | undefined): string {
  const s = noNul(text);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Section 7.3: the rows of the exceptions CSV. */
export function isExceptionRow(r: ExportReading): boolean {
  if (!r.completed) return false;
  return (r.exception !== null && r.exception !== 'NoError') || !!r.cantReadCode || !!r.commentCode || r.serviceRequired;
}

const n0 = (v: number | null) => (v === null ? '' : refFormatNumber(v, 0));

/** OWASP CSV injection alone (no quoting), for writers that quote themselves. */
export function refNeutralise(text: string | null | undefined): string {
  const s = noNul(text);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** The cells of one readings-CSV row, in the order of CSV_COLUMNS; `cell` writes text cells. */
export function refCsvFields(task: ExportTask, r: ExportReading, zone: ZoneOffsets, cell: (s: string | null | undefined) => string = refCell): string[] {
  let time = '';
  if (r.recordedAt !== null && Number.isFinite(r.recordedAt)) {
    const { y, m, d, sod } = local(r.recordedAt, zone);
    const yy = ((y % 10000) + 10000) % 10000;
    time = `${pad2(Math.trunc(sod / 3600))}:${pad2(Math.trunc(sod / 60) % 60)}:${pad2(sod % 60)} ${pad2(d)}/${pad2(m)}/${pad2(Math.trunc(yy / 100))}${pad2(yy % 100)}`;
  }
  const mi = r.meterInfo;
  return [
    n0(r.sequence),
    cell(mi.serial),
    cell(mi.location),
    cell(mi.propertyAddress),
    cell(mi.ownerName),
    cell(mi.valuationRef),
    cell(mi.additionalLocationInfo),
    mi.latitude === null ? '' : refFormatNumber(mi.latitude, 6),
    mi.longitude === null ? '' : refFormatNumber(mi.longitude, 6),
    isReading(r.value) ? String(r.value) : '',
    time,
    cell(r.recorderName),
    n0(r.lastRecordedReading),
    cell(r.exception ? EXCEPTION_LABELS[r.exception] : ''),
    r.serviceRequired ? 'Yes' : 'No',
    cell(r.notes),
    cell(task.routeName),
    n0(task.taskNumber),
  ];
}

/** Readings CSV rows (no header); exceptionsOnly keeps isExceptionRow. */
export function refCsvRows(task: ExportTask, readings: readonly ExportReading[], zone: ZoneOffsets, exceptionsOnly: boolean): string {
  let out = '';
  for (const r of readings) {
    if (exceptionsOnly && !isExceptionRow(r)) continue;
    out += refCsvFields(task, r, zone).join(',') + '\r\n';
  }
  return out;
}
