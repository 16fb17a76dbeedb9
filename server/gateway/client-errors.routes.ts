import { Hono, type Context } from 'hono';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import { clientAddress } from '../http/origin';
import { requireSiteAdmin, type GatewayEnv } from '../http/auth';
import { HttpError, badRequest } from '../http/errors';
import { routeBodyLimit } from '../http/body-limit';
import { fixedWindowLimiter } from '../identity/rate-limit';
import { verifyToken } from '../identity/tokens';
import { CLIENT_ERROR_MAX_BODY, clientErrorQuerySchema, clientErrorReportSchema, type ClientError } from '../../src/contract/client-error.schema';
import { MAX_TIME, UUID_PATTERN } from '../../src/contract/safe-text';

/** Reports per client address per minute: a page in an error loop cannot fill the table. */
export const CLIENT_ERROR_RATE = { limit: 10, windowMs: 60_000 };


interface ClientErrorRow {
  id: string;
  created_at: number;
  user_id: string | null;
  email: string | null;
  client_address: string;
  kind: ClientError['kind'];
  message: string;
  stack: string | null;
  component_stack: string | null;
  url: string | null;
  user_agent: string | null;
  release: string | null;
}

const encodeCursor = (r: ClientErrorRow) => Buffer.from(`${r.created_at}:${r.id}`).toString('base64url');
function decodeCursor(cursor: string) {
  const m = /^(\d{1,16}):([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m || Number(m[1]) > MAX_TIME || !UUID_PATTERN.test(m[2])) throw badRequest('INVALID_CURSOR', 'The paging cursor is not valid.');
  return { time: Number(m[1]), id: m[2] };
}

/** The signed-in user a report comes from, if its token is valid; a report is never refused for its token. */
async function reporter(ctx: AppContext, c: Context): Promise<string | null> {
  const header = c.req.header('authorization');
  if (!header) return null;
  try {
    return (await verifyToken(ctx.db, ctx.key, ctx.tokens, header.replace(/^Bearer\s+/i, '').trim(), 'id')).sub;
  } catch {
    return null;
  }
}

/** POST /client-errors: open to everyone (sign-in pages fail too), so limited per address and in size. */
export function publicClientErrorRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  const allow = fixedWindowLimiter(CLIENT_ERROR_RATE.limit, CLIENT_ERROR_RATE.windowMs, ctx.now);
  r.post('/client-errors', routeBodyLimit(CLIENT_ERROR_MAX_BODY), async (c) => {
    const address = clientAddress(c, ctx.config);
    if (!allow(address)) throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many error reports, please try again later');
    const report = clientErrorReportSchema.parse(await c.req.json());
    const userId = await reporter(ctx, c);
    const id = randomUUID();
    await ctx.db.query(
      `INSERT INTO client_errors (id, created_at, user_id, client_address, kind, message, stack, component_stack, url, user_agent, release)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [id, ctx.now(), userId, address, report.kind, report.message, report.stack ?? null, report.componentStack ?? null, report.url ?? null, c.req.header('user-agent')?.slice(0, 512) ?? null, report.release ?? null],
    );
    return c.json({ id }, 201);
  });
  return r;
}

/** GET /admin/client-errors: site admins, newest first, paged by the `next` cursor. */
export function adminClientErrorRoutes(ctx: AppContext) {
  const r = new Hono<GatewayEnv>();
  r.get('/admin/client-errors', async (c) => {
    requireSiteAdmin(c);
    const q = clientErrorQuerySchema.parse(c.req.query());
    const params: unknown[] = [q.limit + 1];
    let after = '';
    if (q.start) {
      const cur = decodeCursor(q.start);
      params.push(cur.time, cur.id);
      after = 'WHERE (e.created_at, e.id) < ($2, $3::uuid)';
    }
    const rows = await ctx.db.query<ClientErrorRow>(
      `SELECT e.*, u.email FROM client_errors e LEFT JOIN users u ON u.id = e.user_id ${after}
       ORDER BY e.created_at DESC, e.id DESC LIMIT $1`,
      params,
    );
    const page = rows.slice(0, q.limit);
    const clientErrors: ClientError[] = page.map((e) => ({
      id: e.id,
      createdAt: Number(e.created_at),
      user: e.user_id ? { id: e.user_id, email: e.email ?? '' } : null,
      clientAddress: e.client_address,
      userAgent: e.user_agent,
      kind: e.kind,
      message: e.message,
      stack: e.stack,
      componentStack: e.component_stack,
      url: e.url,
      release: e.release,
    }));
    return c.json({ clientErrors, next: rows.length > q.limit ? encodeCursor(page[page.length - 1]) : null });
  });
  return r;
}
