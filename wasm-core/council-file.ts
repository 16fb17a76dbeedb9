// Meter-reading exports formatted by the core (organisation-and-routes 3 and 7.3): the council
// results file, the exceptions file, the selection CSV and the multi-task CSVs. This side packs
// the readings into linear memory, names the files and adds the CSV header.
import { DateTime, IANAZone } from 'luxon';
import { EXCEPTION_LABELS, type MeterInfo, type MeterReading, type RouteTask } from '../src/contract/route.schema';
import type { Core, ZoneOffsets } from './core';
import { textCell } from './csv-file';
import { zoneOffsets } from './timezone';

/** What the exports read of a reading (a contract MeterReading has all of it). */
export type ExportReading = Pick<
  MeterReading,
  'sequence' | 'value' | 'recordedAt' | 'recorderName' | 'completed' | 'notes' | 'cantReadCode' | 'commentCode' | 'exception' | 'serviceRequired' | 'lastRecordedReading' | 'ozoneReference'
> & {
  meterInfo: Pick<MeterInfo, 'serial' | 'location' | 'propertyAddress' | 'ownerName' | 'valuationRef' | 'additionalLocationInfo' | 'latitude' | 'longitude'>;
};
/** What the exports read of a task. */
export type ExportTask = Pick<RouteTask, 'routeName' | 'taskNumber' | 'iterationNumber'>;

/** Section 7.3 "CSV export columns for readings", then route name and task number. */
export const CSV_COLUMNS = [
  'Sequence',
  'Serial',
  'Location',
  'Property Address',
  'Owner',
  'Valuation Ref',
  'Additional Location Info',
  'Latitude',
  'Longitude',
  'Value',
  'Recorded Time',
  'Recorded By',
  'Previous Reading',
  'Exception',
  'Service Required',
  'Notes',
  'Route Name',
  'Task No.',
] as const;

/** The CSV header row; the time column names the zone its times are in. */
export function csvHeader(timeZone: string): string {
  return CSV_COLUMNS.map((c) => textCell(c === 'Recorded Time' ? `Recorded Time (${timeZone})` : c)).join(',') + '\r\n';
}

// Packing (must match assembly/council.ts): 13 text fields per reading, each ended by a 0 byte
// (NUL inside a field is dropped), and 8 f64 per reading with NaN for none.
const TEXT_FIELDS = 13;
const NUM_FIELDS = 8;
/** Readings per core call: bounds linear memory whatever the export's size. */
const BLOCK = 16_384;

const noNul = (s: string | null | undefined): string => (s == null ? '' : s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);
const orNaN = (v: number | null | undefined) => (v == null ? NaN : v);

interface Packed {
  text: string;
  nums: Float64Array;
}

function pack(rows: readonly { task: ExportTask; r: ExportReading }[]): Packed {
  const parts: string[] = new Array(rows.length * TEXT_FIELDS);
  const nums = new Float64Array(rows.length * NUM_FIELDS);
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const { task, r } = rows[i];
    const mi = r.meterInfo;
    parts[k++] = noNul(task.routeName);
    parts[k++] = noNul(mi.valuationRef);
    parts[k++] = noNul(r.ozoneReference);
    parts[k++] = noNul(mi.propertyAddress);
    parts[k++] = noNul(mi.ownerName);
    parts[k++] = noNul(r.cantReadCode);
    parts[k++] = noNul(r.commentCode);
    parts[k++] = noNul(r.notes);
    parts[k++] = noNul(mi.serial);
    parts[k++] = noNul(mi.location);
    parts[k++] = noNul(mi.additionalLocationInfo);
    parts[k++] = noNul(r.recorderName);
    // the readings CSVs name exceptions as the screens do ('High Consumption', not HighConsumption)
    parts[k++] = r.exception ? EXCEPTION_LABELS[r.exception] : '';
    const o = i * NUM_FIELDS;
    nums[o] = r.sequence;
    nums[o + 1] = orNaN(r.value);
    nums[o + 2] = orNaN(r.recordedAt);
    nums[o + 3] = orNaN(r.lastRecordedReading);
    nums[o + 4] = orNaN(mi.latitude);
    nums[o + 5] = orNaN(mi.longitude);
    nums[o + 6] = task.taskNumber;
    nums[o + 7] = (r.completed ? 1 : 0) | (r.serviceRequired ? 2 : 0) | (r.exception !== null && r.exception !== 'NoError' ? 4 : 0);
  }
  return { text: rows.length ? parts.join('\u0000') + '\u0000' : '', nums };
}

