import type { Context, Hono } from 'hono';

type AnyHono = Hono<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- any app's routes

/** A Hono route path as a regular expression: `:name` one segment (or its own pattern), `*` anything. */
function pathPattern(path: string): RegExp {
  const source = path
    .split(/(:\w+(?:\{[^}]+\})?|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      const param = /^:\w+(?:\{([^}]+)\})?$/.exec(part);
      if (param) return param[1] ? `(?:${param[1]})` : '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}/?$`);
}

/**
 * The last handler under a prefix that is not the app's (/api, /identity, /ingest, /dev): JSON 405
 * with Allow when the path exists for other methods, else JSON 404, instead of the app's HTML.
 */
export function apiFallback(app: AnyHono, shape: 'gateway' | 'cognito' = 'gateway') {
  let routes: { method: string; re: RegExp }[] | undefined;
  return (c: Context) => {
    // middleware (ALL) and the app's own history fallback (GET /*) say nothing about a path
    routes ??= app.routes.filter((r) => r.method !== 'ALL' && r.path !== '/*').map((r) => ({ method: r.method, re: pathPattern(r.path) }));
    const allowed = [...new Set(routes.filter((r) => r.re.test(c.req.path)).map((r) => r.method))];
    const status = allowed.length ? 405 : 404;
    const message = allowed.length ? `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.` : `No route ${c.req.method} ${c.req.path}`;
    if (allowed.length) c.header('Allow', allowed.join(', '));
    const body =
      shape === 'cognito'
        ? { __type: allowed.length ? 'MethodNotAllowedException' : 'ResourceNotFoundException', message }
        : { code: allowed.length ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND', message };
    return c.json(body, status);
  };
}
