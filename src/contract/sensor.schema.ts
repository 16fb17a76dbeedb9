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

/**
 * Beyond the spec: the forecast alarm's settings (docs/decisions.md). Days until the tank is
 * forecast empty (or full) at its rolling daily use; null turns that direction off.
 */
export const forecastAlarmSchema = z.object({ emptyWithinDays: z.number().nullable(), fullWithinDays: z.number().nullable() });
export type ForecastAlarm = z.infer<typeof forecastAlarmSchema>;

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
  /** Beyond the spec: absent or null when never set. */
  forecastAlarm: forecastAlarmSchema.nullable().optional(),
});
export type Sensor = z.infer<typeof sensorSchema>;

export const sensorListSchema = z.object({ sensors: z.array(sensorSchema) });
/** GET /organisations/{orgId}/sensors/{sensorId}: one sensor's full record. */
export const sensorResponseSchema = z.object({ sensor: sensorSchema });

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

/**
 * PUT /organisations/{orgId}/sensors/{sensorId} (sensor-setup 7): the parts a setup section may
 * change, each optional. The rules on each field are src/domain/sensor-update.ts, run by the
 * form and again by the server; anything else in the body is ignored.
 */
export const sensorUpdateRequestSchema = z.object({
  name: z.string().optional(),
  displayInfo: z
    .object({ offsetMeasurement: z.number().nullable(), minLevel: z.number().nullable(), maxLevel: z.number().nullable(), referenceLines: z.array(referenceLineSchema) })
    .optional(),
  conversionConfigs: z.array(conversionConfigSchema).optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  integration: z.object({ pointId: z.string(), commissioningStatus: z.number() }).optional(),
  alarms: z.record(z.string(), alarmSchema).optional(),
  forecastAlarm: forecastAlarmSchema.optional(),
});
export type SensorUpdateRequest = z.infer<typeof sensorUpdateRequestSchema>;
export const sensorUpdateResponseSchema = z.object({ sensor: sensorSchema });

/** GET /organisations/{orgId}/tank-presets: dimensions in metres. */
export const tankPresetSchema = z.object({
  id: z.string(),
  manufacturer: z.string(),
  model: z.string(),
  shape: z.enum(['VOLUME_CYLINDER', 'VOLUME_CYLINDER_HORIZONTAL', 'VOLUME_RECTANGULAR']),
  width: z.number().nullable(),
  height: z.number().nullable(),
  length: z.number().nullable(),
  diameter: z.number().nullable(),
  safeFillLevel: z.number().nullable(),
});
export type TankPreset = z.infer<typeof tankPresetSchema>;
export const tankPresetListSchema = z.object({ presets: z.array(tankPresetSchema) });

export const FUEL_PHOTOS = ['certPlate', 'close', 'far'] as const;
export type FuelPhoto = (typeof FUEL_PHOTOS)[number];

/** GET /organisations/{orgId}/sensors/{sensorId}/fuel-install/ (sensor-setup 3): metres; photo URLs are gateway paths. */
export const fuelInstallSchema = z.object({
  time: z.number(),
  fuelType: z.enum(['Diesel', 'Petrol91', 'Petrol95', 'Petrol98', 'AdBlue', 'AvGas', 'JetA1']),
  shape: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  length: z.number().nullable(),
  diameter: z.number().nullable(),
  safeFillLevel: z.number().nullable(),
  monitorHeight: z.number().nullable(),
  dipReading: z.number().nullable(),
  presetId: z.string().nullable(),
  preset: z.object({ manufacturer: z.string(), model: z.string() }).nullable(),
  certPlateImageURL: z.string().nullable(),
  closeImageURL: z.string().nullable(),
  farImageURL: z.string().nullable(),
});
export type FuelInstall = z.infer<typeof fuelInstallSchema>;
export const fuelInstallResponseSchema = z.object({ fuelInstall: fuelInstallSchema.nullable() });

/** GET /api/geocode?q= : address suggestions for the move-sensor search box (DESIGN.md "Address search"). */
export const geocodeQuerySchema = z.object({
  q: z.string().trim().min(1).max(200),
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
  limit: z.coerce.number().int().min(1).max(10).default(5),
});
export const geocodeResultSchema = z.object({ label: z.string(), latitude: z.number(), longitude: z.number() });
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;
/** `knows`: what the search covers, 'places' (the bundled gazetteer: towns and cities) or 'addresses' (GEOCODER_URL); absent from older servers. */
export const geocodeResponseSchema = z.object({ results: z.array(geocodeResultSchema), knows: z.enum(['places', 'addresses']).optional() });
