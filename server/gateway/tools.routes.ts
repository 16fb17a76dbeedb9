import { Hono } from 'hono';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';

export function toolRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  // the client corrects its clock from this when the offset is 5 s or more
  r.get('/tools/server-time', (c) => c.json({ millis: ctx.now() }));
  return r;
}
