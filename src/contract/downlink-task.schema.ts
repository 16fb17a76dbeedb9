import { z } from 'zod';
import { alarmSchema, sensorSchema } from './sensor.schema';

/** Remote (downlink) tasks: sensor-setup 3, 7 and 9. */
export const TASK_STATUSES = ['Created', 'Dispatched', 'Success', 'Error', 'Timeout', 'Canceled'] as const;
export const taskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const TASK_TYPES = ['SensorConfig', 'AlarmConfig', 'FirmwareDownload', 'RadarConfig', 'ExtendedConfig', 'TransmissionConfig', 'FullRadarConfig'] as const;
export const taskTypeSchema = z.enum(TASK_TYPES);
export type TaskType = z.infer<typeof taskTypeSchema>;

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const num = (min: number, max: number) => z.number().finite().min(min).max(max);

export const sensorConfigParamsSchema = z.object({
  measurementInterval: int(1, 1439),
  measurementsPerTransmission: int(1, 12),
  maxGradient: num(0, 4700),
  deltaCompressionEnabled: z.boolean(),
});
export const alarmConfigParamsSchema = z.object({
  index: int(0, 7),
  value: alarmSchema,
  /** The slot as the form saw it: null when it was empty. */
  original: alarmSchema.nullable(),
});
export const firmwareParamsSchema = z.object({ fwId: z.string().uuid() });
export const radarParamsSchema = z.object({
  debugInterval: int(0, 255),
  scoreSize: num(0, 2),
  scoreReflection: num(0, 4),
  gain: num(0, 1),
  profile: int(1, 5),
  hwAvg: int(0, 63).optional(),
  /** From firmware 70 a scoring method replaces hwAvg. */
  scoringMethod: int(0, 3).optional(),
  checkTooClose: z.boolean(),
});
export const extendedParamsSchema = z.object({
  txCountOnAlarm: int(1, 6),
  userRangeEnabled: z.boolean(),
  userRangeMin: int(0, 20000),
  userRangeMax: int(0, 20000),
});
export const transmissionParamsSchema = z.object({
  additionalRadarDataEnabled: z.boolean(),
  startingLevelMm: int(0, 9999).nullable(),
});
export const fullRadarParamsSchema = z.object({
  gain: num(0, 1),
  profile: int(1, 5),
  startDistance: num(0, 20),
  endDistance: num(0, 20),
  length: num(0, 20),
  hwAvg: int(0, 63),
  thresholdType: int(0, 3),
  peakSorting: int(0, 3),
  noiseNormalization: z.boolean(),
  runningAvgFactor: num(0, 1),
  sweepCount: int(1, 1000),
  highAccuracyScan: z.boolean(),
  interferenceCheck: z.boolean(),
});

/** The radar settings a device reports about itself (length derived when missing). */
export const reportedRadarSettingsSchema = fullRadarParamsSchema.partial({ length: true });

/** GET .../radar-settings (site admins): what the sensor's radar runs with, as last known, or null. */
export const radarSettingsSchema = z.object({
  settings: fullRadarParamsSchema,
  /** 'task': a FullRadarConfig task succeeded; 'device': the device reported them. */
  source: z.enum(['task', 'device']),
  taskId: z.string().nullable(),
  updatedAt: z.number(),
});
export const radarSettingsResponseSchema = z.object({ radarSettings: radarSettingsSchema.nullable() });
export type RadarSettings = z.infer<typeof radarSettingsSchema>;

