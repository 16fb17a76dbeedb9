import * as Comlink from 'comlink';
import type { DataWorkerApi, LoadProgress, LoadRequest } from './data-api';

export interface DataWorkerClient {
  /** The worker's API; load() sends a fresh token first and wraps the progress callback for Comlink. */
  api: DataWorkerApi;
  terminate(): void;
}

/**
 * Starts the data worker (a module worker that Vite bundles with the WASM core) and returns a
 * typed proxy. Every load takes the current token: `heldIdToken` when it has one not due for
 * refresh, else `getIdToken` (which refreshes when due), so an expired token is never used.
 */
export function createDataWorker(opts: { apiBase: string; getIdToken: () => Promise<string | undefined>; heldIdToken?: () => string | undefined }): DataWorkerClient {
  const worker = new Worker(new URL('./data.worker.ts', import.meta.url), { type: 'module' });
  const remote = Comlink.wrap<DataWorkerApi>(worker);
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
      return remote.load(req, onProgress ? Comlink.proxy(onProgress) : undefined);
    },
    append: (target, points) => void remote.append(target, points),
    view: (req) => remote.view(req),
    exportCsv: (req) => remote.exportCsv(req),
    clear: (target) => void remote.clear(target),
    async usage(req) {
      const token = opts.heldIdToken?.() ?? (await opts.getIdToken());
      void remote.configure({ apiBase: opts.apiBase, token: token ?? '' });
      return remote.usage(req);
    },
    async exportUsageCsv(req) {
      const token = opts.heldIdToken?.() ?? (await opts.getIdToken());
      void remote.configure({ apiBase: opts.apiBase, token: token ?? '' });
      return remote.exportUsageCsv(req);
    },
    parseRouteFiles: (files, o) => remote.parseRouteFiles(files, o),
    parseSpecialRouteFiles: (files, o) => remote.parseSpecialRouteFiles(files, o),
    formatResultsFile: (req) => remote.formatResultsFile(req),
    formatExceptionsFile: (req) => remote.formatExceptionsFile(req),
    formatSelectionCsv: (req) => remote.formatSelectionCsv(req),
    formatMultiTaskCsv: (req) => remote.formatMultiTaskCsv(req),
    fleetLoad: (req) => remote.fleetLoad(req),
    fleetComplete: () => remote.fleetComplete(),
    fleetRefresh: (req) => remote.fleetRefresh(req),
    fleetSearch: (q) => remote.fleetSearch(q),
    fleetRows: (start, end) => remote.fleetRows(start, end),
    fleetFind: (serial) => remote.fleetFind(serial),
    fleetLive: (updates, start, end) => remote.fleetLive(updates, start, end),
    fleetSettings: (saved) => remote.fleetSettings(saved),
    fleetCsv: () => remote.fleetCsv(),
    fleetMapOverview: () => remote.fleetMapOverview(),
    fleetMapItems: (zoom, box) => remote.fleetMapItems(zoom, box),
    fleetMapExpansion: (generation, clusterId) => remote.fleetMapExpansion(generation, clusterId),
    fleetLiveStart: (req, out) => remote.fleetLiveStart(req, Comlink.proxy(out)),
    fleetLiveWindow: (start, end) => void remote.fleetLiveWindow(start, end),
    fleetLiveWatch: (ids) => void remote.fleetLiveWatch(ids),
    fleetLiveStop: () => void remote.fleetLiveStop(),
  };
  return { api, terminate: () => worker.terminate() };
}
