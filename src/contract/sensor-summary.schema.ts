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

/**
 * The body's outer shape; each row is checked value by value by the client (src/domain/sensor-summary.ts).
 * With a limit, `total` is the organisation's sensor count and `rows` the first of them in the list's order.
 * The whole list and a change set carry `cursor`, the `since` of the next refresh. A change set
 * (`since` asked and answerable) carries `removed`, the ids of sensors that left the organisation,
 * and in `rows` only the sensors that changed or arrived; a body without `removed` is the whole list.
 */
export const sensorSummaryBodySchema = z.object({
  fields: z.array(z.string()),
  rows: z.array(z.unknown()),
  total: z.number().int().nonnegative().optional(),
  cursor: z.number().int().nonnegative().optional(),
  removed: z.array(z.string()).optional(),
});
export type SensorSummaryBody = z.infer<typeof sensorSummaryBodySchema>;

export const SENSOR_LIST_VIEWS = ['summary'] as const;
/** The most rows a limited compact list answers (the first screen or two of the list). */
export const SUMMARY_MAX_LIMIT = 1000;
/**
 * How far back a cursor reaches before the read it was given with: a write whose transaction was
 * still open when the list was read is committed well within this, so the next refresh, which
 * asks for changes since the cursor, sees it. A sensor changed in this last minute may come twice.
 */
export const SENSOR_CHANGE_OVERLAP_MS = 60_000;
/** GET /organisations/{orgId}/sensors: without a view the spec's full records; view=summary the compact rows. */
export const sensorListQuerySchema = z.object({
  view: z
    .enum(SENSOR_LIST_VIEWS)
    .optional()
    .describe(`summary: { fields, rows } with one array per sensor, values in the order of fields (${SUMMARY_FIELDS.join(', ')}), sorted by name`),
  limit: z
    .string()
    .optional()
    .describe(`with view=summary only: the first 1 to ${SUMMARY_MAX_LIMIT} rows in the list's order, and total, the organisation's sensor count (the client draws these while the whole list loads)`),
  since: z
    .string()
    .optional()
    .describe(
      'with view=summary only, not with limit: the cursor of an earlier answer; answers the sensors changed or arrived since (rows), the ids of those that left (removed) and the next cursor. A cursor from ahead of the server\'s clock answers the whole list (no removed).',
    ),
});
