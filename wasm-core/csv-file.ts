import type { Core, ExportFormat, ZoneOffsets } from './core';
import { csvDecimals, valueLabel, type ConversionParams } from './conversion';
import { IANAZone } from 'luxon';
import { fileStamp, zoneOffsets } from './timezone';

/**
 * OWASP CSV injection: a text cell that begins with = + - @ tab or carriage return is prefixed
 * with a single quote, so a spreadsheet shows it as text instead of evaluating it. Only text
 * cells (headers, names) go through this: the value column holds numbers written by the core,
 * and a negative level such as -0.125 is a value, not a formula.
 */
export function neutraliseCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A text cell: neutralised, then quoted per RFC 4180 when it holds a comma, quote or line break. */
export function textCell(text: string): string {
  const safe = neutraliseCell(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** File name from sensor name, serial and the export time: Main_Reservoir_1A2B3C4D_20260121-153000.csv */
export function exportFileName(sensorName: string, serial: string | undefined, timeZone: string, nowMs: number): string {
  const safe = (s: string) =>
    s
      // eslint-disable-next-line no-control-regex -- control characters are what is being removed
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_')
      .trim()
      .replace(/\s+/g, '_')
      .replace(/^[._\-=+@]+/, '');
  return [safe(sensorName) || 'sensor', serial ? safe(serial) : null, fileStamp(timeZone, nowMs)].filter(Boolean).join('_') + '.csv';
}

export interface CsvRequest {
  startTime: number;
  endTime: number;
  format: ExportFormat;
  timeZone: string;
  sensorName: string;
  serial?: string;
  params: ConversionParams;
  nowMs: number;
}

/** The whole export: header row, then one row per stored point in [startTime, endTime]. */
export function buildCsv(core: Core, store: number, req: CsvRequest): { filename: string; csv: string; rows: number } {
  if (!IANAZone.isValidZone(req.timeZone)) throw new Error(`Unknown time zone: ${req.timeZone}`);
  const from = core.lowerBound(store, req.startTime);
  const to = core.upperBound(store, req.endTime);
  const count = Math.max(0, to - from);
  const first = count ? core.read(store, from, 1).time[0] : req.startTime;
  const last = count ? core.read(store, to - 1, 1).time[0] : req.endTime;
  const zone: ZoneOffsets = req.format === 'ISO8601 UTC' ? { at: new Float64Array(), offset: new Float64Array() } : zoneOffsets(req.timeZone, first, last);
  const timeHeader = req.format === 'ISO8601 UTC' ? 'Time (UTC)' : `Time (${req.timeZone})`;
  const header = `${textCell(timeHeader)},${textCell(`${req.sensorName} - ${valueLabel(req.params)}`)}\r\n`;
  const rows = core.csvRows(store, from, count, req.format, csvDecimals(req.params), req.params, zone);
  return { filename: exportFileName(req.sensorName, req.serial, req.timeZone, req.nowMs), csv: header + rows, rows: count };
}
