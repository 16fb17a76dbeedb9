import type { Alarm } from '../contract/sensor.schema';
import { SENSOR_RANGE_MM, sensorTypeOf } from './sensor-types';
import { SETUP_RULES } from './setup-messages';
import { ALARM_LABELS } from './alarm-form';

/** Field rules of the remote-task forms (sensor-setup 5), shared with the server. Thresholds are mm of displayed level. */

export const ALARM_MESSAGES = {
  required: 'Please input the threshold',
  notNumber: 'The threshold must be a number',
  negativePercent: 'The percentage must not be negative',
  outOfRange: 'The threshold has exceeded the measurement range of the sensor.',
  rapid: 'The rapid change must be at least 1 and less than the range of the sensor',
  accelerometer: 'The threshold must be between 0 and 255',
} as const;

/**
 * How a level threshold is typed (sensor-setup 5, "mode-specific messages"): a depth when the
 * sensor has an offset, a distance when it has none, or a percentage of the display limits.
 */
export type ThresholdMode = 'depth' | 'distance' | 'percentage';

/** The ordering messages: the alarms tab's wording (depth or distance bigger or smaller than the other alarm), and the same for a percentage. */
export const ALARM_ORDER_MESSAGES: Record<ThresholdMode, { lowAboveHigh: string; highBelowLow: string }> = {
  depth: { lowAboveHigh: SETUP_RULES.LOW_ABOVE_HIGH_DEPTH, highBelowLow: SETUP_RULES.HIGH_BELOW_LOW_DEPTH },
  distance: { lowAboveHigh: SETUP_RULES.LOW_ABOVE_HIGH_DISTANCE, highBelowLow: SETUP_RULES.HIGH_BELOW_LOW_DISTANCE },
  percentage: { lowAboveHigh: 'The percentage is bigger than the high level alarm', highBelowLow: 'The percentage is smaller than the low level alarm' },
};

/** depth with an offset, else distance (the stored threshold is then a distance). */
export const levelMode = (offset: number | null | undefined): 'depth' | 'distance' => (offset === null || offset === undefined ? 'distance' : 'depth');

export interface DisplayLimits {
  minLevel?: number | null;
  maxLevel?: number | null;
}

/** Whether thresholds can be typed as a percentage: both display limits set and different. */
export const percentAvailable = (d: DisplayLimits) => typeof d.minLevel === 'number' && typeof d.maxLevel === 'number' && d.minLevel !== d.maxLevel;

/**
 * A typed percentage to the stored threshold (mm): the minimum display level plus that share of
 * the display range, to 3 decimals of a mm. Negative or not a number: the percentage message, or
 * undefined when it does not convert to a finite value (no display limits).
 */
export function percentToMm(percent: number, d: DisplayLimits): number | undefined {
  if (!percentAvailable(d)) return undefined;
  const mm = d.minLevel! + (percent / 100) * (d.maxLevel! - d.minLevel!);
  return Number.isFinite(mm) ? Math.round(mm * 1000) / 1000 : undefined;
}

/** A stored threshold (mm) as a percentage of the display limits, to 3 decimals. */
export function mmToPercent(mm: number, d: DisplayLimits): number | undefined {
  if (!percentAvailable(d)) return undefined;
  return Math.round(((mm - d.minLevel!) / (d.maxLevel! - d.minLevel!)) * 100 * 1000) / 1000;
}

/**
 * The percentage field's own rules (section 5): required, a number, not negative, and it must
 * convert to a valid value; null when it does (then the mm rules of alarmValueError apply).
 */
export function percentError(percent: number | undefined, enabled: boolean, d: DisplayLimits): string | null {
  if (percent === undefined) return enabled ? ALARM_MESSAGES.required : null;
  if (!Number.isFinite(percent)) return ALARM_MESSAGES.notNumber;
  if (percent < 0) return ALARM_MESSAGES.negativePercent;
  if (percentToMm(percent, d) === undefined) return ALARM_MESSAGES.notNumber;
  return null;
}

