import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';
import { conflict, forbidden, notFound } from '../http/errors';
import { one } from '../db/db';
import { requireOrgSensor, requireSetupAccess, sensorPathSchema, taskPathSchema } from '../tasks/access';
import { cancelTask, lockSensor, publishTasks, queuedTasks, toTask, type TaskRow } from '../tasks/lifecycle';
import { checkCreate } from '../tasks/rules';
import { toFirmware, type FirmwareRow } from './admin.routes';
import {
  REMOTE_TASK_CODES,
  cancelTaskRequestSchema,
  createTaskRequestSchema,
  pendingConfigSchema,
  taskListQuerySchema,
  type FullRadarParams,
  type RadarSettings,
} from '../../src/contract/downlink-task.schema';
import { scheduleErrors } from '../../src/domain/update-rate';
import { HttpError, badRequest } from '../http/errors';

const COLUMNS = 'id, sensor_id, type, params, status, created_at, dispatched_at, ended_at, failure_reason';
const COMPLETED = "('Success', 'Error', 'Timeout', 'Canceled')";

/**
 * The Radar Config section is 'hidden in the production stage' (sensor-setup 2); hiding is not
 * security, so its calls (the settings read, FullRadarConfig tasks) are refused there too.
 */
function refuseRadarInProduction(ctx: AppContext) {
  if (ctx.config.STAGE === 'production') {
    throw new HttpError(403, REMOTE_TASK_CODES.radarInProduction, 'Radar configuration is not available in the production stage.');
  }
}

