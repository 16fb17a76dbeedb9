import type { z } from 'zod';
import { apiErrorSchema } from '../contract/error.schema';

/** Where the gateway is and how to get the caller's ID token; set once at the app edge. */
export interface GatewayConfig {
  endpoint: string; // e.g. http://localhost:8080/api
  getIdToken: () => Promise<string | undefined>;
  /** The token getIdToken would give at once, if it is already held and not due for refresh (no wait). */
  heldIdToken?: () => string | undefined;
  /** The user pool's region (ap-southeast-2 in ap-southeast-2_AbC), named by the member and user calls. */
  region?: string;
}

let gateway: GatewayConfig = { endpoint: '/api', getIdToken: async () => undefined };

export function configureGateway(cfg: GatewayConfig) {
  gateway = cfg;
}

export const NOT_LOGGED_IN = 'User is not logged in';
/** How long a read (GET) may take, answer and body, before it fails as a network failure. */
export const READ_TIMEOUT_MS = 45_000;
export const FAILED_TO_FETCH = 'Failed to fetch';

/** A non-2xx gateway answer (or no answer): code from the body, message the server's text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CallOptions<T> {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Unsigned calls (claim-sensor, signup) go without a token. */
  unsigned?: boolean;
  /** Extra request headers (the record call's Idempotency-Key). */
  headers?: Record<string, string>;
  /** Told when the request is handed to the network (after the token is in): the early reads' own requests go before the page's code (src/shared/early-reads.ts). */
  sent?: () => void;
}

const answered = new Set<() => void>();

/**
 * Listens for the gateway's successful answers to any call (the reader app: a request that succeeds
 * tells its upload queue the network is back). Returns the stop.
 */
export function onGatewayAnswered(listener: () => void): () => void {
  answered.add(listener);
  return () => void answered.delete(listener);
}

/** The gateway answered a request with success (call's own, or one a worker made for the page: the reader's download). */
export function gatewayAnswered(): void {
  for (const listener of answered) listener();
}

/** Calls the gateway: adds the ID token, drops undefined query values, validates the answer. */
export async function call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, opts: CallOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { ...opts.headers };
  if (!opts.unsigned) {
    const token = await gateway.getIdToken();
    if (!token) throw new ApiError(0, 'NOT_LOGGED_IN', NOT_LOGGED_IN);
    headers.Authorization = token;
  }
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const url = new URL(gateway.endpoint.replace(/\/$/, '') + path, globalThis.location?.href ?? 'http://localhost');
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  // a read that has not finished within READ_TIMEOUT_MS fails as a lost network does, so a page
  // on a stalled connection says so and offers its retry instead of loading for ever; writes wait
  // (an upload on a slow network may take longer, and the server may already have acted on it)
  const ctrl = new AbortController();
  let timedOut = false;
  const timer = method === 'GET' ? setTimeout(() => ((timedOut = true), ctrl.abort()), READ_TIMEOUT_MS) : undefined;
  const onCallerAbort = () => ctrl.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let res: Response;
  let text: string;
  try {
    const answer = fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: ctrl.signal });
    opts.sent?.();
    res = await answer;
    text = await res.text();
  } catch (err) {
    if ((err as Error).name === 'AbortError' && !timedOut) throw err;
    throw new ApiError(0, 'NETWORK_ERROR', FAILED_TO_FETCH);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  }
  if (!res.ok) {
    let code = `HTTP_${res.status}`;
    let message = text;
    try {
      const parsed = apiErrorSchema.safeParse(JSON.parse(text));
      if (parsed.success) ({ code, message } = parsed.data);
    } catch {
      /* the response text is the message */
    }
    throw new ApiError(res.status, code, message);
  }
  gatewayAnswered();
  const json = text ? JSON.parse(text) : undefined;
  return opts.schema ? opts.schema.parse(json) : (json as T);
}

export const api = {
  get: <T>(path: string, opts?: CallOptions<T>) => call<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: CallOptions<T>) => call<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts?: CallOptions<T>) => call<T>('PUT', path, { ...opts, body }),
  patch: <T>(path: string, body?: unknown, opts?: CallOptions<T>) => call<T>('PATCH', path, { ...opts, body }),
  delete: <T>(path: string, body?: unknown, opts?: CallOptions<T>) => call<T>('DELETE', path, { ...opts, body }),
};

/** ?region= of the member and user calls (organisation-and-routes 8). */
export const regionQuery = () => ({ region: gateway.region });

/** The current ID token, for the data worker and the MQTT connection. */
export const getIdToken = () => gateway.getIdToken();
export const heldIdToken = () => gateway.heldIdToken?.();
export const gatewayEndpoint = () => gateway.endpoint;
