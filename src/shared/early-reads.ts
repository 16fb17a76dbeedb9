import type { z } from 'zod';
import { api } from './api';

/**
 * Reads begun as soon as the session is known, beside the signed-in user's read, instead of after
 * the code of the page that needs them has loaded (issue 34: a dashboard opened by link waited
 * for the user, then the organisations, then its record, one after another, each behind its
 * page's code). The organisations always; once the organisations name the slug's id, on a
 * sensor's address that sensor's record, and on the notifications page without filters its first
 * page; on the sensors list or the map (a sensor's dashboard among them), the organisation's fleet,
 * which the data worker begins loading (`fleetPrefetch`, workers/fleet.ts) and the page's own load
 * takes. Each is taken once by the page that would have read it, within
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
/** Notification cards a page of the notifications list holds (the page reads the first, then more as it is scrolled). */
export const NOTIFICATIONS_PAGE_SIZE = 50;
/** The notifications page's first read with no filters (its query is only the page size). */
export const notificationsFirstPage = (orgId: string) => `/organisations/${orgId}/notifications?limit=${NOTIFICATIONS_PAGE_SIZE}`;
/** /org/{slug}/sensors[/...] or /org/{slug}/map[/...]: the pages that draw the organisation's fleet. */
const FLEET_ADDRESS = /^\/org\/([^/]+)\/(?:sensors|map)(?:\/|$)/;
/** /org/{slug}/notifications: the notifications page. */
const NOTIFICATIONS_ADDRESS = /^\/org\/([^/]+)\/notifications\/?$/;

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

/** Starts the reads the page at `pathname` (and `search`) will make: the organisations, and a sensor's record or the first notifications. */
export function startEarlyReads(pathname: string, search = ''): void {
  const orgs = hold(ORGANISATIONS, api.get(ORGANISATIONS));
  const sensor = SENSOR_ADDRESS.exec(pathname);
  // the notifications page's filters are in its query: with any, the page reads its own first page
  const notifications = search === '' || search === '?' ? NOTIFICATIONS_ADDRESS.exec(pathname) : null;
  const fleet = FLEET_ADDRESS.exec(pathname);
  const slugMatch = sensor ?? notifications ?? fleet;
  if (!slugMatch) return;
  const slug = decodeURIComponent(slugMatch[1]!);
  void orgs
    .then((body) => {
      const org = (body as { organisations?: { id?: unknown; slug?: unknown }[] }).organisations?.find((o) => o.slug === slug);
      if (typeof org?.id !== 'string') return;
      const orgId = org.id;
      if (fleet) void prefetchFleet(orgId);
      if (!sensor && !notifications) return;
      const path = sensor ? sensorPath(orgId, decodeURIComponent(sensor[2]!)) : notificationsFirstPage(orgId);
      hold(path, api.get(path));
    })
    .catch(() => undefined);
}

/** Has the data worker begin the organisation's fleet (its code is being fetched already: src/app/router.tsx preloadSignedIn). */
async function prefetchFleet(orgId: string): Promise<void> {
  try {
    const { dataWorker, workerApiBase, workerToken } = await import('./data-worker');
    await dataWorker().fleetPrefetch({ apiBase: workerApiBase(), token: await workerToken(), orgId });
  } catch {
    // the page's own load reports what failed
  }
}

/** Forgets every early read (signing out: the next account's pages read their own). */
export function dropEarlyReads(): void {
  held.clear();
}

/** The path of a sensor's record by serial (GET), as the early read holds it. */
export { sensorPath as sensorRecordPath };
