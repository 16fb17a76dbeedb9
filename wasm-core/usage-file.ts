import type { Core, ExportFormat, ZoneOffsets } from './core';
import { exportFileName, textCell } from './csv-file';
import { zoneOffsets } from './timezone';
import type { Usage } from './usage';

/**
 * The usage export (issue 38): per sensor, its daily use (a tank: litres used, hours covered by
 * data, fills and litres filled) or daily flow totals (m³), then a tank's fills (start, end,
 * litres), and the totals; rows written by the core. Two tables in one file, a blank line between.
 */
export function buildUsageCsv(core: Core, usage: Usage, req: { sensorName: string; serial?: string; timeZone: string; format: ExportFormat; nowMs: number }): { filename: string; csv: string } {
  const tank = usage.kind === 'volume';
  const days = usage.days;
  const first = days[0]?.start ?? req.nowMs;
  const last = days.at(-1)?.end ?? req.nowMs;
  const zone: ZoneOffsets = zoneOffsets(req.timeZone, first, last);
  const bounds = days.map((d) => d.start);
  const rows = core.usageCsvRows(days, bounds, tank, tank ? usage.fills : [], req.format, zone);
  const head = (label: string) => textCell(`${req.sensorName} - ${label}`);
  const parts = [
    tank ? `${textCell(`Date (${req.timeZone})`)},${head('Use (l)')},Covered (h),Fills,Filled (l)\r\n` : `${textCell(`Date (${req.timeZone})`)},${head('Flow (m³)')},Covered (h)\r\n`,
    rows.days,
  ];
  if (tank) {
    const timeHeader = req.format === 'ISO8601 UTC' ? 'UTC' : req.timeZone;
    parts.push('\r\n', `Fill start (${timeHeader}),Fill end (${timeHeader}),Delivered (l)\r\n`, rows.fills);
  }
  return { filename: exportFileName(`${req.sensorName} usage`, req.serial, req.timeZone, req.nowMs), csv: parts.join('') };
}
