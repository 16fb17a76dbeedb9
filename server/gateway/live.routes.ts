import { Hono } from 'hono';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';

/** Test notifications and webhook integrations (see issue 6). */
export function liveRoutes(_ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  return r;
}
