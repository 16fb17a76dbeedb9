import type { Context, MiddlewareHandler } from 'hono';
import { UUID_PATTERN, storableText } from '../../src/contract/safe-text';
import { badRequest } from './errors';
import { TOO_DEEP_MESSAGE, jsonTooDeep } from './json-depth';

export const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/**
 * The path (as a.b.0.c) of the first string or key in a JSON value that fails `ok` (default:
 * PostgreSQL cannot store it), in document order. Iterative, with its own stack: a value nested
 * however deep (JSON.parse itself takes any depth) cannot overflow the call stack here.
 */
export function findBadText(value: unknown, ok: (s: string, key?: string | number) => boolean = storableText): string | undefined {
  // each frame points at its parent: the path is spelled out only for the one that fails
  type Frame = { value: unknown; key?: string | number; parent?: Frame };
  const where = (frame: Frame, last?: string) => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key!);
    return path.reverse().join('.') || 'body';
  };
  const stack: Frame[] = [{ value }];
  while (stack.length) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (!ok(v, frame.key)) return where(frame);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: frame });
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      // an object's keys are checked when it is reached, before any of its values
      for (const [k] of entries) if (!ok(k)) return where(frame, '(key)');
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: frame });
    }
  }
  return undefined;
}

/** The paths whose bodies are JSON a client wrote: each is refused past MAX_JSON_DEPTH before any handler. */
const JSON_PATHS = /^\/(api|identity|ingest|dev|csp-report)(\/|$)/;

/**
 * A request body nested deeper than MAX_JSON_DEPTH is a 400 before anything parses or walks it
 * (issue 35: 30 KB of nested arrays overflowed the recursive check below and cost a second of CPU
 * each). Applied at the app, after the body limit: Cognito's shape under /identity.
 */
export function refuseDeepJson(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !c.req.raw.body || !JSON_PATHS.test(c.req.path)) return next();
    const text = await c.req.text(); // cached by Hono for the handler
    if (!jsonTooDeep(text)) return next();
    if (c.req.path.startsWith('/identity')) {
      return c.body(JSON.stringify({ __type: 'InvalidParameterException', message: TOO_DEEP_MESSAGE }), 400, { 'Content-Type': 'application/x-amz-json-1.1' });
    }
    throw badRequest('INVALID_JSON', TOO_DEEP_MESSAGE);
  };
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
