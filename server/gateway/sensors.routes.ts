import { Hono } from 'hono';
import type { AppContext } from '../context';
import type { GatewayEnv } from '../http/auth';

export function sensorRoutes(_ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  return r;
}

