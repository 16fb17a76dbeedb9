/**
 * The data worker's script started as early as a signed-in visit to the sensors list or the map
 * is known (src/app/router.tsx preloadSignedIn), before the client's code (Comlink, in its own
 * chunk) has loaded: the worker's script and WASM core are fetched and compiled on the worker's
 * thread while the page's chunks load, and the fleet's first page can be asked for as soon as the
 * organisations name the address's id (src/shared/early-reads.ts). This module is in the entry
 * chunk, so it holds nothing but the worker.
 */
let started: { worker: Worker; failed: boolean } | undefined;

/** Starts the data worker's script once (a later call does nothing until the client takes it). */
export function startDataWorker(): void {
  if (started || typeof Worker === 'undefined') return;
  const worker = new Worker(new URL('../../workers/data.worker.ts', import.meta.url), { type: 'module' });
  const s = { worker, failed: false };
  // a plain error event: the script could not be fetched (offline); the client then starts another
  worker.addEventListener('error', (e) => {
    if (!(typeof ErrorEvent !== 'undefined' && e instanceof ErrorEvent)) s.failed = true;
  });
  started = s;
}

/** The worker started early, once, for the client to wrap; undefined when none was started or its script failed to load. */
export function takeStartedWorker(): Worker | undefined {
  const s = started;
  started = undefined;
  if (!s) return undefined;
  if (!s.failed) return s.worker;
  s.worker.terminate();
  return undefined;
}
