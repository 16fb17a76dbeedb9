import type { NOTIFICATION_TYPES } from '../../src/contract/notification.schema';
import type { Uplink } from '../../src/contract/uplink.schema';

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Rapid change (delta) and movement look back this far (sensor-setup.md 9: 1 hour). */
export const ALARM_WINDOW_MS = 3_600_000;
/** Below this battery percentage a LOW_BATTERY notification is open (monitoring-client.md 9). */
export const LOW_BATTERY_PERCENT = 10;

export interface AlarmSetting {
  type: string;
  threshold: number;
  enabled: boolean;
}

export interface ConditionMeta {
  type: NotificationType;
  alarmSetting?: (AlarmSetting & { index: string }) | null;
  measurement?: number | null;
  delta?: number | null;
  errorCode?: string;
  /** FORECAST_ALARM (server/alarms/forecast.ts). */
  forecast?: { target: 'empty' | 'full'; withinDays: number; days: number; at: number | null };
}

/**
 * What one uplink says about one alarm condition. `active` undefined means the uplink carries
 * no evidence either way (e.g. no new measurement), so an open notification stays as it is.
 */
export interface Condition {
  key: string;
  active: boolean | undefined;
  /** Time of the evidence: a measurement or error time, or the server time. */
  at: number;
  meta: ConditionMeta;
}

export interface RuleInput {
  alarms: Record<string, AlarmSetting>;
  displayInfo: { offsetMeasurement?: number | null; minLevel?: number | null; maxLevel?: number | null };
  up: Uplink;
  /** The newest measurement this uplink added, if it is newer than any before it. */
  newest?: { time: number; raw_distance: number };
  /** The oldest stored measurement within ALARM_WINDOW_MS before `newest` (for rapid change). */
  windowStart?: { time: number; raw_distance: number };
  /** Start times of the sensor's open notifications by condition key. */
  openSince: Map<string, number>;
  now: number;
}

/** Level in mm of water above the sensor's zero: offsetMeasurement - rawDistance (DESIGN.md units). */
export const levelOf = (rawDistance: number, offset: number | null | undefined) => (offset ?? 0) - rawDistance;

const round = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The alarm rules, pure. Units: alarm thresholds and deltas are millimetres of displayed level,
 * like displayInfo's minLevel and maxLevel; a rapid-change threshold is a magnitude (its sign is
 * ignored) over the 1-hour window; the accelerometer threshold is the device's 0-255 reading.
 */
export function evaluateConditions(i: RuleInput): Condition[] {
  const out: Condition[] = [];
  const offset = i.displayInfo.offsetMeasurement;
  const level = i.newest ? round(levelOf(i.newest.raw_distance, offset)) : undefined;
  const delta = i.newest && i.windowStart ? round(levelOf(i.newest.raw_distance, offset) - levelOf(i.windowStart.raw_distance, offset)) : undefined;

  for (const [index, a] of Object.entries(i.alarms ?? {}).sort(([x], [y]) => x.localeCompare(y))) {
    const key = `alarm:${index}`;
    const alarmSetting = { type: a.type, threshold: a.threshold, enabled: a.enabled, index };
    const threshold = Number(a.threshold);
    if (!a.enabled || !Number.isFinite(threshold)) {
      // a disabled or removed alarm closes what it had opened
      out.push({ key, active: false, at: i.now, meta: { type: typeForAlarm(a.type), alarmSetting } });
      continue;
    }
    switch (a.type) {
      case 'THRESHOLD_INCREASING':
      case 'THRESHOLD_DECREASING': {
        const active = level === undefined ? undefined : a.type === 'THRESHOLD_INCREASING' ? level >= threshold : level <= threshold;
        out.push({ key, active, at: i.newest?.time ?? i.now, meta: { type: 'THRESHOLD_ALARM', alarmSetting, measurement: level ?? null } });
        break;
      }
      case 'DELTA_INCREASING':
      case 'DELTA_DECREASING': {
        const size = Math.abs(threshold);
        const active = delta === undefined ? (level === undefined ? undefined : false) : a.type === 'DELTA_INCREASING' ? delta >= size : -delta >= size;
        out.push({ key, active, at: i.newest?.time ?? i.now, meta: { type: 'DELTA_ALARM', alarmSetting, measurement: level ?? null, delta: delta ?? null } });
        break;
      }
      case 'ACCELEROMETER': {
        // a movement alert lasts while readings stay over the threshold, and at most the
        // 1-hour movement window once the device stops reporting movement
        const since = i.openSince.get(key);
        const active =
          i.up.accelerometer !== undefined ? i.up.accelerometer > threshold : since !== undefined && i.now - since >= ALARM_WINDOW_MS ? false : undefined;
        out.push({ key, active, at: i.now, meta: { type: 'ACCELEROMETER', alarmSetting, measurement: i.up.accelerometer ?? null } });
        break;
      }
    }
  }
  // Open notifications of alarms that no longer exist are closed by the engine (see engine.ts).

  const { minLevel, maxLevel } = i.displayInfo;
  if (level !== undefined) {
    const outside = (minLevel != null && level < minLevel) || (maxLevel != null && level > maxLevel);
    out.push({ key: 'level', active: outside, at: i.newest!.time, meta: { type: 'WATER_LEVEL_ALARM', measurement: level } });
  }

  // a sensor error is current until a good measurement newer than it arrives
  const newestError = i.up.errors.reduce<{ time: number; code: string } | undefined>((a, e) => (!a || e.time > a.time ? e : a), undefined);
  const newestGood = i.up.measurements.reduce<number | undefined>((a, m) => (a === undefined || m.time > a ? m.time : a), undefined);
  if (newestError && (newestGood === undefined || newestError.time > newestGood)) {
    out.push({ key: 'error', active: true, at: newestError.time, meta: { type: 'SENSOR_ERROR', errorCode: newestError.code } });
  } else if (newestGood !== undefined) {
    out.push({ key: 'error', active: false, at: newestGood, meta: { type: 'SENSOR_ERROR' } });
  }

  if (i.up.battery !== undefined) {
    out.push({ key: 'battery', active: i.up.battery < LOW_BATTERY_PERCENT, at: i.now, meta: { type: 'LOW_BATTERY', measurement: i.up.battery } });
  }

  // any uplink proves the sensor is online again
  out.push({ key: 'offline', active: false, at: i.now, meta: { type: 'SENSOR_OFFLINE' } });
  return out;
}

function typeForAlarm(t: string): NotificationType {
  if (t.startsWith('DELTA')) return 'DELTA_ALARM';
  if (t === 'ACCELEROMETER') return 'ACCELEROMETER';
  return 'THRESHOLD_ALARM';
}

/** Alarm notifications assert the sensor's alert; offline, low battery and sensor errors are warnings. */
export const ALERT_TYPES: ReadonlySet<string> = new Set(['THRESHOLD_ALARM', 'DELTA_ALARM', 'ACCELEROMETER', 'WATER_LEVEL_ALARM']);
