import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';

export const KiB = 1024;
export const MiB = 1024 * KiB;
/** Every JSON route's limit unless it names its own: a form or an uplink is a few hundred bytes. */
export const DEFAULT_BODY_LIMIT = 64 * KiB;

const LIMIT = Symbol('bodyLimit');
type Tagged = MiddlewareHandler & { [LIMIT]?: number };

const sizeText = (bytes: number) => (bytes >= MiB ? `${bytes / MiB} MiB` : `${bytes / KiB} KiB`);

/** The 413 answer: Cognito's shape under /identity, the gateway's elsewhere; the connection is closed after it. */
function tooLarge(c: Context, maxBytes: number) {
  const message = `The request body is larger than ${sizeText(maxBytes)}.`;
  // Connection: close makes Node close the socket after the answer instead of reading the rest
  const headers = { 'Content-Type': 'application/json', Connection: 'close' };
  const body = c.req.path.startsWith('/identity')
    ? { __type: 'InvalidParameterException', message }
    : { code: 'PAYLOAD_TOO_LARGE', message };
  return c.body(JSON.stringify(body), 413, headers);
}

/**
 * Hono's bodyLimit with two changes: it stops the upload (cancels the stream, closes the
 * connection) instead of leaving it to be drained, and its answer is JSON. A declared
 * Content-Length over the limit is refused before a byte of the body is read.
 */
function limitBody(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      if (!(Number(declared) <= maxBytes)) return tooLarge(c, maxBytes);
      return next();
    }
    // no length given (chunked): count while reading, and stop at the limit
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge(c, maxBytes);
      }
      chunks.push(value);
    }
    c.req.raw = new Request(raw, { body: Buffer.concat(chunks) });
    return next();
  };
}

/**
 * A route's own body limit, e.g. `r.post('/import', routeBodyLimit(10 * MiB), handler)`. It only
 * marks the route: the app's first middleware enforces it, before anything reads the body.
 */
export function routeBodyLimit(maxBytes: number): MiddlewareHandler {
  const marker: Tagged = (_c, next) => next();
  marker[LIMIT] = maxBytes;
  return marker;
}

/** Applied once, first, at the app: the matched route's own limit, else the default. */
export function bodyLimits(defaultBytes = DEFAULT_BODY_LIMIT): MiddlewareHandler {
  const limiters = new Map<number, MiddlewareHandler>();
  const limiter = (bytes: number) => limiters.get(bytes) ?? limiters.set(bytes, limitBody(bytes)).get(bytes)!;
  return (c, next) => {
    const own = matchedRoutes(c)
      .map((r) => (r.handler as Tagged)[LIMIT])
      .filter((n): n is number => n !== undefined);
    return limiter(own.length ? Math.max(...own) : defaultBytes)(c, next);
  };
}
