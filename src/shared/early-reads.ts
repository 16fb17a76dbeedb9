import type { z } from 'zod';
import { api } from './api';

/**
 * Reads begun as soon as the session is known, beside the signed-in user's read, instead of after
 * the code of the page that needs them has loaded (issue 34: a dashboard opened by link waited
 * for the user, then the organisations, then its record, one after another, each behind its
 * page's code). The organisations always; once the slug's id is known (remembered by this
 * browser from the last organisations answer, else from the answer), on a sensor's address that
 * sensor's record, and on the notifications page without filters its first page; on the sensors
 * list or the map (a sensor's dashboard among them), the organisation's fleet,
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

/** Where this browser keeps the id of each organisation slug the last organisations answer named. */
export const ORG_IDS_KEY = 'tidewatch.organisationIds';

type OrgIds = Record<string, string>;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined; // storage refused (a privacy setting): every read waits for the organisations
  }
}

/** The id the last organisations answer gave `slug`, if this browser has one. */
function rememberedOrgId(slug: string): string | undefined {
  try {
    const ids = JSON.parse(storage()?.getItem(ORG_IDS_KEY) ?? '{}') as unknown;
    const id = ids && typeof ids === 'object' ? (ids as Record<string, unknown>)[slug] : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** At most this many slugs are kept (a site admin's list may hold every organisation): the rest wait for the answer. */
const ORG_IDS_KEPT = 1_000;

/** Keeps each organisation's slug and id from an organisations answer (the whole set: a slug no longer there is forgotten). */
function rememberOrgIds(orgs: unknown): void {
  if (!Array.isArray(orgs)) return;
  const ids: OrgIds = {};
  for (const o of (orgs as { id?: unknown; slug?: unknown }[]).slice(0, ORG_IDS_KEPT)) if (typeof o?.slug === 'string' && typeof o.id === 'string') ids[o.slug] = o.id;
  try {
    storage()?.setItem(ORG_IDS_KEY, JSON.stringify(ids));
  } catch {
    // full or refused: the next visit waits for the organisations
  }
}

/**
 * Starts the reads the page at `pathname` (and `search`) will make: the organisations, and a
 * sensor's record or the first notifications, or the fleet. Those need the organisation's id,
 * which the address names by slug: when this browser remembers the slug's id from the last
 * organisations answer, they start at once beside the organisations; otherwise, or when the answer
 * gives the slug another id, when the organisations are in (a read begun with a wrong id is held
 * under that id's path, which no page asks for). Resolves once the reads begun at once have been
 * handed to the network (the page's code is then fetched behind them, src/app/auth-actors.ts).
 */
export function startEarlyReads(pathname: string, search = ''): Promise<void> {
  const sent: Promise<void>[] = [];
  const readNow = (path: string) => {
    let told!: () => void;
    sent.push(new Promise<void>((r) => (told = r)));
    const read = api.get(path, { sent: told });
    // a read that failed before it was sent (no token) settles it too
    void read.then(told, told);
    return hold(path, read);
  };
  const orgs = readNow(ORGANISATIONS);
  const sensor = SENSOR_ADDRESS.exec(pathname);
  // the notifications page's filters are in its query: with any, the page reads its own first page
  const notifications = search === '' || search === '?' ? NOTIFICATIONS_ADDRESS.exec(pathname) : null;
  const fleet = FLEET_ADDRESS.exec(pathname);
  const slugMatch = sensor ?? notifications ?? fleet;
  const slug = slugMatch ? decodeURIComponent(slugMatch[1]!) : undefined;
  const pagePath = (orgId: string) => (sensor ? sensorPath(orgId, decodeURIComponent(sensor[2]!)) : notifications ? notificationsFirstPage(orgId) : undefined);
  const begin = (orgId: string, read: (path: string) => unknown) => {
    if (fleet) void prefetchFleet(orgId);
    const path = pagePath(orgId);
    if (path) read(path);
  };
  const guess = slug === undefined ? undefined : rememberedOrgId(slug);
  if (guess) begin(guess, readNow);
  void orgs
    .then((body) => {
      const list = (body as { organisations?: unknown } | undefined)?.organisations;
      rememberOrgIds(list);
      if (slug === undefined || !Array.isArray(list)) return;
      const org = (list as { id?: unknown; slug?: unknown }[]).find((o) => o?.slug === slug);
      if (typeof org?.id !== 'string' || org.id === guess) return;
      if (guess) {
        const wrong = pagePath(guess);
        if (wrong) held.delete(wrong);
      }
      begin(org.id, (path) => hold(path, api.get(path)));
    })
    .catch(() => undefined);
  return Promise.all(sent).then(() => undefined);
}

/** Has the data worker begin the organisation's fleet (its code is being fetched already: src/app/page-code.ts preloadSignedIn). */
async function prefetchFleet(orgId: string): Promise<void> {
  try {
    const { dataWorker, workerApiBase, workerToken } = await import('./data-worker');
    await dataWorker().fleetPrefetch({ apiBase: workerApiBase(), token: await workerToken(), orgId });
  } catch {
    // the page's own load reports what failed
  }
}

/** Forgets every early read and the organisations' ids (signing out: the next account's pages read their own). */
export function dropEarlyReads(): void {
  held.clear();
  try {
    storage()?.removeItem(ORG_IDS_KEY);
  } catch {
    // refused: nothing was kept
  }
}

/** The path of a sensor's record by serial (GET), as the early read holds it. */
export { sensorPath as sensorRecordPath };
