import { Hono } from 'hono';
import type { AppContext } from '../context';
import { requireMemberWithSensor, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { uuidParam } from '../http/input-guard';
import { usageQuerySchema } from '../../src/contract/usage.schema';
import { sensorUsage, usageSensor } from '../usage/usage';

/** Usage beyond the spec (issue 38): fills, daily use, flow totals and forecasts, computed by the data core. */
export function usageRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // the same access as the sensor's measurements: every member of the sensor's organisation
  r.get('/organisations/:orgId/sensors/:sensorId/usage', async (c) => {
    const orgId = c.req.param('orgId');
    const { sensorExists } = await requireMemberWithSensor(ctx, c, orgId, c.req.param('sensorId') ?? '');
    const sensorId = uuidParam(c, 'sensorId');
    const raw = c.req.query();
    for (const key of ['startTime', 'endTime'] as const) {
      if (raw[key] === undefined || raw[key] === '') throw badRequest('INVALID_QUERY', `${key} is required: epoch milliseconds.`);
    }
    const parsed = usageQuerySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest('INVALID_QUERY', `${issue.path.join('.') || 'query'}: ${issue.message}`);
    }
    if (!sensorExists) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    const sensor = await usageSensor(ctx.db, orgId, sensorId);
    if (!sensor) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
    return c.json(await sensorUsage(ctx.db, sensor, sensorId, parsed.data), 200, { 'Cache-Control': 'no-store' });
  });

  return r;
}
