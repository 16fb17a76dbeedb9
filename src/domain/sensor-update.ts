import { z } from 'zod';
import type { Alarm, Sensor } from '../contract/sensor.schema';
import { SETUP_RULES as M, ruleCodeOf, type SetupRuleCode } from './setup-messages';
import {
  conversionRulesSchema,
  coordinateSchema,
  displayInfoRulesSchema,
  hasAtMost3Decimals,
  integrationRulesSchema,
  LATITUDE_RANGE,
  LONGITUDE_RANGE,
  sensorNameSchema,
  validLevelRange,
} from './sensor-settings';
import { forecastAlarmRulesSchema } from './forecast-alarm';

/** Satellite alarm slots (sensor-setup 4): each type is searched from its start index up to the slot count. */
export const SATELLITE_SLOT_COUNT = 8;
export const SATELLITE_SLOT_START: Record<Alarm['type'], number> = {
  THRESHOLD_DECREASING: 0,
  THRESHOLD_INCREASING: 1,
  DELTA_INCREASING: 2,
  DELTA_DECREASING: 3,
  ACCELEROMETER: 4,
};

export const isSatellite = (sensor: Pick<Sensor, 'radio'>) => sensor.radio.type === 'myriota';

type SensorForRules = Pick<Sensor, 'sensorType' | 'displayInfo'>;

/** Every rule of the satellite alarms tab (sensor-setup 5): required, inside the valid range, low below high. */
export function alarmsRulesSchema(sensor: SensorForRules) {
  const [lo, hi] = validLevelRange(sensor);
  const depthMode = sensor.displayInfo.offsetMeasurement !== null && sensor.displayInfo.offsetMeasurement !== undefined;
  const alarm = z.object({
    type: z.enum(['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_INCREASING', 'DELTA_DECREASING', 'ACCELEROMETER']),
    enabled: z.boolean(),
    threshold: z.number({ error: M.THRESHOLD_REQUIRED }).refine(hasAtMost3Decimals, M.VALUE_DECIMALS),
  });
  return z.record(z.string(), alarm).superRefine((alarms, ctx) => {
    for (const [slot, a] of Object.entries(alarms)) {
      const n = Number(slot);
      if (!Number.isInteger(n) || n < 0 || n >= SATELLITE_SLOT_COUNT || String(n) !== slot) {
        ctx.addIssue({ code: 'custom', path: [slot], message: M.ALARM_SLOT_INVALID });
        continue;
      }
      if (!a.enabled) continue;
      const t = a.threshold;
      const inRange =
        a.type === 'ACCELEROMETER' ? t >= 1 && t <= 255 : a.type.startsWith('DELTA') ? t >= 1 && t < hi - lo : t >= lo && t <= hi;
      if (!inRange) ctx.addIssue({ code: 'custom', path: [slot, 'threshold'], message: M.THRESHOLD_OUT_OF_RANGE });
    }
    const find = (type: Alarm['type']) => Object.entries(alarms).find(([, a]) => a.type === type && a.enabled);
    const low = find('THRESHOLD_DECREASING');
    const high = find('THRESHOLD_INCREASING');
    if (low && high && !(low[1].threshold < high[1].threshold)) {
      ctx.addIssue({ code: 'custom', path: [low[0], 'threshold'], message: depthMode ? M.LOW_ABOVE_HIGH_DEPTH : M.LOW_ABOVE_HIGH_DISTANCE });
      ctx.addIssue({ code: 'custom', path: [high[0], 'threshold'], message: depthMode ? M.HIGH_BELOW_LOW_DEPTH : M.HIGH_BELOW_LOW_DISTANCE });
    }
  });
}

/**
 * The body of PUT /organisations/{orgId}/sensors/{sensorId}: only what a setup section may
 * change, each part optional. Anything else in the body is ignored (stripped).
 */
export function sensorUpdateRulesSchema(sensor: SensorForRules) {
  return z
    .object({
      name: sensorNameSchema.optional(),
      displayInfo: displayInfoRulesSchema.optional(),
      conversionConfigs: z.array(conversionRulesSchema).max(1, M.CONVERSION_TOO_MANY).optional(),
      latitude: coordinateSchema(LATITUDE_RANGE).optional(),
      longitude: coordinateSchema(LONGITUDE_RANGE).optional(),
      integration: integrationRulesSchema.optional(),
      alarms: alarmsRulesSchema(sensor).optional(),
      forecastAlarm: forecastAlarmRulesSchema.optional(),
    })
    .superRefine((b, ctx) => {
      if ((b.latitude === undefined) !== (b.longitude === undefined)) ctx.addIssue({ code: 'custom', path: ['latitude'], message: M.COORDINATES_INCOMPLETE });
    });
}
export type SensorUpdate = z.output<ReturnType<typeof sensorUpdateRulesSchema>>;

export interface RuleProblem {
  code: SetupRuleCode | 'INVALID_REQUEST';
  message: string;
  path: (string | number)[];
}

/** Every broken rule of a save, first the one to show; display settings are judged with the offset being saved. */
export function checkSensorUpdate(sensor: SensorForRules, body: unknown): { ok: true; value: SensorUpdate } | { ok: false; problems: RuleProblem[] } {
  const incoming = (body as { displayInfo?: { offsetMeasurement?: unknown } } | null)?.displayInfo;
  const offset = incoming && typeof incoming.offsetMeasurement === 'number' ? incoming.offsetMeasurement : incoming ? null : sensor.displayInfo.offsetMeasurement;
  const res = sensorUpdateRulesSchema({ ...sensor, displayInfo: { ...sensor.displayInfo, offsetMeasurement: offset } }).safeParse(body);
  if (res.success) return { ok: true, value: res.data };
  return {
    ok: false,
    problems: res.error.issues.map((i) => ({ code: ruleCodeOf(i.message) ?? 'INVALID_REQUEST', message: i.message, path: i.path as (string | number)[] })),
  };
}