/** POST .../downlink-tasks: a type and its params, checked per type. */
export const createTaskRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('SensorConfig'), params: sensorConfigParamsSchema }),
  z.object({ type: z.literal('AlarmConfig'), params: alarmConfigParamsSchema }),
  z.object({ type: z.literal('FirmwareDownload'), params: firmwareParamsSchema }),
  z.object({ type: z.literal('RadarConfig'), params: radarParamsSchema }),
  z.object({ type: z.literal('ExtendedConfig'), params: extendedParamsSchema }),
  z.object({ type: z.literal('TransmissionConfig'), params: transmissionParamsSchema }),
  z.object({ type: z.literal('FullRadarConfig'), params: fullRadarParamsSchema }),
]);
export type CreateTaskRequest = z.infer<typeof createTaskRequestSchema>;
export type SensorConfigParams = z.infer<typeof sensorConfigParamsSchema>;
export type AlarmConfigParams = z.infer<typeof alarmConfigParamsSchema>;
export type RadarParams = z.infer<typeof radarParamsSchema>;
export type ExtendedParams = z.infer<typeof extendedParamsSchema>;
export type TransmissionParams = z.infer<typeof transmissionParamsSchema>;
export type FullRadarParams = z.infer<typeof fullRadarParamsSchema>;

export const downlinkTaskSchema = z.object({
  id: z.string(),
  sensorId: z.string(),
  type: taskTypeSchema,
  params: z.record(z.string(), z.unknown()),
  status: taskStatusSchema,
  createdAt: z.number(),
  dispatchedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** A failed task: why, when the device said (its report's reason). */
  reason: z.string().nullable().optional(),
});
export type DownlinkTask = z.infer<typeof downlinkTaskSchema>;

/** GET .../downlink-tasks?limit=: queued in run order, completed newest first (limit 10, or 1000 for site admins). */
export const taskListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(10) });
export const taskListSchema = z.object({
  queued: z.array(downlinkTaskSchema),
  completed: z.array(downlinkTaskSchema),
  /** How many completed tasks exist in all (Show More when above the list's length). */
  completedTotal: z.number().int(),
});
export type TaskList = z.infer<typeof taskListSchema>;
export const taskResponseSchema = z.object({ task: downlinkTaskSchema });

/** PATCH .../downlink-tasks/{taskId}: the only change a client may ask for. */
export const cancelTaskRequestSchema = z.object({ status: z.literal('Canceled') });

/** PUT .../pending-config: what an update-rate save asked for, shown until its tasks are done. */
export const pendingConfigSchema = z.object({
  measurementInterval: int(1, 1439),
  transmissionInterval: int(1, 1440 * 12),
  measurementsPerTransmission: int(1, 12).optional(),
  deltaCompressionEnabled: z.boolean().optional(),
  maxGradient: num(0, 4700).optional(),
  txCountOnAlarm: int(1, 6).optional(),
});
export type PendingConfig = z.infer<typeof pendingConfigSchema>;
export const pendingConfigResponseSchema = z.object({ pendingConfig: pendingConfigSchema.nullable(), canceled: z.array(z.string()).default([]) });

/** Payload on orgs/{orgId}/sensors/{sensorId}/downlink-tasks whenever a task changes, with the sensor as it is after. */
export const liveTaskMessageSchema = z.object({
  sensorId: z.string(),
  serial: z.string(),
  task: downlinkTaskSchema,
  sensor: sensorSchema,
});
export type LiveTaskMessage = z.infer<typeof liveTaskMessageSchema>;

export const REMOTE_TASK_CODES = {
  notSupported: 'REMOTE_TASKS_NOT_SUPPORTED',
  schedulerOff: 'SENSOR_SCHEDULER_DISABLED',
  firmware: 'FIRMWARE_TOO_OLD',
  notAllowed: 'TASK_TYPE_NOT_ALLOWED',
  limit: 'TASK_LIMIT_REACHED',
  invalid: 'INVALID_TASK_PARAMS',
  unchanged: 'UNCHANGED',
  duplicateAlarm: 'DUPLICATE_ALARM_CONFIG_TASK',
  alarmConflict: 'ALARM_SETTINGS_CONFLICT',
  notCancelable: 'TASK_NOT_CANCELABLE',
  /** The Radar Config section's calls in the production stage (sensor-setup 2: hidden there; the server refuses too). */
  radarInProduction: 'RADAR_CONFIG_NOT_IN_PRODUCTION',
} as const;
