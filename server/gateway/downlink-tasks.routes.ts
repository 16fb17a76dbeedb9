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
} from '../../src/contract/downlink-task.schema';
import { scheduleErrors } from '../../src/domain/update-rate';
import { badRequest } from '../http/errors';

const COLUMNS = 'id, sensor_id, type, params, status, created_at, dispatched_at, ended_at';
const COMPLETED = "('Success', 'Error', 'Timeout', 'Canceled')";

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
    return c.json({ queued: queued.map(toTask), completed: completed.map(toTask), completedTotal: total?.n ?? 0 });
  });

  r.post(`${base}/downlink-tasks`, async (c) => {
    const { orgId, sensorId } = sensorPathSchema.parse(c.req.param());
    const { isSiteAdmin } = await requireSetupAccess(ctx, c, orgId);
    const body = createTaskRequestSchema.parse(await c.req.json());
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
