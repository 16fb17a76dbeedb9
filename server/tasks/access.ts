import type { Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context';
import { one, type Queryable } from '../db/db';
import { MANAGERS, requireMember, ROLE, type GatewayEnv } from '../http/auth';
import { forbidden, notFound } from '../http/errors';

/** Path parameters of the sensor-setup routes. */
export const sensorPathSchema = z.object({ orgId: z.string().uuid(), sensorId: z.string().uuid() });
export const taskPathSchema = sensorPathSchema.extend({ taskId: z.string().uuid() });

/**
 * DESIGN.md "Sensor setup, who": admins and owners, and site admins in any organisation they
 * belong to (whatever their role there); members and meter readers get 403, strangers 404.
 */
export async function requireSetupAccess(ctx: AppContext, c: Context<GatewayEnv>, orgId: string) {
  const caller = c.get('caller');
  const { role } = await requireMember(ctx, c, orgId, [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER, ROLE.METER_READER]);
  if (!caller.isSiteAdmin && !MANAGERS.includes(role)) throw forbidden();
  return { role, isSiteAdmin: caller.isSiteAdmin };
}

/** 404 unless the sensor belongs to the organisation. */
export async function requireOrgSensor(q: Queryable, orgId: string, sensorId: string) {
  const row = await one<{ id: string }>(q, 'SELECT id FROM sensors WHERE id = $1 AND org_id = $2', [sensorId, orgId]);
  if (!row) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
}