/** The task form and task rows name alarms as the Alarm Settings tab does (issue 36 item 7). */
export const ALARM_TYPE_LABEL: Record<Alarm['type'], string> = ALARM_LABELS;

export function rangeOf(sensorType: string) {
  const t = sensorTypeOf(sensorType);
  return t ? SENSOR_RANGE_MM[t] : { min: 0, max: 20000 };
}

/** The thresholds (mm) the sensor can measure: offset minus its distance range, or the distance range itself without an offset. */
export function levelRange(sensorType: string, offset: number | null | undefined) {
  const r = rangeOf(sensorType);
  if (offset === null || offset === undefined) return { min: r.min, max: r.max };
  return { min: offset - r.max, max: offset - r.min };
}

/**
 * The message for an alarm value, or null. `others` are the threshold alarms in force once the
 * queue has run (queued task values over the sensor's), used for the ordering rule.
 */
export function alarmValueError(
  value: { type: Alarm['type']; threshold: number | undefined; enabled: boolean },
  sensor: { sensorType: string; offset: number | null | undefined },
  others: Partial<Record<Alarm['type'], number>>,
  mode: ThresholdMode = levelMode(sensor.offset),
): string | null {
  const th = value.threshold;
  if (th === undefined || (typeof th === 'number' && Number.isNaN(th))) return value.enabled ? ALARM_MESSAGES.required : null;
  if (!Number.isFinite(th)) return ALARM_MESSAGES.notNumber;
  switch (value.type) {
    case 'ACCELEROMETER':
      return Number.isInteger(th) && th >= 1 && th <= 255 ? null : ALARM_MESSAGES.accelerometer;
    case 'DELTA_INCREASING':
    case 'DELTA_DECREASING': {
      const r = rangeOf(sensor.sensorType);
      return th >= 1 && th < r.max - r.min ? null : ALARM_MESSAGES.rapid;
    }
    default: {
      const lr = levelRange(sensor.sensorType, sensor.offset);
      if (th < lr.min || th > lr.max) return ALARM_MESSAGES.outOfRange;
      if (!value.enabled) return null;
      const high = others.THRESHOLD_INCREASING;
      const low = others.THRESHOLD_DECREASING;
      if (value.type === 'THRESHOLD_DECREASING' && high !== undefined && th >= high) return ALARM_ORDER_MESSAGES[mode].lowAboveHigh;
      if (value.type === 'THRESHOLD_INCREASING' && low !== undefined && th <= low) return ALARM_ORDER_MESSAGES[mode].highBelowLow;
      return null;
    }
  }
}

/**
 * The enabled alarms in force once the queue has run, by type, leaving out the slot being edited:
 * the sensor's, overridden by the queued AlarmConfig tasks' values (the ordering rule's others).
 */
export function alarmsInForce(alarms: Record<string, Alarm>, queuedValues: Alarm[], index: number | undefined): Partial<Record<Alarm['type'], number>> {
  const others: Partial<Record<Alarm['type'], number>> = {};
  for (const [k, a] of Object.entries(alarms)) if (a.enabled && Number(k) !== index) others[a.type] = a.threshold;
  for (const v of queuedValues) {
    if (v.enabled) others[v.type] = v.threshold;
    else delete others[v.type];
  }
  return others;
}

export const sameAlarm = (a: Alarm | null | undefined, b: Alarm | null | undefined) =>
  (!a && !b) || (!!a && !!b && a.type === b.type && a.enabled === b.enabled && Number(a.threshold) === Number(b.threshold));

/** The slot an alarm of this type goes to: the slot holding that type, else the first free one not claimed by a queued task. */
export function alarmSlotFor(type: Alarm['type'], alarms: Record<string, Alarm>, claimed: Set<number>): number | undefined {
  for (const [k, a] of Object.entries(alarms)) if (a.type === type) return Number(k);
  for (let i = 0; i < 8; i++) if (!alarms[String(i)] && !claimed.has(i)) return i;
  return undefined;
}

