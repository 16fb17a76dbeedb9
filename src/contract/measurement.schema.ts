import { z } from 'zod';
import { MAX_TIME } from './safe-text';

// epoch milliseconds a Date can hold: larger numbers would overflow the database's bigint
const epochMs = z.coerce.number().int().min(0).max(MAX_TIME);

/**
 * GET /organisations/{orgId}/sensors/{sensorId}/measurements
 * query: order (asc|desc, default asc), startTime, endTime (epoch ms, inclusive), start (paging cursor from `next`),
 * format (rows|columns, default rows: the documented shape; columns is the compact column-wise shape).
 * `Accept: application/vnd.tidewatch.columns` answers the binary column form instead (measurement-columns.ts).
 */
export const measurementQuerySchema = z.object({
  order: z.enum(['asc', 'desc']).default('asc'),
  startTime: epochMs,
  endTime: epochMs,
  start: z.string().max(200).optional(),
  format: z.enum(['rows', 'columns']).default('rows'),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type MeasurementQuery = z.infer<typeof measurementQuerySchema>;

export const measurementSchema = z.object({ time: z.number(), rawDistance: z.number(), betaRawDistance: z.number().nullable().optional() });
export type Measurement = z.infer<typeof measurementSchema>;

export const measurementPageSchema = z.object({ measurements: z.array(measurementSchema), next: z.string().nullable() });
export const measurementColumnsPageSchema = z.object({
  columns: z.object({ time: z.array(z.number()), rawDistance: z.array(z.number()), betaRawDistance: z.array(z.number().nullable()) }),
  next: z.string().nullable(),
});
export type MeasurementColumnsPage = z.infer<typeof measurementColumnsPageSchema>;

export const measurementErrorSchema = z.object({ id: z.string(), code: z.string(), time: z.number() });
export const measurementErrorPageSchema = z.object({ measurementErrors: z.array(measurementErrorSchema), next: z.string().nullable() });
export type MeasurementError = z.infer<typeof measurementErrorSchema>;

/** GET /admin/sensors/{sensorId}/measurement-errors (site admins); start is the cursor from `next`. */
export const measurementErrorQuerySchema = z.object({
  order: z.enum(['asc', 'desc']).default('desc'),
  startTime: epochMs.default(0),
  endTime: epochMs.optional(),
  start: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
});
