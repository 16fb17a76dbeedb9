/**
 * The data worker's script started as early as a signed-in visit to the sensors list or the map
 * is known (src/app/page-code.ts preloadSignedIn), before the client's code (Comlink, in its own
 * chunk) has loaded: the worker's script and WASM core are fetched and compiled on the worker's
 * thread while the page's chunks load, and the fleet's first page can be asked for as soon as the
 * organisations name the address's id (src/shared/early-reads.ts). This module is in the entry
 * chunk, so it holds nothing but the worker.
 */
let started: { worker: Worker; failed: boolean } | undefined;
/** The client has asked for its worker: it has one (this one or its own), so none is started early any more. */
let asked = false;

/** A new data worker (a module worker that Vite bundles with the WASM core). */
export const newDataWorker = () => new Worker(new URL('../../workers/data.worker.ts', import.meta.url), { type: 'module' });

/**
 * Whether a worker's error event says its script could not be fetched (offline on first use):
 * nothing will ever answer. An error thrown inside a running worker is an ErrorEvent, and the
 * worker goes on.
 */
export const scriptFailed = (e: Event) => !(typeof ErrorEvent !== 'undefined' && e instanceof ErrorEvent);

/**
 * Starts the data worker's script once, unless the client has already asked for its worker (an
 * early read can make the client before the page's code is preloaded, and a worker started then
 * would never be taken).
 */
export function startDataWorker(): void {
  if (started || asked || typeof Worker === 'undefined') return;
  const s = { worker: newDataWorker(), failed: false };
  // the client then starts another
  s.worker.addEventListener('error', (e) => {
    if (scriptFailed(e)) s.failed = true;
  });
  started = s;
}

/** The worker started early, once, for the client to wrap; undefined when none was started or its script failed to load. */
export function takeStartedWorker(): Worker | undefined {
  asked = true;
  const s = started;
  started = undefined;
  if (!s) return undefined;
  if (!s.failed) return s.worker;
  s.worker.terminate();
  return undefined;
}