/** Remote tasks of a sensor (sensor-setup 7) and the update-rate save's pendingConfig. */
export function downlinkTaskRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  const base = '/organisations/:orgId/sensors/:sensorId';

  r.get(`${base}/downlink-tasks`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    const { isSiteAdmin } = await requireSetupAccess(ctx, c, orgId);
    const { limit } = taskListQuerySchema.parse(c.req.query());
    // Show More (all records) is a site-admin option
    if (limit > 10 && !isSiteAdmin) throw forbidden('Only site admins can list more than 10 completed tasks.');
    await requireOrgSensor(ctx.db, orgId, sensorId);
    const queued = await queuedTasks(ctx.db, sensorId);
    const completed = await ctx.db.query<TaskRow>(
      `SELECT ${COLUMNS} FROM downlink_tasks WHERE sensor_id = $1 AND status IN ${COMPLETED} ORDER BY ended_at DESC, seq DESC LIMIT $2`,
      [sensorId, limit],
    );
    const total = await one<{ n: number }>(ctx.db, `SELECT count(*)::int AS n FROM downlink_tasks WHERE sensor_id = $1 AND status IN ${COMPLETED}`, [sensorId]);
    // FullRadarConfig params are site-admin detail (sensor-setup 6): others get the row (it still runs in order) without them
    const shown = (t: TaskRow) => (isSiteAdmin || t.type !== 'FullRadarConfig' ? toTask(t) : { ...toTask(t), params: {} });
    return c.json({ queued: queued.map(shown), completed: completed.map(shown), completedTotal: total?.n ?? 0 });
  });

  // The radar section's current settings (site admins, like the section): the last successful FullRadarConfig or the device's report.
  r.get(`${base}/radar-settings`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    const { isSiteAdmin } = await requireSetupAccess(ctx, c, orgId);
    if (!isSiteAdmin) throw forbidden('Only site admins can see the radar settings.');
    refuseRadarInProduction(ctx);
    await requireOrgSensor(ctx.db, orgId, sensorId);
    const row = await one<{ settings: FullRadarParams; source: 'task' | 'device'; task_id: string | null; updated_at: number }>(
      ctx.db,
      'SELECT settings, source, task_id, updated_at FROM sensor_radar_settings WHERE sensor_id = $1',
      [sensorId],
    );
    const radarSettings: RadarSettings | null = row ? { settings: row.settings, source: row.source, taskId: row.task_id, updatedAt: Number(row.updated_at) } : null;
    return c.json({ radarSettings });
  });

  r.post(`${base}/downlink-tasks`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    const { isSiteAdmin } = await requireSetupAccess(ctx, c, orgId);
    const body = createTaskRequestSchema.parse(await c.req.json());
    if (body.type === 'FullRadarConfig') refuseRadarInProduction(ctx);
    const fwRow =
      body.type === 'FirmwareDownload' ? await one<FirmwareRow>(ctx.db, 'SELECT * FROM firmware WHERE id = $1', [body.params.fwId]) : undefined;
    const task = await ctx.db.tx(async (q) => {
      // the row lock serialises creations, dispatches and cancels of this sensor: limits hold under races
      const sensor = await lockSensor(q, sensorId);
      if (!sensor || sensor.org_id !== orgId) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
      const params = checkCreate(body, sensor, isSiteAdmin, await queuedTasks(q, sensorId), fwRow && toFirmware(fwRow));
      const [row] = await q.query<TaskRow>(
        `INSERT INTO downlink_tasks (id, sensor_id, type, params, status, created_by, created_at) VALUES ($1, $2, $3, $4, 'Created', $5, $6) RETURNING ${COLUMNS}`,
        [randomUUID(), sensorId, body.type, JSON.stringify(params), c.get('caller').id, ctx.now()],
      );
      return row;
    });
    await publishTasks(ctx, sensorId, [task]);
    return c.json({ task: toTask(task) }, 201);
  });

  // Cancel: PATCH with { status: 'Canceled' } (DESIGN.md); only a Created task can be cancelled.
  r.patch(`${base}/downlink-tasks/:taskId`, async (c) => {
    const { orgId, sensorId, taskId } = taskPathSchema.parse(c.req.param());
    await requireSetupAccess(ctx, c, orgId);
    cancelTaskRequestSchema.parse(await c.req.json());
    const res = await ctx.db.tx(async (q) => {
      const sensor = await lockSensor(q, sensorId);
      if (!sensor || sensor.org_id !== orgId) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
      return cancelTask(q, sensorId, taskId, ctx.now());
    });
    if (!res.task) throw notFound('TASK_NOT_FOUND', 'Remote task not found.');
    if (!res.canceled) throw conflict(REMOTE_TASK_CODES.notCancelable, `The task is ${res.task.status === 'Dispatched' ? 'being executed' : 'already completed'} and can no longer be canceled.`);
    await publishTasks(ctx, sensorId, [res.task]);
    return c.json({ task: toTask(res.task) });
  });

  r.put(`${base}/pending-config`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    await requireSetupAccess(ctx, c, orgId);
    const body = pendingConfigSchema.parse(await c.req.json());
    const pending = await ctx.db.tx(async (q) => {
      const sensor = await lockSensor(q, sensorId);
      if (!sensor || sensor.org_id !== orgId) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
      const e = scheduleErrors({ radio: sensor.radio.type, currentMeasurement: sensor.config.measurementInterval, ...body });
      const first = Object.values(e)[0];
      if (first) throw badRequest(REMOTE_TASK_CODES.invalid, first);
      await q.query('UPDATE sensors SET pending_config = $2 WHERE id = $1', [sensorId, JSON.stringify(body)]);
      return body;
    });
    return c.json({ pendingConfig: pending, canceled: [] });
  });

  // The pending-changes banner's Cancel: the queued schedule tasks go with it.
  r.delete(`${base}/pending-config`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    await requireSetupAccess(ctx, c, orgId);
    const canceled = await ctx.db.tx(async (q) => {
      const sensor = await lockSensor(q, sensorId);
      if (!sensor || sensor.org_id !== orgId) throw notFound('SENSOR_NOT_FOUND', 'Sensor not found.');
      const rows = await q.query<TaskRow>(
        `UPDATE downlink_tasks SET status = 'Canceled', ended_at = $2 WHERE sensor_id = $1 AND status = 'Created' AND type IN ('SensorConfig', 'ExtendedConfig') RETURNING ${COLUMNS}`,
        [sensorId, ctx.now()],
      );
      await q.query('UPDATE sensors SET pending_config = NULL WHERE id = $1', [sensorId]);
      return rows;
    });
    await publishTasks(ctx, sensorId, canceled);
    return c.json({ pendingConfig: null, canceled: canceled.map((t) => t.id) });
  });

  return r;
}
