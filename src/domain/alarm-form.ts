import type { Alarm, Sensor, SensorUpdateRequest } from '../contract/sensor.schema';
import type { MeasurementUnit } from './sensor-format';
import { SETUP_RULES as M } from './setup-messages';
import { checkSensorUpdate, SATELLITE_SLOT_COUNT, SATELLITE_SLOT_START } from './sensor-update';
import { fromMm, parseNumber, toMm } from './setup-units';
import type { FormErrors } from './display-form';

/** The alarm types as the alarms tab names them (sensor-setup 3); rapid change and movement are the delta and accelerometer alarms. */
export const ALARM_LABELS: Record<Alarm['type'], string> = {
  THRESHOLD_DECREASING: 'Low level',
  THRESHOLD_INCREASING: 'High level',
  DELTA_INCREASING: 'Rapid change (rising)',
  DELTA_DECREASING: 'Rapid change (falling)',
  ACCELEROMETER: 'Movement',
};
const EDITABLE: Alarm['type'][] = ['THRESHOLD_DECREASING', 'THRESHOLD_INCREASING', 'DELTA_INCREASING', 'DELTA_DECREASING'];

export interface AlarmRow {
  type: Alarm['type'];
  enabled: boolean;
  threshold: string;
  slot?: string;
}
export type AlarmForm = AlarmRow[];

/** Levels and changes in the organisation's unit; movement is the device's 1-255 scale. */
const show = (a: Pick<Alarm, 'type' | 'threshold'>, unit: MeasurementUnit) => (a.type === 'ACCELEROMETER' ? a.threshold : fromMm(a.threshold, unit));
const store = (type: Alarm['type'], v: number, unit: MeasurementUnit) => (type === 'ACCELEROMETER' ? v : toMm(v, unit));

/** One row per type, from the slot holding it (searched from the type's start index). */
export function alarmFormOf(sensor: Pick<Sensor, 'alarms'>, unit: MeasurementUnit): AlarmForm {
  const types = [...EDITABLE, ...(Object.values(sensor.alarms).some((a) => a.type === 'ACCELEROMETER') ? (['ACCELEROMETER'] as const) : [])];
  return types.map((type) => {
    const slot = slotOf(sensor.alarms, type);
    const a = slot === undefined ? undefined : sensor.alarms[slot];
    return { type, enabled: !!a?.enabled, threshold: a ? String(show(a, unit)) : '', slot };
  });
}

function slotOf(alarms: Record<string, Alarm>, type: Alarm['type']): string | undefined {
  for (let i = SATELLITE_SLOT_START[type]; i < SATELLITE_SLOT_COUNT; i++) if (alarms[i]?.type === type) return String(i);
  return undefined;
}

/** Enabling with an empty threshold is an error; disabling clears it (sensor-setup 4). */
export const toggleAlarm = (f: AlarmForm, type: Alarm['type'], enabled: boolean): AlarmForm => f.map((r) => (r.type === type ? { ...r, enabled } : r));

/** The alarms body and the errors keyed by alarm type; a new alarm takes the first free slot from its type's start. */
export function alarmFormToBody(f: AlarmForm, unit: MeasurementUnit, sensor: Pick<Sensor, 'alarms' | 'sensorType' | 'displayInfo'>): { body: SensorUpdateRequest; errors: FormErrors } {
  const errors: FormErrors = {};
  const alarms: Record<string, Alarm> = { ...sensor.alarms };
  const slotType: Record<string, Alarm['type']> = {};
  for (const row of f) {
    const v = parseNumber(row.threshold);
    if (row.enabled && v === undefined) errors[row.type] = M.THRESHOLD_REQUIRED;
    if (v === undefined) {
      if (row.slot !== undefined) alarms[row.slot] = { ...alarms[row.slot], enabled: false };
      continue;
    }
    let slot = row.slot;
    if (slot === undefined) {
      for (let i = SATELLITE_SLOT_START[row.type]; i < SATELLITE_SLOT_COUNT && slot === undefined; i++) if (!alarms[i]) slot = String(i);
    }
    if (slot === undefined) continue; // no free slot: nothing to save for it
    alarms[slot] = { type: row.type, enabled: row.enabled, threshold: store(row.type, v, unit) };
    slotType[slot] = row.type;
  }
  const body: SensorUpdateRequest = { alarms };
  const checked = checkSensorUpdate(sensor, body);
  if (!checked.ok) for (const p of checked.problems) if (p.path[0] === 'alarms' && slotType[String(p.path[1])]) errors[slotType[String(p.path[1])]] ??= p.message;
  return { body, errors };
}