/** Alarm types the remote alarm form offers (section 4): none already queued; movement only when the sensor has one. */
export function offeredAlarmTypes(alarms: Record<string, Alarm>, queuedTypes: Set<string>): Alarm['type'][] {
  const hasMovement = Object.values(alarms).some((a) => a.type === 'ACCELEROMETER');
  const all: Alarm['type'][] = ['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_INCREASING', 'DELTA_DECREASING', 'ACCELEROMETER'];
  return all.filter((t) => !queuedTypes.has(t) && (t !== 'ACCELEROMETER' || hasMovement));
}

export const EXTENDED_MESSAGES = {
  minInt: (min: number) => `The minimum must be a whole number above ${min} mm`,
  maxInt: (max: number) => `The maximum must be a whole number below ${max} mm`,
  order: 'The minimum must be less than the maximum',
} as const;

/** User range of the extended config (site admins): integers strictly inside the type's range, min below max. */
export function userRangeErrors(sensorType: string, min: number | undefined, max: number | undefined): { min?: string; max?: string } {
  const r = rangeOf(sensorType);
  const e: { min?: string; max?: string } = {};
  if (min === undefined || !Number.isInteger(min) || min <= r.min) e.min = EXTENDED_MESSAGES.minInt(r.min);
  if (max === undefined || !Number.isInteger(max) || max >= r.max) e.max = EXTENDED_MESSAGES.maxInt(r.max);
  if (!e.min && !e.max && min! >= max!) e.max = EXTENDED_MESSAGES.order;
  return e;
}

export const TRANSMISSION_MESSAGES = {
  startingLevel: 'Enter a valid starting level',
  noStartingLevel: 'No starting level entered',
  noOffset: 'No offset measurement configured',
} as const;

/** Starting level (mm): required when extra radar data is on, digits only, fewer than 5 digits. */
export function startingLevelError(enabled: boolean, text: string): string | null {
  if (!enabled) return null;
  return /^\d{1,4}$/.test(text.trim()) ? null : TRANSMISSION_MESSAGES.startingLevel;
}

/** In distance mode the stored level is the offset minus the distance (section 4). */
export function startingLevelFromDistance(offset: number | null | undefined, distanceMm: number): number | null {
  if (offset === null || offset === undefined) return null;
  return Math.round(offset - distanceMm);
}

/** Radar (remote task) rules: each field's inclusive range and whether it must be whole. */
export const RADAR_FIELDS = {
  debugInterval: { min: 0, max: 255, int: true, label: 'Debug interval' },
  scoreSize: { min: 0, max: 2, int: false, label: 'Score size' },
  scoreReflection: { min: 0, max: 4, int: false, label: 'Score reflection' },
  gain: { min: 0, max: 1, int: false, label: 'Gain' },
  profile: { min: 1, max: 5, int: true, label: 'Profile' },
  hwAvg: { min: 0, max: 63, int: true, label: 'Hardware average' },
} as const;

export function radarFieldError(field: keyof typeof RADAR_FIELDS, v: number | undefined): string | null {
  const f = RADAR_FIELDS[field];
  if (v === undefined || !Number.isFinite(v)) return `${f.label} is required`;
  if (v < 0) return `${f.label} must not be negative`;
  if (v < f.min || v > f.max || (f.int && !Number.isInteger(v))) return `${f.label} must be ${f.int ? 'a whole number ' : ''}from ${f.min} to ${f.max}`;
  return null;
}

/** Radar option values (section 3) and defaults (section 9). */
export const PEAK_SORTING = ['ClosestFirst', 'StrongestFirst', 'StrongestReflectorFirst', 'StrongestFlatReflectorFirst'] as const;
export const THRESHOLD_TYPE = ['Fixed', 'Recorded', 'Cfar', 'RecordedCfar'] as const;
export const FULL_RADAR_DEFAULTS = {
  gain: 0.3,
  profile: 2,
  startDistance: 0.2,
  endDistance: 3.5,
  hwAvg: 30,
  thresholdType: 2,
  peakSorting: 3,
  noiseNormalization: true,
  runningAvgFactor: 0.9,
  sweepCount: 100,
  highAccuracyScan: false,
  interferenceCheck: false,
} as const;
export const HW_AVG_OPTIONS = [10, 30, 63] as const;
