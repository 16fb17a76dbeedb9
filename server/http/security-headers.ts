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
  const styles = [config.MAP_STYLE_URL, config.MAP_STYLE_URL_ROADMAP, config.MAP_STYLE_URL_HYBRID, config.MAP_STYLE_URL_SATELLITE, config.MAP_STYLE_URL_TERRAIN];
  for (const o of [config.MQTT_WS_URL, ...styles].map(originOf)) if (o) connect.add(o);
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

/** The security headers every answer carries, as [name, value] pairs. */
export function securityHeaderList(config: Config): [string, string][] {
  // served over HTTPS: by a proxy in front (an https PUBLIC_URL), or by this server's own certificate
  const https = config.PUBLIC_URL ? config.PUBLIC_URL.startsWith('https:') : Boolean(config.TLS_CERT_FILE);
  const hsts = https ? 'max-age=31536000; includeSubDomains' : undefined;
  return [
    ['Content-Security-Policy', contentSecurityPolicy(config)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ...(hsts ? [['Strict-Transport-Security', hsts] as [string, string]] : []),
  ];
}

/** Security headers on every answer, errors included. */
export function securityHeaders(config: Config): MiddlewareHandler {
  const list = securityHeaderList(config);
  return async (c, next) => {
    await next();
    for (const [name, value] of list) c.header(name, value);
  };
}
