import { Hono } from 'hono';
import type { AppContext } from '../context';
import { MANAGERS, requireMember, type GatewayEnv } from '../http/auth';
import { badRequest } from '../http/errors';
import { networkParamSchema, type NetworkIntegrations } from '../../src/contract/network-integrations.schema';
import { regenerateSecret, secretsOf, SECRET_HEADER_NAME } from '../networks/network-secrets';

/**
 * The organisation's radio-network callbacks (Integration settings, managers only): the URLs and
 * secrets to paste into the Sigfox and Myriota consoles, and a new secret on request, which
 * replaces the old one at once (a callback with the old one is refused from the commit on).
 */
export function networkIntegrationRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  const answer = async (orgId: string, origin: string): Promise<NetworkIntegrations> => {
    const s = await secretsOf(ctx.db, orgId, ctx.now());
    const base = `${ctx.config.PUBLIC_URL ?? origin}/ingest`;
    const header = SECRET_HEADER_NAME;
    return {
      sigfox: { callbackUrl: `${base}/sigfox`, secretHeader: header, secret: s.sigfox.secret, updatedAt: s.sigfox.updatedAt },
      myriota: { callbackUrl: `${base}/myriota`, secretHeader: header, secret: s.myriota.secret, urlWithSecret: `${base}/myriota/${s.myriota.secret}`, updatedAt: s.myriota.updatedAt },
    };
  };
  r.get('/organisations/:id/network-integrations', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    return c.json(await answer(orgId, new URL(c.req.url).origin));
  });
  r.post('/organisations/:id/network-integrations/:network/regenerate', async (c) => {
    const orgId = c.req.param('id');
    await requireMember(ctx, c, orgId, MANAGERS);
    const network = networkParamSchema.safeParse(c.req.param('network'));
    if (!network.success) throw badRequest('INVALID_NETWORK', 'The network must be sigfox or myriota.');
    await regenerateSecret(ctx.db, orgId, network.data, ctx.now());
    return c.json(await answer(orgId, new URL(c.req.url).origin));
  });
  return r;
}
