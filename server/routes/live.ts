import type { AppContext } from '../context';
import { getTask } from './store';
import { routeTasksTopic, type LiveRouteTaskMessage } from '../../src/contract/route.schema';

/** Publishes a route task's state after commit on orgs/{orgId}/routes; a failure is logged, never the call's. */
export async function publishTask(ctx: Pick<AppContext, 'db' | 'publisher' | 'log'>, orgId: string, taskId: string, opts: { deleted?: boolean; readingId?: string } = {}) {
  try {
    const task = opts.deleted ? null : await getTask(ctx.db, orgId, taskId);
    const msg: LiveRouteTaskMessage = { taskId, task, ...(opts.readingId ? { readingId: opts.readingId } : {}) };
    await ctx.publisher.publish(routeTasksTopic(orgId), msg);
  } catch (err) {
    ctx.log.warn({ err, taskId }, 'publish failed');
  }
}
