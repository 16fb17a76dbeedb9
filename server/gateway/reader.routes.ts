import { Hono } from 'hono';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import type { GatewayEnv } from '../http/auth';
import { getTask, listReadings, listTasks } from '../routes/store';
import { ALL_ROUTE_ROLES, requireRoutes } from './routes.routes';
import { ROUTE_ERROR_CODES, orgPathSchema, routeQuerySchema, routeTaskPathSchema } from '../../src/contract/route.schema';
import { readerTaskListSchema, readerTaskSchema } from '../../src/contract/reader.schema';

/**
 * The meter reader's app (issue 33): the caller's assigned tasks with their readings, in one
 * request for the list and one per task for a download. Any member may be assigned a task, so
 * any member may ask; only the tasks assigned to the caller are answered.
 */
export function readerRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();

  // the tasks assigned to me that are not exported, each with its readings in sequence order
  r.get('/organisations/:orgId/reader/tasks', async (c) => {
    const { orgId } = orgPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { userId } = await requireRoutes(ctx, c, orgId, ALL_ROUTE_ROLES);
    const tasks = (await listTasks(ctx.db, orgId, userId)).filter((t) => !t.exported);
    const withReadings = [];
    for (const task of tasks) withReadings.push({ task, readings: await listReadings(ctx.db, orgId, task.id) });
    return c.json(readerTaskListSchema.parse({ tasks: withReadings }));
  });

  // one task of mine with its readings (the download); someone else's task 403, exported ones included
  r.get('/organisations/:orgId/reader/tasks/:taskId', async (c) => {
    const { orgId, taskId } = routeTaskPathSchema.parse(c.req.param());
    routeQuerySchema.parse(c.req.query());
    const { userId } = await requireRoutes(ctx, c, orgId, ALL_ROUTE_ROLES);
    const task = await getTask(ctx.db, orgId, taskId);
    if (task.assignedTo?.cognitoIdentityId !== userId) throw new HttpError(403, ROUTE_ERROR_CODES.NOT_ASSIGNED, 'This route task is not assigned to you.');
    return c.json(readerTaskSchema.parse({ task, readings: await listReadings(ctx.db, orgId, taskId) }));
  });

  return r;
}