/** The zone's offsets over the readings' recorded times (one table per export, as the chart CSV). */
function zoneOf(timeZone: string, rows: readonly { r: ExportReading }[]): ZoneOffsets {
  if (!IANAZone.isValidZone(timeZone)) throw new Error(`Unknown time zone: ${timeZone}`);
  let lo = Infinity;
  let hi = -Infinity;
  for (const { r } of rows) {
    const t = r.recordedAt;
    if (t !== null && Number.isFinite(t)) {
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  if (lo > hi) return { at: new Float64Array(), offset: new Float64Array() };
  return zoneOffsets(timeZone, lo, hi);
}

type Writer = (n: number, text: number, nums: number, zt: number, zo: number, zn: number, out: number, rowsBefore: number) => number;

/** Runs a core writer over the rows in blocks and decodes the bytes once per block. */
function writeRows(core: Core, rows: readonly { task: ExportTask; r: ExportReading }[], zone: ZoneOffsets, write: Writer, counted?: (r: ExportReading) => boolean): string {
  const x = core.x;
  const zn = zone.at.length;
  const zt = x.alloc(zn * 8);
  const zo = x.alloc(zn * 8);
  new Float64Array(x.memory.buffer, zt, zn).set(zone.at);
  new Float64Array(x.memory.buffer, zo, zn).set(zone.offset);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let rowsBefore = 0;
  try {
    for (let from = 0; from < rows.length; from += BLOCK) {
      const block = rows.slice(from, from + BLOCK);
      const { text, nums } = pack(block);
      const textRoom = text.length * 3;
      const tp = x.alloc(textRoom + 1);
      const np = x.alloc(nums.length * 8);
      const { written = 0 } = encoder.encodeInto(text, new Uint8Array(x.memory.buffer, tp, textRoom));
      new Float64Array(x.memory.buffer, np, nums.length).set(nums);
      const out = x.alloc(x.councilRoom(block.length, written));
      const bytes = write(block.length, tp, np, zt, zo, zn, out, rowsBefore);
      parts.push(decoder.decode(new Uint8Array(x.memory.buffer, out, bytes)));
      for (const p of [tp, np, out]) x.free(p);
      if (counted) for (const { r } of block) if (counted(r)) rowsBefore++;
    }
  } finally {
    x.free(zt);
    x.free(zo);
  }
  return parts.join('');
}

/** Characters not allowed in file names become `_`. */
function safeName(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  return s.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').trim();
}

/** `{iteration}_` or nothing, for the council file names. */
const iterationPart = (task: ExportTask) => (task.iterationNumber ? `${safeName(task.iterationNumber)}_` : '');

/** Section 7.3: TCC_DCOL_{routeName}_{iteration_}IMP.TXT */
export function resultsFileName(task: ExportTask): string {
  return `TCC_DCOL_${safeName(task.routeName)}_${iterationPart(task)}IMP.TXT`;
}

/** Section 7.3: the results file's stem ending _IMP_exceptions.csv */
export function exceptionsFileName(task: ExportTask): string {
  return `TCC_DCOL_${safeName(task.routeName)}_${iterationPart(task)}IMP_exceptions.csv`;
}

/** Section 7.3: WW_{route}_{iteration}.csv (without an iteration: WW_{route}.csv). */
export function selectionFileName(task: ExportTask): string {
  return `WW_${safeName(task.routeName)}${task.iterationNumber ? `_${safeName(task.iterationNumber)}` : ''}.csv`;
}

/** Section 7.3: WW_ALL_READINGS_ or WW_EXCEPTIONS_ then DDMMYYYY_HHmmss in the organisation's zone. */
export function multiTaskFileName(exceptionsOnly: boolean, timeZone: string, nowMs: number): string {
  const stamp = DateTime.fromMillis(nowMs, { zone: timeZone }).toFormat('ddMMyyyy_HHmmss');
  return `${exceptionsOnly ? 'WW_EXCEPTIONS_' : 'WW_ALL_READINGS_'}${stamp}.csv`;
}

export interface ExportFile {
  filename: string;
  /** The file's text (UTF-8 when saved). */
  content: string;
  /** Data rows written (header excluded). */
  rows: number;
}

const countRows = (s: string) => {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

/** The council results file of one task: completed readings only, no header (section 3). */
export function buildResultsFile(core: Core, task: ExportTask, readings: readonly ExportReading[], timeZone: string): ExportFile {
  const rows = readings.map((r) => ({ task, r }));
  const x = core.x;
  const content = writeRows(core, rows, zoneOf(timeZone, rows), (n, t, nu, zt, zo, zn, out, before) => x.councilResultRows(n, t, nu, zt, zo, zn, before, out), (r) => r.completed);
  return { filename: resultsFileName(task), content, rows: countRows(content) };
}

function readingsCsv(core: Core, rows: readonly { task: ExportTask; r: ExportReading }[], timeZone: string, exceptionsOnly: boolean): { content: string; rows: number } {
  const x = core.x;
  const body = writeRows(core, rows, zoneOf(timeZone, rows), (n, t, nu, zt, zo, zn, out) => x.councilCsvRows(n, t, nu, zt, zo, zn, exceptionsOnly ? 1 : 0, out));
  // data rows end in CRLF; a quoted cell may hold line breaks, so count the records, not lines
  const rowCount = rows.filter(({ r }) => !exceptionsOnly || isExceptionRowOf(r)).length;
  return { content: csvHeader(timeZone) + body, rows: rowCount };
}

/** Section 7.3: completed readings with an exception other than none, or a code or service required. */
export function isExceptionRowOf(r: ExportReading): boolean {
  return r.completed && ((r.exception !== null && r.exception !== 'NoError') || !!r.cantReadCode || !!r.commentCode || r.serviceRequired);
}

/** The exceptions file of one task (…_IMP_exceptions.csv). */
export function buildExceptionsFile(core: Core, task: ExportTask, readings: readonly ExportReading[], timeZone: string): ExportFile {
  return { filename: exceptionsFileName(task), ...readingsCsv(core, readings.map((r) => ({ task, r })), timeZone, true) };
}

/** The selection CSV (To CSV on a task's selected readings): WW_{route}_{iteration}.csv */
export function buildSelectionCsv(core: Core, task: ExportTask, readings: readonly ExportReading[], timeZone: string): ExportFile {
  return { filename: selectionFileName(task), ...readingsCsv(core, readings.map((r) => ({ task, r })), timeZone, false) };
}

/** The multi-task CSV (To CSV or Export on the task list): all readings or exceptions only. */
export function buildMultiTaskCsv(core: Core, tasks: readonly { task: ExportTask; readings: readonly ExportReading[] }[], exceptionsOnly: boolean, timeZone: string, nowMs: number): ExportFile {
  const rows = tasks.flatMap(({ task, readings }) => readings.map((r) => ({ task, r })));
  return { filename: multiTaskFileName(exceptionsOnly, timeZone, nowMs), ...readingsCsv(core, rows, timeZone, exceptionsOnly) };
}
