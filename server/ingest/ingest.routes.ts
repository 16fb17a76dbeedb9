import { Hono } from 'hono';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { ingestUplink } from './uplink';
import { parseUplink } from './uplink-parse';

/** Device uplinks over HTTP (the plain case is answered by ingest-http.ts before the app; this route takes the rest): `Authorization: DeviceKey <key>` (or X-Device-Key) and an uplink body. */
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
    const parsed = parseUplink(body);
    if (!parsed.success) throw badRequest('INVALID_UPLINK', parsed.message);
    return c.json(await ingestUplink(ctx, key, parsed.data));
  });
  return r;
}
