import { bothOrFirstAndWait, loader } from './lazy-now';
import { startDataWorker } from '../shared/data-worker-start';

// The code of the signed-in frame and of each organisation section, loaded on first visit (the
// router draws them; preloadSignedIn fetches a visit's share as soon as a session is found).
export const notificationsCode = loader(() => import('../features/notifications/notifications-page'));
export const orgSettingsCode = loader(() => import('../features/org-settings/settings-frame'));
export const sensorsCode = loader(() => import('./sensors-area'));
export const mapCode = loader(() => import('./map-area'));
export const serviceRoutesCode = loader(() => import('./service-routes-area'));
// The signed-in frame (the organisations gate, the app frame with its menus, org switcher and
// dialogs) loads after sign-in too: the sign-in page ships only what it draws.
export const organisationsCode = loader(() => import('./organisations'));
export const orgLayoutCode = loader(() => import('./org-layout'));

/** The section of /org/{slug}/{section}..., whose page's code a signed-in visit fetches beside the frame's. */
const SECTION_CODE: Record<string, () => Promise<unknown>> = {
  sensors: sensorsCode.load,
  map: mapCode.load,
  notifications: notificationsCode.load,
  settings: orgSettingsCode.load,
  'service-routes': serviceRoutesCode.load,
};

/**
 * How long the signed-in splash waits for the section's code once the frame's is in. On loopback
 * and a fast line both come together and the page draws at once; on a slow phone line the frame
 * shows after this, with the section loading inside it.
 */
const SECTION_WAIT_MS = 500;

let preloaded: { pathname: string; code: Promise<unknown> | undefined } | undefined;

/**
 * A signed-in visit to an organisation's page: the frame's chunks, the page's own (its section's)
 * and, for the sensors and the map, the data worker (which fetches the fleet) start together as
 * soon as a stored session is found, beside the reads of the user and the organisations
 * (src/app/auth-actors.ts), not one after another as each lazy level renders; on slow 4G each of
 * those steps is a round trip and more. The route guard asks again once it draws
 * (src/app/guards.tsx RequireAuth) and gets the same answer: the code of the page at `pathname`,
 * for which its splash waits.
 */
export function preloadSignedIn(pathname: string): Promise<unknown> | undefined {
  if (preloaded?.pathname === pathname) return preloaded.code;
  const code = preloadNow(pathname);
  preloaded = { pathname, code };
  return code;
}

function preloadNow(pathname: string): Promise<unknown> | undefined {
  if (!/^\/org(?:\/|$)/.test(pathname)) return undefined;
  const section = /^\/org\/[^/]+\/([^/]+)/.exec(pathname)?.[1];
  // the fleet's pages: the worker's script first, then its client's code, ahead of the pages' chunks
  // in the browser's queue (six requests at a time over HTTP/1.1), so the fleet's first page is
  // asked for as soon as the organisations are in (src/shared/early-reads.ts)
  if (section === 'sensors' || section === 'map') {
    startDataWorker();
    void import('../shared/data-worker').then((m) => m.dataWorker());
  }
  // Each import below has Vite append a module preload link for every chunk it needs and the page
  // has not asked for yet (about 40 in all), and each append starts a request on the main thread:
  // the frame's and the section's in tasks of their own, in the same order, rather than all in the
  // one task that found the session (a loading task over 50 ms on the sensors page, benchmark 22)
  const frameAsked = nextTask();
  const frame = frameAsked.then(() => Promise.all([organisationsCode.load(), orgLayoutCode.load()]));
  const code = section !== undefined && Object.hasOwn(SECTION_CODE, section) ? SECTION_CODE[section] : undefined;
  const sectionCode = code ? frameAsked.then(nextTask).then(() => code()) : Promise.resolve();
  // a failure settles it too: the page's own import reports it when it renders
  return bothOrFirstAndWait(frame, sectionCode, SECTION_WAIT_MS);
}

/** Resolves in a task of its own, after what the browser has queued meanwhile. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
