import { z } from 'zod';
import type { ForecastAlarm, Sensor } from '../contract/sensor.schema';
import { SETUP_RULES as M } from './setup-messages';

/**
 * The forecast alarm (beyond the spec, docs/decisions.md): "empty within N days" and "full within
 * N days" of a tank with a volume conversion, judged on the usage forecast (the data core's rolling
 * daily use). It is a setting of the sensor on the server, not one of the device's alarm slots, and
 * it never changes how the spec's notification types behave.
 */
export const FORECAST_ALARM_MAX_DAYS = 60;
export const FORECAST_DIRECTIONS = ['empty', 'full'] as const;
export type ForecastDirection = (typeof FORECAST_DIRECTIONS)[number];

const days = z.number({ error: M.FORECAST_DAYS_INVALID }).int(M.FORECAST_DAYS_INVALID).min(1, M.FORECAST_DAYS_INVALID).max(FORECAST_ALARM_MAX_DAYS, M.FORECAST_DAYS_INVALID).nullable();

/** The body's forecastAlarm: each direction a whole number of days from 1 to 60, or null (off). */
export const forecastAlarmRulesSchema = z.object({ emptyWithinDays: days, fullWithinDays: days });

/** Whether the sensor can have one: its conversion is a tank volume. */
export const hasVolumeConversion = (sensor: Pick<Sensor, 'conversionConfigs'>) => (sensor.conversionConfigs[0]?.type ?? '').startsWith('VOLUME_');

/** The section's form: a switch and a days field per direction (the field as typed). */
export interface ForecastAlarmForm {
  empty: { on: boolean; days: string };
  full: { on: boolean; days: string };
}

const DEFAULT_DAYS = { empty: '7', full: '3' };

export function forecastFormOf(sensor: Pick<Sensor, 'forecastAlarm'>): ForecastAlarmForm {
  const a = sensor.forecastAlarm;
  const side = (d: ForecastDirection, v: number | null | undefined) => (v == null ? { on: false, days: DEFAULT_DAYS[d] } : { on: true, days: String(v) });
  return { empty: side('empty', a?.emptyWithinDays), full: side('full', a?.fullWithinDays) };
}

/** The PUT body from the form, or the field errors (a switched-off direction is never checked). */
export function forecastFormToBody(f: ForecastAlarmForm): { body: { forecastAlarm: ForecastAlarm }; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const read = (d: ForecastDirection): number | null => {
    if (!f[d].on) return null;
    const text = f[d].days.trim();
    const n = text === '' ? NaN : Number(text);
    if (!days.safeParse(n).success) errors[d] = M.FORECAST_DAYS_INVALID;
    return n;
  };
  const forecastAlarm = { emptyWithinDays: read('empty'), fullWithinDays: read('full') };
  return { body: { forecastAlarm }, errors };
}

/** A forecast as the usage analysis answers it (wasm-core/usage.ts UsageForecast, the parts read here). */
export interface ForecastLike {
  target: string;
  days: number | null;
  at: number | null;
  daysUsed: number;
}

export interface ForecastCondition {
  key: `forecast:${ForecastDirection}`;
  direction: ForecastDirection;
  /** undefined: no evidence either way (too little history), so an open notification stays. */
  active: boolean | undefined;
  withinDays: number | null;
  days: number | null;
  at: number | null;
}

/** The data core's least history for a forecast (wasm-core/usage.ts FORECAST_MIN_DAYS). */
const MIN_HISTORY_DAYS = 3;

/**
 * What the forecasts say about each direction of the alarm: active while the tank is forecast to
 * reach empty (or full) within the alarm's days; inactive when it is not, when the direction is off,
 * or when the tank is not heading that way; undefined with under 3 days of history.
 */
export function forecastConditions(setting: ForecastAlarm | null | undefined, forecasts: readonly ForecastLike[]): ForecastCondition[] {
  return FORECAST_DIRECTIONS.map((direction) => {
    const withinDays = (direction === 'empty' ? setting?.emptyWithinDays : setting?.fullWithinDays) ?? null;
    const f = forecasts.find((x) => x.target === direction);
    const key = `forecast:${direction}` as const;
    if (withinDays === null) return { key, direction, active: false, withinDays, days: null, at: null };
    // no full level set: a tank is never forecast full
    if (!f) return { key, direction, active: false, withinDays, days: null, at: null };
    if (f.daysUsed < MIN_HISTORY_DAYS) return { key, direction, active: undefined, withinDays, days: null, at: null };
    const active = f.days !== null && f.days >= 0 && f.days <= withinDays;
    return { key, direction, active, withinDays, days: f.days, at: f.at };
  });
}
