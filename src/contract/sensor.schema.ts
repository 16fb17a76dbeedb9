import { z } from 'zod';
import { safeText } from './safe-text';

export const SENSOR_TYPES = ['LS1', 'LS1-P', 'LS1-10M', 'LS1-R', 'T35', 'T35-Pro', 'LS1-P-20M', 'LS1-R-12M'] as const;
export const RADIO_TYPES = ['cellular', 'wifi', 'myriota', 'sigfox'] as const;

export const radioSchema = z.object({
  type: z.enum(RADIO_TYPES),
  zone: z.union([z.literal(1), z.literal(4)]).optional(), // sigfox zones
  carrier: z.enum(['Spark', 'Vodafone']).optional(),
});

export const alarmTypeSchema = z.enum(['THRESHOLD_INCREASING', 'THRESHOLD_DECREASING', 'DELTA_INCREASING', 'DELTA_DECREASING', 'ACCELEROMETER']);
export const alarmSchema = z.object({ type: alarmTypeSchema, threshold: z.number(), enabled: z.boolean() });
export type Alarm = z.infer<typeof alarmSchema>;

export const referenceLineSchema = z.object({ value: z.number(), label: z.string(), color: z.string() });
export const displayInfoSchema = z.object({
  minLevel: z.number().nullable().optional(), // mm
  maxLevel: z.number().nullable().optional(), // mm
  offsetMeasurement: z.number().nullable().optional(), // mm: level = offset - distance
  referenceLines: z.array(referenceLineSchema).default([]),
});

export const conversionConfigSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('WEIR_FLOW_SCR'), width: z.number(), flowCoefficient: z.number(), n: z.number() }),
  z.object({ type: z.literal('WEIR_FLOW_VN'), width: z.number(), flowCoefficient: z.number(), n: z.number() }),
  z.object({ type: z.literal('VOLUME_CYLINDER'), diameter: z.number() }),
  z.object({ type: z.literal('VOLUME_CYLINDER_HORIZONTAL'), diameter: z.number(), length: z.number() }),
  z.object({ type: z.literal('VOLUME_RECTANGULAR'), width: z.number(), length: z.number() }),
  z.object({ type: z.literal('PARSHALL_FLUME'), x: z.number(), y: z.number() }),
]);
export type ConversionConfig = z.infer<typeof conversionConfigSchema>;

export const sensorConfigSchema = z.object({
  schedulerEnabled: z.boolean(),
  measurementInterval: z.number(), // minutes
  transmissionInterval: z.number(), // minutes
  measurementTransmissionEnabled: z.boolean().optional(),
  deltaCompressionEnabled: z.boolean().optional(),
  txCountOnAlarm: z.number().optional(),
  serverSideAlarm: z.boolean().optional(),
});

export const latestDataSchema = z.object({
  lastSeen: z.number().optional(),
  signalLevel: z.number().optional(),
  linkQuality: z.enum(['EXCELLENT', 'GOOD', 'AVERAGE', 'LIMIT', 'OFFLINE']).optional(),
  offlineAsserted: z.boolean().optional(),
  alertAsserted: z.boolean().optional(),
  battery: z.number().optional(),
  lastMeasurement: z.object({ time: z.number(), rawDistance: z.number() }).optional(),
  lastMeasurementTransmission: z.number().optional(),
  lastMeasurementError: z.object({ code: z.string(), time: z.number() }).optional(),
  lastDownlinkRequestAt: z.number().optional(),
});
export type LatestData = z.infer<typeof latestDataSchema>;

export const bootInfoSchema = z.object({
  buildType: z.string().optional(),
  firmwareVersion: z.number().optional(),
  sensorVersion: z.number().optional(),
  hardwareVersion: z.number().optional(),
});

/** A sensor as GET /organisations/{orgId}/sensors answers it. */
export const sensorSchema = z.object({
  id: z.string(),
  serial: z.string(),
  name: z.string(),
  sensorType: z.string(),
  organisationId: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  radio: radioSchema,
  alarms: z.record(z.string(), alarmSchema),
  conversionConfigs: z.array(conversionConfigSchema),
  displayInfo: displayInfoSchema,
  config: sensorConfigSchema,
  boundsFilter: z.object({ type: z.string().optional(), enabled: z.boolean(), maxGradient: z.number().optional() }).optional(),
  rangeConfig: z.object({ enabled: z.boolean(), min: z.number().optional(), max: z.number().optional() }).optional(),
  pendingConfig: z.record(z.string(), z.unknown()).nullable().optional(),
  integration: z.object({ pointId: z.string().optional(), commissioningStatus: z.number() }).optional(),
  latestData: latestDataSchema.nullable(),
  latestBootInfo: bootInfoSchema.nullable(),
});
export type Sensor = z.infer<typeof sensorSchema>;

export const sensorListSchema = z.object({ sensors: z.array(sensorSchema) });

/** POST /organisations/{orgId}/add-sensor: the serial and claim code printed on the licence card. */
export const addSensorRequestSchema = z.object({ serial: safeText.max(64), claimCode: safeText.max(64) });
export const addSensorResponseSchema = z.object({ sensor: sensorSchema });

/** A firmware record as GET /admin/firmware answers it (site admins). */
export const firmwareSchema = z.object({
  id: z.string(),
  fwName: z.string(),
  fwType: z.enum(['Main', 'Radar', 'Ble']),
  fwVersion: z.number(),
  buildType: z.enum(['Alpha', 'Beta', 'Production']),
  createdAt: z.number(),
  applyTo: z.object({ hardwareVersions: z.array(z.number()) }),
});
export type Firmware = z.infer<typeof firmwareSchema>;
export const firmwareListSchema = z.object({ firmware: z.array(firmwareSchema) });
