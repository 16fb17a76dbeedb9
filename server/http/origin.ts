import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from '../context';
import type { Config } from '../config';

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** A host name (as in a URL, IPv6 in brackets) that names this machine's loopback. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}

/** The socket's remote address: who is really connected to us, whatever the headers say. */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The client's address for rate limits: the socket's remote address, or with TRUST_PROXY the
 * left-most X-Forwarded-For entry (what the proxy in front of us saw).
 */
export function clientAddress(c: Context, config: Pick<Config, 'TRUST_PROXY'>): string {
  if (config.TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress(c) ?? 'unknown';
}

/**
 * The origin for links in emails and for /config.json. PUBLIC_URL when set. Without it the
 * request's Host header is attacker-controlled (`Host: evil.example` would aim a verification
 * link there), so it is used only in demo mode and only when it names loopback; otherwise the
 * origin the server itself listens on.
 */
export function publicOrigin(ctx: AppContext, requestUrl: string | URL): string {
  if (ctx.config.PUBLIC_URL) return new URL(ctx.config.PUBLIC_URL).origin;
  const req = new URL(requestUrl);
  if (ctx.config.DEMO_MODE && isLoopbackHostname(req.hostname)) return req.origin;
  return new URL(ctx.tokens.issuer).origin;
}
