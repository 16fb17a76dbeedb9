import type { z } from 'zod';
import { api } from './api';

/**
 * Reads begun as soon as the session is known, beside the signed-in user's read, instead of after
 * the code of the page that needs them has loaded (issue 34: a dashboard opened by link waited
 * for the user, then the organisations, then its record, one after another, each behind its
 * page's code). The organisations always; on a sensor's address, that sensor's record once the
 * organisations name the slug's id. Each is taken once by the page that would have read it, within
 * EARLY_READ_TTL_MS; after that the page reads as before. A failed early read is that page's
 * failure, shown as it shows its own. The early reads are not checked here (their schemas stay
 * out of the entry chunk): the taker checks what it takes with its own schema.
 */
export const EARLY_READ_TTL_MS = 15_000;

const held = new Map<string, { at: number; read: Promise<unknown> }>();

const ORGANISATIONS = '/organisations';
const sensorPath = (orgId: string, serial: string) => `/organisations/${orgId}/sensors/${encodeURIComponent(serial)}`;
/** /org/{slug}/sensors/{serial}[/...]: a sensor's dashboard or one of its tabs. */
const SENSOR_ADDRESS = /^\/org\/([^/]+)\/sensors\/([^/]+)/;

function hold(path: string, read: Promise<unknown>): Promise<unknown> {
  // nobody may take it: an unhandled rejection would be reported as an error of the page
  read.catch(() => undefined);
  held.set(path, { at: Date.now(), read });
  return read;
}

/** GET `path` checked by `schema`: the early read of it when one is held (once, while fresh), else a new read. */
export function readEarly<T>(path: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
  const e = held.get(path);
  held.delete(path);
  if (e && Date.now() - e.at <= EARLY_READ_TTL_MS) return e.read.then((body) => schema.parse(body));
  return api.get(path, { schema, signal });
}

/** Starts the reads the page at `pathname` will make (the signed-in user's organisations, and a sensor's record). */
export function startEarlyReads(pathname: string): void {
  const orgs = hold(ORGANISATIONS, api.get(ORGANISATIONS));
  const m = SENSOR_ADDRESS.exec(pathname);
  if (!m) return;
  const [, slug, serial] = m.map((x) => decodeURIComponent(x)) as [string, string, string];
  void orgs
    .then((body) => {
      const org = (body as { organisations?: { id?: unknown; slug?: unknown }[] }).organisations?.find((o) => o.slug === slug);
      if (typeof org?.id === 'string') hold(sensorPath(org.id, serial), api.get(sensorPath(org.id, serial)));
    })
    .catch(() => undefined);
}

/** Forgets every early read (signing out: the next account's pages read their own). */
export function dropEarlyReads(): void {
  held.clear();
}

/** The path of a sensor's record by serial (GET), as the early read holds it. */
export { sensorPath as sensorRecordPath };
