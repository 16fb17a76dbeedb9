// Reference for assembly/csv.ts: the same row format, civil-date arithmetic and number rule.
import type { ConversionParams } from '../conversion';
import type { ExportFormat, ZoneOffsets } from '../core';
import { jsRound, refConvert } from './convert';

const pad2 = (x: number) => (x < 10 ? '0' : '') + x;

/** Civil date (y, m, d) of days since 1970-01-01 (H. Hinnant's algorithm). */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.trunc((z >= 0 ? z : z - 146096) / 146097);
  const doe = z - era * 146097;
  const yoe = Math.trunc((doe - Math.trunc(doe / 1460) + Math.trunc(doe / 36524) - Math.trunc(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.trunc(yoe / 4) - Math.trunc(yoe / 100));
  const mp = Math.trunc((5 * doy + 2) / 153);
  const d = doy - Math.trunc((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export function refFormatDate(t: number, format: ExportFormat, off: number): string {
  const lt = t + off;
  const days = Math.floor(lt / 86400000);
  const sod = Math.floor((lt - days * 86400000) / 1000);
  const [y, m, d] = civilFromDays(days);
  const yy = ((y % 10000) + 10000) % 10000;
  const year = pad2(Math.trunc(yy / 100)) + pad2(yy % 100);
  const time = `${pad2(Math.trunc(sod / 3600))}:${pad2(Math.trunc(sod / 60) % 60)}:${pad2(sod % 60)}`;
  if (format === 'DD/MM/YYYY HH:mm:ss') return `${pad2(d)}/${pad2(m)}/${year} ${time}`;
  const date = `${year}-${pad2(m)}-${pad2(d)}`;
  if (format === 'Default') return `${date} ${time}`;
  if (format === 'ISO8601 UTC') return `${date}T${time}Z`;
  const mins = Math.trunc(Math.abs(off) / 60000);
  return `${date}T${time}${off < 0 ? '-' : '+'}${pad2(Math.trunc(mins / 60))}:${pad2(mins % 60)}`;
}

export function refFormatNumber(v: number, dec: number): string {
  if (!Number.isFinite(v)) return '';
  let p = 1;
  for (let i = 0; i < dec; i++) p *= 10;
  const neg = v < 0;
  const scaled = (neg ? -v : v) * p;
  if (!(scaled < 9.0e18)) return '';
  const r = BigInt(jsRound(scaled));
  const pu = BigInt(p);
  const ip = (r / pu).toString();
  const fp = dec > 0 ? '.' + (r % pu).toString().padStart(dec, '0') : '';
  return (neg && r !== 0n ? '-' : '') + ip + fp;
}

export function zoneOffsetAt(zone: ZoneOffsets, t: number): number {
  let k = 0;
  while (k + 1 < zone.at.length && zone.at[k + 1] <= t) k++;
  return zone.at.length ? zone.offset[k] : 0;
}

/** Rows "time,value\r\n" of sorted columns. */
export function refCsvRows(time: ArrayLike<number>, value: ArrayLike<number>, format: ExportFormat, decimals: number, p: ConversionParams, zone: ZoneOffsets): string {
  let out = '';
  for (let i = 0; i < time.length; i++) {
    const off = format === 'ISO8601 UTC' ? 0 : zoneOffsetAt(zone, time[i]);
    out += `${refFormatDate(time[i], format, off)},${refFormatNumber(refConvert(p, value[i]), decimals)}\r\n`;
  }
  return out;
}

/** Reference for usageDayRows: a tank's (4 f64 a day) or a flow's (2 f64 a day) daily rows. */
export function refUsageDayRows(days: readonly { use: number; covered: number; fills: number; filled: number }[], bounds: ArrayLike<number>, tank: boolean, zone: ZoneOffsets): string {
  let out = '';
  days.forEach((d, i) => {
    const t = bounds[i];
    const [y, m, dd] = civilFromDays(Math.floor((t + zoneOffsetAt(zone, t)) / 86400000));
    const yy = ((y % 10000) + 10000) % 10000;
    const date = `${pad2(Math.trunc(yy / 100))}${pad2(yy % 100)}-${pad2(m)}-${pad2(dd)}`;
    const cells = [date, refFormatNumber(d.use, tank ? 0 : 3), refFormatNumber(d.covered / 3600000, 1)];
    if (tank) cells.push(refFormatNumber(d.fills, 0), refFormatNumber(d.filled, 0));
    out += cells.join(',') + '\r\n';
  });
  return out;
}

/** Reference for usageFillRows. */
export function refUsageFillRows(fills: readonly { start: number; end: number; volume: number }[], format: ExportFormat, zone: ZoneOffsets): string {
  let out = '';
  for (const f of fills) {
    const date = (t: number) => refFormatDate(t, format, format === 'ISO8601 UTC' ? 0 : zoneOffsetAt(zone, t));
    out += `${date(f.start)},${date(f.end)},${refFormatNumber(f.volume, 0)}\r\n`;
  }
  return out;
}
