import { Hono } from 'hono';
import type { AppContext } from '../context';
import { uplinkSchema } from '../../src/contract/uplink.schema';
import { badRequest } from '../http/errors';
import { ingestUplink } from './uplink';

/** Device uplinks over HTTP: `Authorization: DeviceKey <key>` (or X-Device-Key) and an uplink body. */
export function ingestRoutes(ctx: AppContext) {
  const r = new Hono();
  r.post('/uplink', async (c) => {
    const key = c.req.header('x-device-key') ?? c.req.header('authorization')?.replace(/^DeviceKey\s+/i, '');
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw badRequest('INVALID_JSON', 'The uplink body is not valid JSON.');
    }
    const parsed = uplinkSchema.safeParse(body);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw badRequest('INVALID_UPLINK', `Invalid uplink: ${i.path.join('.') || 'body'}: ${i.message}`);
    }
    return c.json(await ingestUplink(ctx, key, parsed.data));
  });
  return r;
}
