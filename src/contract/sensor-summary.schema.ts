import { z } from 'zod';

/**
 * The compact sensor list (DESIGN.md "At a customer's size"): GET /organisations/{orgId}/sensors?view=summary
 * answers one array per sensor, its values in the order of SUMMARY_FIELDS, instead of the spec's
 * full records. It carries what the sensors list, its status icon, the map and the organisation
 * CSV need; the full record is GET /organisations/{orgId}/sensors/{sensorId}. The values are the
 * stored ones, unchecked: the client checks each one (a bad value shows N/A, not a blank list).
 */
export const SUMMARY_FIELDS = [
  'id',
  'serial',
  'name',
  'latitude',
  'longitude',
  'schedulerEnabled',
  'lastSeen',
  'alertAsserted',
  'offlineAsserted',
  'battery',
  'measurementTime',
  'rawDistance',
  'offsetMeasurement',
  'minLevel',
  'maxLevel',
  'conversion',
] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

/** The body's outer shape; each row is checked value by value by the client (src/domain/sensor-summary.ts). */
export const sensorSummaryBodySchema = z.object({
  fields: z.array(z.string()),
  rows: z.array(z.unknown()),
});
export type SensorSummaryBody = z.infer<typeof sensorSummaryBodySchema>;

export const SENSOR_LIST_VIEWS = ['summary'] as const;
/** GET /organisations/{orgId}/sensors: without a view the spec's full records; view=summary the compact rows. */
export const sensorListQuerySchema = z.object({
  view: z
    .enum(SENSOR_LIST_VIEWS)
    .optional()
    .describe(`summary: { fields, rows } with one array per sensor, values in the order of fields (${SUMMARY_FIELDS.join(', ')}), sorted by name`),
});
