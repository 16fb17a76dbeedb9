import { Hono, type Context } from 'hono';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import { MANAGERS, ROLE, requireMember, requireSiteAdmin, type GatewayEnv } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { integrationInputSchema, type Integration } from '../../src/contract/live.schema';
import { enqueue } from '../delivery/outbox';
import { enqueueWebhooks } from '../delivery/alerts';
import { newWebhookSecret } from '../delivery/webhook';
import { uuidParam } from '../http/input-guard';
import { integrationQuerySchema } from '../../src/contract/live.schema';
import { webhookUrlProblem } from '../delivery/webhook-target';

interface IntegrationRow {
  id: string;
  type: 'webhook';
  url: string;
  headers: { key: string; value: string }[];
  secret: string;
  created_at: number;
}

const toIntegration = (r: IntegrationRow): Integration => ({ id: r.id, type: r.type, url: r.url, headers: r.headers, secret: r.secret, createdAt: r.created_at });

/** Parses an integration body; the first problem is the message (organisation-and-routes.md 5, webhook form). */
async function readIntegration(c: Context<GatewayEnv>) {
  const parsed = integrationInputSchema.safeParse(await c.req.json().catch(() => undefined));
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw badRequest('INVALID_INTEGRATION', i.message);
  }
  return parsed.data;
}

/** Test notifications (site admins) and webhook integrations (managers), organisation-and-routes.md 7.1, 7.2. */
export function liveRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  // literal internal addresses are refused when saved; names are checked when each event is sent
  const refuseInternal = (url: string) => {
    const problem = webhookUrlProblem(url, ctx.config.WEBHOOK_ALLOW_PRIVATE_NETWORKS);
    if (problem) throw badRequest('WEBHOOK_URL_NOT_ALLOWED', problem);
  };

  r.post('/organisations/:orgId/notifications/test', async (c) => {
    requireSiteAdmin(c);
    const orgId = c.req.param('orgId');
    await requireMember(ctx, c, orgId, [ROLE.MEMBER, ROLE.ADMIN, ROLE.OWNER, ROLE.METER_READER]);
    const caller = c.get('caller');
    const now = ctx.now();
    const webhooks = await ctx.db.tx(async (q) => {
      const org = (await q.query<{ name: string }>('SELECT name FROM organisations WHERE id = $1', [orgId]))[0];
      await enqueue(
        q,
        'email',
        caller.email.toLowerCase(),
        { kind: 'test-notification', subject: `Test notification from ${org.name}`, text: `This is a test notification for ${org.name}. Alert emails will arrive like this one.` },
        now,
      );
      return enqueueWebhooks(q, orgId, { type: 'test', organisationId: orgId, notification: null, sensor: null }, now);
    });
    return c.json({ email: caller.email, webhooks });
  });

  r.get('/organisations/:id/integrations', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const { type } = integrationQuerySchema.parse(c.req.query());
    const rows = await ctx.db.query<IntegrationRow>(
      'SELECT * FROM integrations WHERE org_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY created_at',
      [orgId, type ?? null],
    );
    return c.json({ integrations: rows.map(toIntegration) });
  });

  r.post('/organisations/:id/integrations', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const body = await readIntegration(c);
    refuseInternal(body.url);
    const rows = await ctx.db.query<IntegrationRow>(
      'INSERT INTO integrations (id, org_id, type, url, headers, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
      [randomUUID(), orgId, body.type, body.url, JSON.stringify(body.headers), newWebhookSecret(), ctx.now()],
    );
    return c.json(toIntegration(rows[0]), 201);
  });

  r.patch('/organisations/:id/integrations/:integrationId', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const integrationId = uuidParam(c, 'integrationId');
    const body = await readIntegration(c);
    refuseInternal(body.url);
    const rows = await ctx.db.query<IntegrationRow>(
      'UPDATE integrations SET url = $3, headers = $4 WHERE id::text = $1 AND org_id = $2 RETURNING *',
      [integrationId, orgId, body.url, JSON.stringify(body.headers)],
    );
    if (!rows[0]) throw notFound('INTEGRATION_NOT_FOUND', 'Integration not found.');
    return c.json(toIntegration(rows[0]));
  });

  r.delete('/organisations/:id/integrations/:integrationId', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const integrationId = uuidParam(c, 'integrationId');
    const rows = await ctx.db.query('DELETE FROM integrations WHERE id::text = $1 AND org_id = $2 RETURNING id', [integrationId, orgId]);
    if (!rows[0]) throw notFound('INTEGRATION_NOT_FOUND', 'Integration not found.');
    return c.json({});
  });

  return r;
}
