import { fetchAuthSession } from 'aws-amplify/auth';
import type { ClientErrorReport } from '../contract/client-error.schema';

/**
 * Client error reporting (monitoring-client.md 9): uncaught errors, unhandled rejections and
 * failed renders go to POST /api/client-errors, sampled at the configured rate (0.1 in
 * production). At most MAX_PER_PAGE reports leave one page load, and the same message only once,
 * so an error loop costs the server a handful of requests.
 */
export const MAX_PER_PAGE = 5;

interface Reporter {
  endpoint: string;
  sampleRate: number;
  release?: string;
  random: () => number;
  send: typeof fetch;
}

let reporter: Reporter | undefined;
let sent = 0;
const seenMessages = new Set<string>();
const seenErrors = new WeakSet<object>();

const describe = (error: unknown): { message: string; stack?: string } => {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`.slice(0, 2000), stack: error.stack?.slice(0, 8000) };
  try {
    return { message: (typeof error === 'string' ? error : JSON.stringify(error) ?? String(error)).slice(0, 2000) || 'Unknown error' };
  } catch {
    return { message: String(error).slice(0, 2000) || 'Unknown error' };
  }
};

async function idToken(): Promise<string | undefined> {
  try {
    return (await fetchAuthSession()).tokens?.idToken?.toString();
  } catch {
    return undefined; // signed out: the report goes without a user
  }
}

/** Reports one error if it is sampled; never throws and never reports about itself. */
export async function reportClientError(kind: ClientErrorReport['kind'], error: unknown, componentStack?: string): Promise<boolean> {
  const r = reporter;
  if (!r || sent >= MAX_PER_PAGE) return false;
  if (error && typeof error === 'object') {
    if (seenErrors.has(error)) return false; // StrictMode and nested boundaries see one error twice
    seenErrors.add(error);
  }
  const { message, stack } = describe(error);
  if (seenMessages.has(message) || r.random() >= r.sampleRate) return false;
  seenMessages.add(message);
  sent++;
  const body: ClientErrorReport = { kind, message, stack, componentStack: componentStack?.slice(0, 4000), url: location.href.slice(0, 2048), release: r.release };
  try {
    const token = await idToken();
    const res = await r.send(`${r.endpoint.replace(/\/$/, '')}/client-errors`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
      body: JSON.stringify(body),
      keepalive: true,
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** Starts reporting for this page: window 'error' and 'unhandledrejection'; boundaries call reportClientError. */
export function installClientErrorReporting(opts: { endpoint: string; sampleRate: number; release?: string; random?: () => number; send?: typeof fetch }) {
  reporter = { random: Math.random, send: (...a) => fetch(...a), ...opts };
  sent = 0;
  seenMessages.clear();
  const onError = (e: ErrorEvent) => void reportClientError('error', e.error ?? e.message);
  const onRejection = (e: PromiseRejectionEvent) => void reportClientError('unhandledrejection', e.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    reporter = undefined;
  };
}
