import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { log } from '../log';

/** A gateway error: answered as JSON { code, message } with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (code = 'NOT_FOUND', message = 'Not found') => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** The code of a bad value that reached the database unchecked; the hostile-input test requires it never appears. */
export const UNCHECKED_VALUE = 'INVALID_VALUE';

/** PostgreSQL's data exceptions (class 22: bad uuid, NUL, out of range...) and program limits (54). */
export const isDataException = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|54)[0-9A-Z]{3}$/.test(code);
};

/** The one place gateway errors become responses. */
export function handleError(err: Error, c: Context) {
  if (err instanceof HttpError) return c.json({ code: err.code, message: err.message }, err.status);
  if (err instanceof ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    return c.json({ code: 'INVALID_REQUEST', message: `${where}${first?.message ?? 'Invalid request'}`, issues: err.issues }, 400);
  }
  if (err instanceof SyntaxError) return c.json({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.' }, 400);
  if (isDataException(err)) {
    // a last line only: input is validated at the boundary, so reaching here is a missing check (logged)
    log.warn({ err, path: c.req.path }, 'database refused a value that validation let through');
    return c.json({ code: UNCHECKED_VALUE, message: 'A value in the request cannot be stored.' }, 400);
  }
  log.error({ err, path: c.req.path }, 'unhandled error');
  return c.json({ code: 'INTERNAL_ERROR', message: 'Something went wrong.' }, 500);
}
