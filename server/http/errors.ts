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
    /** Headers of the answer, e.g. Retry-After of a 429 or 503. */
    readonly headers?: Record<string, string>,
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
  const { status, body } = errorAnswer(err, c.req.path);
  return c.json(body, status, err instanceof HttpError ? err.headers : undefined);
}

/** The status and JSON body of an error (handleError's, also for the uplink route's own listener). */
export function errorAnswer(err: Error, path: string): { status: ContentfulStatusCode; body: Record<string, unknown> } {
  if (err instanceof HttpError) return { status: err.status, body: { code: err.code, message: err.message } };
  if (err instanceof ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    return { status: 400, body: { code: 'INVALID_REQUEST', message: `${where}${first?.message ?? 'Invalid request'}`, issues: err.issues } };
  }
  if (err instanceof SyntaxError) return { status: 400, body: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' } };
  if (isDataException(err)) {
    // a last line only: input is validated at the boundary, so reaching here is a missing check (logged)
    log.warn({ err, path }, 'database refused a value that validation let through');
    return { status: 400, body: { code: UNCHECKED_VALUE, message: 'A value in the request cannot be stored.' } };
  }
  log.error({ err, path }, 'unhandled error');
  return { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } };
}
