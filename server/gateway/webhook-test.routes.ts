import { Hono } from 'hono';
import type { AppContext } from '../context';
import { MANAGERS, requireMember, type GatewayEnv } from '../http/auth';
import { notFound } from '../http/errors';
import { uuidParam } from '../http/input-guard';
import { enqueue } from '../delivery/outbox';
import { webhookId } from '../delivery/webhook';
import type { WebhookEvent } from '../../src/contract/live.schema';
import { webhookTestResultSchema } from '../../src/contract/webhook-test.schema';

/**
 * A test event for one webhook (issue 13): through the outbox and the dispatcher, so it is signed,
 * checked against internal addresses and retried exactly like an alert.
 */
export function webhookTestRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  r.post('/organisations/:id/integrations/:integrationId/test', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const integrationId = uuidParam(c, 'integrationId');
    const now = ctx.now();
    const result = await ctx.db.tx(async (q) => {
      const hook = (await q.query<{ id: string; url: string }>(`SELECT id, url FROM integrations WHERE id::text = $1 AND org_id = $2 AND type = 'webhook'`, [integrationId, orgId]))[0];
      if (!hook) throw notFound('INTEGRATION_NOT_FOUND', 'Integration not found.');
      const event: WebhookEvent = { type: 'test', timestamp: new Date(now).toISOString(), organisationId: orgId, notification: null, sensor: null };
      const outboxId = await enqueue(q, 'webhook', hook.id, { event }, now);
      return { webhookId: webhookId(outboxId), url: hook.url };
    });
    return c.json(webhookTestResultSchema.parse(result), 202);
  });
  return r;
}
