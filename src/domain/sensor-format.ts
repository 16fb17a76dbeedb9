import type { Sensor } from '../contract/sensor.schema';

export type MeasurementUnit = 'Metres' | 'Inches';
export const MM_PER_INCH = 25.4;
/** Default measurement interval in minutes (monitoring-client 3, 9). */
export const DEFAULT_MEASUREMENT_INTERVAL = 5;

/** Battery text: 'Less than 5%' below 5 percent (monitoring-client 9). */
export function batteryText(battery: number | undefined | null): string {
  if (battery === undefined || battery === null || !Number.isFinite(battery)) return 'N/A';
  if (battery < 5) return 'Less than 5%';
  return `${Math.round(battery)}%`;
}

/** A level in mm formatted in the organisation's unit: metres with 3 decimals, inches with 1. */
export function formatLevel(mm: number, unit: MeasurementUnit): string {
  return unit === 'Inches' ? `${(mm / MM_PER_INCH).toFixed(1)} in` : `${(mm / 1000).toFixed(3)} m`;
}

/** Level in mm of a raw distance: the offset minus the distance when an offset is set, else the distance. */
export function levelMm(sensor: { displayInfo: Pick<Sensor['displayInfo'], 'offsetMeasurement'> }, rawDistance: number): number {
  const offset = sensor.displayInfo.offsetMeasurement;
  return offset === null || offset === undefined ? rawDistance : offset - rawDistance;
}

/** The latest measurement as the list and highlight pane show it, or undefined without one. */
export function latestLevelText(sensor: { displayInfo: Pick<Sensor['displayInfo'], 'offsetMeasurement'>; latestData: Pick<NonNullable<Sensor['latestData']>, 'lastMeasurement'> | null }, unit: MeasurementUnit): string | undefined {
  const m = sensor.latestData?.lastMeasurement;
  return m ? formatLevel(levelMm(sensor, m.rawDistance), unit) : undefined;
}

/** Level as a percentage of the display range, when both limits are set and differ. */
export function levelPercent(sensor: { displayInfo: Pick<Sensor['displayInfo'], 'minLevel' | 'maxLevel'> }, level: number): number | undefined {
  const { minLevel, maxLevel } = sensor.displayInfo;
  if (minLevel === null || minLevel === undefined || maxLevel === null || maxLevel === undefined || maxLevel === minLevel) return undefined;
  return ((level - minLevel) / (maxLevel - minLevel)) * 100;
}

/** Measurement interval text: under 1 shows N/A; missing uses the default of 5 minutes. */
export function measurementIntervalText(minutes: number | undefined | null): string {
  const v = minutes ?? DEFAULT_MEASUREMENT_INTERVAL;
  if (!Number.isFinite(v) || v < 1) return 'N/A';
  return intervalText(v);
}

/** Minutes as '15 minutes', '1 hour', '6 hours', '1 day'. */
export function intervalText(minutes: number): string {
  if (!Number.isFinite(minutes) || minutes < 1) return 'N/A';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return plural(minutes, 'minute');
  // longer intervals read in days, hours and minutes: 8634 is "5 days 23 hours 54 minutes", not "8634 minutes"
  const parts = [[Math.floor(minutes / 1440), 'day'], [Math.floor((minutes % 1440) / 60), 'hour'], [minutes % 60, 'minute']] as const;
  return parts.filter(([n]) => n > 0).map(([n, unit]) => plural(n, unit)).join(' ');
}
