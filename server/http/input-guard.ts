import type { Context, MiddlewareHandler } from 'hono';
import { UUID_PATTERN, storableText } from '../../src/contract/safe-text';
import { badRequest } from './errors';

export const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** The path (as a.b.0.c) of the first string or key in a JSON value that fails `ok` (default: PostgreSQL cannot store it). */
export function findBadText(value: unknown, ok: (s: string, key?: string | number) => boolean = storableText, path: (string | number)[] = []): string | undefined {
  if (typeof value === 'string') return ok(value, path.at(-1)) ? undefined : path.join('.') || 'body';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], ok, [...path, i]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!ok(k)) return [...path, '(key)'].join('.');
      const found = findBadText(v, ok, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
}

// cheap first look at a body: only text that may hold a NUL or a surrogate escape is parsed again
// eslint-disable-next-line no-control-regex -- a raw NUL is what it looks for
const SUSPECT = /\u0000|\\u0000|\\u[dD][89a-fA-F]/;

/**
 * Refuses, before any handler, what no column can hold: NUL and unpaired surrogates in the path,
 * the query or any string of a JSON body (PostgreSQL rejects them, and a 500 is never the answer
 * to bad input). Field rules (control characters in names and so on) stay with the zod schemas.
 */
export function refuseUnstorable(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // malformed percent-encoding reaches the routes as it is, and their id checks refuse it
    }
    if (!storableText(path)) throw badRequest('INVALID_REQUEST', `The path ${UNSTORABLE_MESSAGE}.`);
    for (const [key, value] of url.searchParams) {
      if (!storableText(key) || !storableText(value)) throw badRequest('INVALID_REQUEST', `Query parameter ${JSON.stringify(key.replaceAll('\u0000', ''))} ${UNSTORABLE_MESSAGE}.`);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.raw.body) {
      const text = await c.req.text(); // cached by Hono: the handler's c.req.json() parses this text
      if (SUSPECT.test(text)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text; // not JSON: the handler answers INVALID_JSON; a raw NUL is still refused here
        }
        const where = findBadText(parsed);
        if (where) throw badRequest('INVALID_REQUEST', `${where}: ${UNSTORABLE_MESSAGE}`);
      }
    }
    await next();
  };
}

/** A path parameter that is a UUID in the database; anything else is a 400 naming the parameter. */
export function uuidParam(c: Context, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID_PATTERN.test(value)) throw badRequest('INVALID_ID', `${name} must be a UUID.`);
  return value.toLowerCase();
}
