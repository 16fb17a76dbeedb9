import { z } from 'zod';
import { MAX_TIME } from './safe-text';

const epochMs = z.coerce.number().int().min(0).max(MAX_TIME);
/** The longest range one usage request analyses: ten years of days. */
export const USAGE_MAX_RANGE_MS = 3660 * 86_400_000;

/**
 * GET /organisations/{orgId}/sensors/{sensorId}/usage (beyond the spec, issue 38)
 * query: startTime, endTime (epoch ms, inclusive); level (optional, mm of displayed level: a
 * forecast to that level besides empty and the alarm thresholds).
 */
export const usageQuerySchema = z
  .object({
    startTime: epochMs,
    endTime: epochMs,
    level: z.coerce.number().finite().min(-100_000).max(100_000).optional(),
  })
  .refine((q) => q.startTime <= q.endTime, { message: 'startTime must not be after endTime.', path: ['startTime'] })
  .refine((q) => q.endTime - q.startTime <= USAGE_MAX_RANGE_MS, { message: 'The range may be at most 3660 days.', path: ['endTime'] });
export type UsageQuery = z.infer<typeof usageQuerySchema>;

const num = z.number().nullable();
export const fillSchema = z.object({ start: z.number(), end: z.number(), volume: z.number(), before: z.number(), after: z.number() });
export const usageDaySchema = z.object({ date: z.string(), start: z.number(), end: z.number(), use: z.number(), covered: z.number(), fills: z.number(), filled: z.number() });
export const usageForecastSchema = z.object({
  target: z.enum(['empty', 'low', 'level', 'full', 'high']),
  volume: z.number(),
  levelMm: z.number(),
  days: num,
  early: num,
  late: num,
  at: num,
  earliest: num,
  latest: num,
  rate: num,
  spread: num,
  daysUsed: z.number(),
});

/** Litres for a tank (use, fills, forecast volumes), m³ for a weir or flume (days, months, totals). */
export const usageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('volume'),
    days: z.array(usageDaySchema),
    fills: z.array(fillSchema),
    summary: z.object({ averageDaily: num, maxDaily: num, deliveries: z.number(), delivered: z.number(), lastFill: fillSchema.nullable(), now: num, lastTime: num, sigma: num }),
    forecasts: z.array(usageForecastSchema),
  }),
  z.object({
    kind: z.literal('flow'),
    days: z.array(usageDaySchema),
    months: z.array(z.object({ month: z.string(), total: z.number(), covered: z.number() })),
    summary: z.object({ today: z.number(), thisMonth: z.number(), range: z.number(), now: num, lastTime: num }),
  }),
  // a sensor with neither a volume nor a flow conversion
  z.object({ kind: z.literal('none') }),
]);
export type UsageAnswer = z.infer<typeof usageSchema>;
