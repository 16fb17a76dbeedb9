import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config';

const originOf = (u: string | undefined) => {
  if (!u) return undefined;
  try {
    return new URL(u).origin;
  } catch {
    return undefined;
  }
};

/**
 * The Content-Security-Policy the app runs under (the e2e suite fails on any violation).
 * Scripts only from us, plus WebAssembly compilation for the data core; workers from us and
 * blob: (MapLibre builds its worker from a blob); style-src needs 'unsafe-inline' because
 * Mantine and MapLibre write style tags and attributes at run time; connections to us and to
 * the configured identity, API, MQTT and map origins; nothing may frame the app.
 */
export function contentSecurityPolicy(config: Config): string {
  const connect = new Set(["'self'"]);
  const publicOrigin = originOf(config.PUBLIC_URL);
  if (publicOrigin) {
    connect.add(publicOrigin);
    connect.add(publicOrigin.replace(/^http/, 'ws'));
  }
  for (const o of [originOf(config.MQTT_WS_URL), originOf(config.MAP_STYLE_URL)]) if (o) connect.add(o);
  for (const extra of config.CSP_CONNECT_SRC?.split(/\s+/).filter(Boolean) ?? []) connect.add(extra);
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${[...connect].join(' ')}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    'report-uri /csp-report',
  ].join('; ');
}

/** Security headers on every answer, errors included. */
export function securityHeaders(config: Config): MiddlewareHandler {
  const csp = contentSecurityPolicy(config);
  const hsts = config.PUBLIC_URL?.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : undefined;
  return async (c, next) => {
    await next();
    c.header('Content-Security-Policy', csp);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (hsts) c.header('Strict-Transport-Security', hsts);
  };
}
