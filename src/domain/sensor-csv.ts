import { DateTime } from 'luxon';
import type { Sensor } from '../contract/sensor.schema';
import { levelMm, levelPercent } from './sensor-format';
import { volumeLitres } from './tank-volume';

export const SENSOR_CSV_HEADER = ['Serial', 'Name', 'Level (%)', 'Volume (L)', 'Level (m)', 'Latitude', 'Longitude'];

/** A spreadsheet must not run a cell as a formula: prefix the risky first characters with a quote. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const quote = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
// Only the text people typed (names) is neutralised: a negative latitude is a number, not a formula.
const text = (value: string) => quote(neutraliseCell(value));
const num = (value: string | undefined) => value ?? '';
const fixed = (v: number | undefined | null, digits: number) => (v === undefined || v === null || !Number.isFinite(v) ? undefined : v.toFixed(digits));

/** What a row of the CSV reads: a full record or the compact list's summary. */
export type CsvSensor = Pick<Sensor, 'serial' | 'name' | 'latitude' | 'longitude' | 'conversionConfigs'> & {
  displayInfo: Pick<Sensor['displayInfo'], 'offsetMeasurement' | 'minLevel' | 'maxLevel'>;
  latestData: Pick<NonNullable<Sensor['latestData']>, 'lastMeasurement'> | null;
};

/** The organisation-level sensor CSV: serial, name, level percent, volume in litres, level in metres, lat and lng to 3 decimals. */
export function sensorsCsv(sensors: readonly CsvSensor[]): string {
  const rows = sensors.map((s) => {
    const m = s.latestData?.lastMeasurement;
    const level = m ? levelMm(s, m.rawDistance) : undefined;
    const percent = level === undefined ? undefined : levelPercent(s, level);
    const litres = level === undefined ? undefined : volumeLitres(s.conversionConfigs[0], level / 1000);
    const numbers = [fixed(percent, 1), fixed(litres, 0), fixed(level === undefined ? undefined : level / 1000, 3), fixed(s.latitude, 3), fixed(s.longitude, 3)];
    return [text(s.serial), text(s.name), ...numbers.map(num)].join(',');
  });
  return [SENSOR_CSV_HEADER.join(','), ...rows].join('\r\n') + '\r\n';
}

/** '{organisation name} sensors {YYYY-MM-DD}.csv', dated in the organisation's zone, with characters file systems refuse removed. */
export function sensorsCsvName(orgName: string, now: number, timeZone: string): string {
  const date = DateTime.fromMillis(now, { zone: timeZone }).toISODate();
  return `${orgName.replace(/[\\/:*?"<>|]+/g, '').trim()} sensors ${date}.csv`;
}
