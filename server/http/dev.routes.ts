import { Hono } from 'hono';
import type { AppContext } from '../context';
import { isLoopbackAddress, socketAddress } from './origin';

/**
 * Demo mode only: the outbox as a mailbox, so codes and alerts can be read without SMTP. It shows
 * reset codes and temporary passwords, so it answers only clients on this machine's loopback
 * (the socket's address; X-Forwarded-For is never believed here).
 */
export function devRoutes(ctx: AppContext) {
  const r = new Hono();
  r.use('*', async (c, next) => {
    if (!ctx.config.DEMO_MODE || !isLoopbackAddress(socketAddress(c))) return c.json({ code: 'NOT_FOUND', message: 'Not found.' }, 404);
    await next();
  });
  r.get('/mailbox', async (c) => {
    const to = c.req.query('to')?.toLowerCase();
    const rows = await ctx.db.query<{ id: string; channel: string; recipient: string; payload: Record<string, unknown>; status: string; created_at: number }>(
      `SELECT id, channel, recipient, payload, status, created_at FROM outbox
       WHERE channel IN ('email', 'sms') AND ($1::text IS NULL OR recipient = $1)
       ORDER BY created_at DESC LIMIT 200`,
      [to ?? null],
    );
    return c.json({ messages: rows.map((r) => ({ id: r.id, channel: r.channel, to: r.recipient, status: r.status, createdAt: r.created_at, ...r.payload })) });
  });
  return r;
}
