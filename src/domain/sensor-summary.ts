import { conversionConfigSchema, type ConversionConfig, type LatestData, type Sensor } from '../contract/sensor.schema';
import { SUMMARY_FIELDS, type SummaryField } from '../contract/sensor-summary.schema';

/**
 * One sensor of the compact list (GET .../sensors?view=summary), shaped as the parts of the full
 * Sensor that the list, its status icon, the map and the organisation CSV read, so the same
 * functions (displayStatus, latestLevelText, sensorsCsv) take either.
 */
export interface SensorSummary extends Pick<Sensor, 'id' | 'serial' | 'name' | 'latitude' | 'longitude'> {
  config: { schedulerEnabled: boolean };
  latestData: Pick<LatestData, 'lastSeen' | 'alertAsserted' | 'offlineAsserted' | 'battery' | 'lastMeasurement'> | null;
  displayInfo: Pick<Sensor['displayInfo'], 'offsetMeasurement' | 'minLevel' | 'maxLevel'>;
  conversionConfigs: ConversionConfig[];
  /** Fields whose stored value was not what the contract says (shown as N/A; the row is marked). */
  invalid?: SummaryField[];
}

/** What a row with a bad value shows in place of its name or serial. */
export const NOT_AVAILABLE = 'N/A';

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const str = (v: unknown): v is string => typeof v === 'string';
const bool = (v: unknown): v is boolean => typeof v === 'boolean';

/**
 * Reads one row of the compact list. A value of the wrong type becomes N/A (undefined or null)
 * and its field is listed in `invalid`: one malformed record must not blank the whole list.
 * Returns undefined only when the row is not an array at all.
 */
export function readSummaryRow(row: unknown, at: Record<SummaryField, number>): SensorSummary | undefined {
  if (!Array.isArray(row)) return undefined;
  const invalid: SummaryField[] = [];
  // absent (null) is a value the contract allows for every optional field; anything else must check
  const get = <T>(f: SummaryField, ok: (v: unknown) => v is T): T | undefined => {
    const v: unknown = row[at[f]];
    if (v === null || v === undefined) return undefined;
    if (ok(v)) return v;
    invalid.push(f);
    return undefined;
  };
  const required = (f: SummaryField): string => {
    const v: unknown = row[at[f]];
    if (str(v) && v !== '') return v;
    invalid.push(f);
    return '';
  };
  const id = required('id');
  const serial = required('serial');
  const name = required('name');
  const latitude = get('latitude', num) ?? null;
  const longitude = get('longitude', num) ?? null;
  const schedulerEnabled = get('schedulerEnabled', bool);
  const lastSeen = get('lastSeen', num);
  const alertAsserted = get('alertAsserted', bool);
  const offlineAsserted = get('offlineAsserted', bool);
  const battery = get('battery', num);
  const time = get('measurementTime', num);
  const rawDistance = get('rawDistance', num);
  const conversion = get('conversion', (v): v is ConversionConfig => conversionConfigSchema.safeParse(v).success);
  const summary: SensorSummary = {
    id,
    serial,
    name,
    latitude,
    longitude,
    // a missing flag reads as enabled, as the full record's default
    config: { schedulerEnabled: schedulerEnabled ?? true },
    latestData: null,
    displayInfo: { offsetMeasurement: get('offsetMeasurement', num) ?? null, minLevel: get('minLevel', num) ?? null, maxLevel: get('maxLevel', num) ?? null },
    conversionConfigs: conversion ? [conversion] : [],
  };
  const latest: NonNullable<SensorSummary['latestData']> = {};
  if (lastSeen !== undefined) latest.lastSeen = lastSeen;
  if (alertAsserted !== undefined) latest.alertAsserted = alertAsserted;
  if (offlineAsserted !== undefined) latest.offlineAsserted = offlineAsserted;
  if (battery !== undefined) latest.battery = battery;
  if (time !== undefined && rawDistance !== undefined) latest.lastMeasurement = { time, rawDistance };
  if (Object.keys(latest).length > 0) summary.latestData = latest;
  if (invalid.length > 0) summary.invalid = invalid;
  return summary;
}

/** Column positions of the fields this client knows, from the body's `fields` (a server may add or reorder fields). */
export function fieldPositions(fields: readonly unknown[]): Record<SummaryField, number> {
  const at = {} as Record<SummaryField, number>;
  for (const f of SUMMARY_FIELDS) at[f] = fields.indexOf(f); // -1 reads undefined: the field is absent
  return at;
}

/** The summary of a full record (after a setup save, or for tests). */
export function summaryOf(s: Sensor): SensorSummary {
  const d = s.latestData;
  return {
    id: s.id,
    serial: s.serial,
    name: s.name,
    latitude: s.latitude,
    longitude: s.longitude,
    config: { schedulerEnabled: s.config.schedulerEnabled },
    latestData: d ? { lastSeen: d.lastSeen, alertAsserted: d.alertAsserted, offlineAsserted: d.offlineAsserted, battery: d.battery, lastMeasurement: d.lastMeasurement } : null,
    displayInfo: { offsetMeasurement: s.displayInfo.offsetMeasurement ?? null, minLevel: s.displayInfo.minLevel ?? null, maxLevel: s.displayInfo.maxLevel ?? null },
    conversionConfigs: s.conversionConfigs.slice(0, 1),
  };
}

/** A live uplink's latest data merged into a summary (a new object: the row that shows it re-renders, no other). */
export function withLatest(s: SensorSummary, latest: Partial<LatestData>): SensorSummary {
  const prev = s.latestData ?? {};
  const next: NonNullable<SensorSummary['latestData']> = { ...prev };
  if (num(latest.lastSeen)) next.lastSeen = latest.lastSeen;
  if (bool(latest.alertAsserted)) next.alertAsserted = latest.alertAsserted;
  if (bool(latest.offlineAsserted)) next.offlineAsserted = latest.offlineAsserted;
  if (num(latest.battery)) next.battery = latest.battery;
  const m = latest.lastMeasurement;
  if (m && num(m.time) && num(m.rawDistance)) next.lastMeasurement = { time: m.time, rawDistance: m.rawDistance };
  return { ...s, latestData: next };
}
