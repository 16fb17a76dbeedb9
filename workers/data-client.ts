import * as Comlink from 'comlink';
import type { DataWorkerApi, LoadProgress, LoadRequest } from './data-api';
import { newDataWorker, scriptFailed } from '../src/shared/data-worker-start';

export interface DataWorkerClient {
  /** The worker's API; load() sends a fresh token first and wraps the progress callback for Comlink. */
  api: DataWorkerApi;
  terminate(): void;
  /** The worker's script could not be loaded (the network gone on first use): its calls fail, and a new worker is needed. */
  readonly broken: boolean;
}

/**
 * The proxy's calls, each failing with `failed` if the worker never started (Comlink would wait for
 * an answer for ever: the notifications filter said "Searching…" with the network gone).
 */
function failingWith<T extends object>(remote: T, failed: Promise<never>): T {
  return new Proxy(remote, {
    get: (target, prop) => (...args: unknown[]) => Promise.race([(target as Record<PropertyKey, (...a: unknown[]) => unknown>)[prop]!(...args), failed]),
  });
}

/**
 * Starts the data worker (or wraps one started earlier) and returns a
 * typed proxy. Every load takes the current token: `heldIdToken` when it has one not due for
 * refresh, else `getIdToken` (which refreshes when due), so an expired token is never used.
 */
export function createDataWorker(opts: { apiBase: string; getIdToken: () => Promise<string | undefined>; heldIdToken?: () => string | undefined; worker?: Worker }): DataWorkerClient {
  // a worker whose script was started earlier (src/shared/data-worker-start.ts), or a new one
  const worker = opts.worker ?? newDataWorker();
  const remote = Comlink.wrap<DataWorkerApi>(worker);
  let broken = false;
  let fail!: (err: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  worker.addEventListener('error', (e) => {
    if (!scriptFailed(e)) return;
    broken = true;
    fail(new TypeError('Failed to fetch'));
  });
  // calls whose answer is awaited (the fire-and-forget ones below use remote: nobody would handle their failure)
  const call = failingWith(remote, failed);
  const api: DataWorkerApi = {
    configure: (o) => void remote.configure(o),
    setToken: (t) => void remote.setToken(t),
    async load(req: LoadRequest, onProgress?: (p: LoadProgress) => void) {
      // a held token goes at once, in the caller's task: even a settled promise would wait for the
      // rest of that task (the render of the closing date picker, 7 to 9 ms) before the worker hears
      const token = opts.heldIdToken?.() ?? (await opts.getIdToken());
      // not awaited: the worker handles messages in order (both wait on the same core promise,
      // whose reactions run in order), so the load sees this token without a round trip first
      void remote.configure({ apiBase: opts.apiBase, token: token ?? '' });
      return call.load(req, onProgress ? Comlink.proxy(onProgress) : undefined);
    },
    append: (target, points) => void remote.append(target, points),
    view: (req) => call.view(req),
    exportCsv: (req) => call.exportCsv(req),
    clear: (target) => void remote.clear(target),
    async usage(req) {
      const token = opts.heldIdToken?.() ?? (await opts.getIdToken());
      void remote.configure({ apiBase: opts.apiBase, token: token ?? '' });
      return call.usage(req);
    },
    async exportUsageCsv(req) {
      const token = opts.heldIdToken?.() ?? (await opts.getIdToken());
      void remote.configure({ apiBase: opts.apiBase, token: token ?? '' });
      return call.exportUsageCsv(req);
    },
    parseRouteFiles: (files, o) => call.parseRouteFiles(files, o),
    parseSpecialRouteFiles: (files, o) => call.parseSpecialRouteFiles(files, o),
    formatResultsFile: (req) => call.formatResultsFile(req),
    formatExceptionsFile: (req) => call.formatExceptionsFile(req),
    formatSelectionCsv: (req) => call.formatSelectionCsv(req),
    formatMultiTaskCsv: (req) => call.formatMultiTaskCsv(req),
    fleetLoad: (req) => call.fleetLoad(req),
    fleetPrefetch: (req) => call.fleetPrefetch(req),
    fleetComplete: () => call.fleetComplete(),
    fleetRefresh: (req) => call.fleetRefresh(req),
    fleetSearch: (q) => call.fleetSearch(q),
    fleetRows: (start, end) => call.fleetRows(start, end),
    fleetFind: (serial) => call.fleetFind(serial),
    fleetLive: (updates, start, end) => call.fleetLive(updates, start, end),
    fleetSettings: (saved) => call.fleetSettings(saved),
    fleetCsv: () => call.fleetCsv(),
    fleetMapOverview: () => call.fleetMapOverview(),
    fleetMapHeld: () => call.fleetMapHeld(),
    fleetMapItems: (zoom, box) => call.fleetMapItems(zoom, box),
    fleetMapExpansion: (generation, clusterId) => call.fleetMapExpansion(generation, clusterId),
    // the live feed's start is answered once the worker runs it; the rest are fire-and-forget (remote)
    fleetLiveStart: (req, out) => call.fleetLiveStart(req, Comlink.proxy(out)),
    fleetLiveWindow: (start, end) => void remote.fleetLiveWindow(start, end),
    fleetLiveWatch: (ids) => void remote.fleetLiveWatch(ids),
    fleetLiveStop: () => void remote.fleetLiveStop(),
  };
  return {
    api,
    terminate: () => worker.terminate(),
    get broken() {
      return broken;
    },
  };
}
