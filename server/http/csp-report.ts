import { Hono } from 'hono';
import type { AppContext } from '../context';
import { fixedWindowLimiter } from '../identity/rate-limit';
import { KiB, routeBodyLimit } from './body-limit';
import { HttpError } from './errors';
import { clientAddress } from './origin';

/** A browser's report of one blocked resource is about 1 KiB; anything past this is not one. */
export const CSP_REPORT_MAX_BODY = 8 * KiB;
/** Reports per client address per minute: enough for a page with a few violations, not for a flood of the log. */
export const CSP_REPORT_RATE = { limit: 30, windowMs: 60_000 };

/**
 * POST /csp-report, where browsers report what the Content-Security-Policy blocked: open to
 * everyone (no page can sign its reports), so limited in size (413) and per address (429);
 * logged, never trusted.
 */
export function cspReportRoutes(ctx: AppContext) {
  const r = new Hono();
  const allow = fixedWindowLimiter(CSP_REPORT_RATE.limit, CSP_REPORT_RATE.windowMs, ctx.now);
  r.post('/csp-report', routeBodyLimit(CSP_REPORT_MAX_BODY), async (c) => {
    if (!allow(clientAddress(c, ctx.config)))
      throw new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many reports, please try again later', { 'Retry-After': String(CSP_REPORT_RATE.windowMs / 1000) });
    const text = await c.req.text();
    ctx.log.warn({ report: text }, 'CSP violation');
    return c.json({ received: true }, 202);
  });
  return r;
}
