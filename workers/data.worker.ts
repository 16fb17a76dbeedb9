/// <reference lib="webworker" />
import '../src/contract/csp-safe-zod'; // first: before any schema parses (see the file)
import * as Comlink from 'comlink';
import { loadCore } from '../wasm-core/core';
import type { DataWorkerApi, ExportRequest, LoadProgress, LoadRequest, MultiTaskExportRequest, RouteFile, ResultsFileRequest, RouteImportOptions, SeriesTarget, SpecialFile, TaskExportRequest, UsageExportRequest, UsageRequest, ViewRequest } from './data-api';
import { DataWorker } from './data-worker';
import { FleetWorker, type FleetLiveUpdate, type FleetLoadRequest } from './fleet';
import type { Box } from './fleet-map';
import { FleetLiveFeed, type FleetLiveOut, type FleetLiveStart } from './fleet-live';
import type { Sensor } from '../src/contract/sensor.schema';

// The data worker: fetches, parses and stores measurements in the WASM core, off the main thread.
const ready = loadCore().then((core) => new DataWorker({ core }));
// the fleet needs no core: its calls do not wait for the WASM to load
const fleet = new FleetWorker();
const fleetFeed = new FleetLiveFeed(fleet);

const api: DataWorkerApi = {
  async configure(opts: { apiBase: string; token: string }) {
    (await ready).configure(opts);
  },
  async setToken(token: string) {
    (await ready).setToken(token);
  },
  async load(req: LoadRequest, onProgress?: (p: LoadProgress) => void) {
    return (await ready).load(req, onProgress);
  },
  async append(target: SeriesTarget, points: { time: number; rawDistance: number }[]) {
    (await ready).append(target, points);
  },
  async view(req: ViewRequest) {
    const r = await (await ready).view(req);
    // the typed arrays move to the main thread without a copy
    return Comlink.transfer(r, [r.time.buffer, r.value.buffer]);
  },
  async exportCsv(req: ExportRequest) {
    return (await ready).exportCsv(req);
  },
  async clear(target?: SeriesTarget) {
    (await ready).clear(target);
  },
  async usage(req: UsageRequest) {
    return (await ready).usage(req);
  },
  async exportUsageCsv(req: UsageExportRequest) {
    return (await ready).exportUsageCsv(req);
  },
  async parseRouteFiles(files: RouteFile[], opts: RouteImportOptions) {
    return (await ready).parseRouteFiles(files, opts);
  },
  async parseSpecialRouteFiles(files: SpecialFile[], opts: { group: string; organisationId?: string }) {
    return (await ready).parseSpecialRouteFiles(files, opts);
  },
  async formatResultsFile(req: ResultsFileRequest) {
    const f = await (await ready).formatResultsFile(req);
    return Comlink.transfer(f, [f.bytes.buffer]);
  },
  async formatExceptionsFile(req: TaskExportRequest) {
    return (await ready).formatExceptionsFile(req);
  },
  async formatSelectionCsv(req: TaskExportRequest) {
    return (await ready).formatSelectionCsv(req);
  },
  async formatMultiTaskCsv(req: MultiTaskExportRequest) {
    return (await ready).formatMultiTaskCsv(req);
  },
  fleetLoad: (req: FleetLoadRequest) => fleet.fleetLoad(req),
  fleetPrefetch: (req: FleetLoadRequest) => fleet.fleetPrefetch(req),
  fleetComplete: () => fleet.fleetComplete(),
  fleetRefresh: (req: FleetLoadRequest) => fleet.fleetRefresh(req),
  fleetSearch: (query: string) => fleet.fleetSearch(query),
  fleetRows: (start: number, end: number) => fleet.fleetRows(start, end),
  fleetFind: (serial: string) => fleet.fleetFind(serial),
  fleetLive: (updates: FleetLiveUpdate[], start: number, end: number) => fleet.fleetLive(updates, start, end),
  fleetSettings: (saved: Sensor) => fleet.fleetSettings(saved),
  fleetCsv: () => fleet.fleetCsv(),
  fleetMapOverview: () => fleet.fleetMapOverview(),
  fleetMapHeld: () => fleet.fleetMapHeld(),
  async fleetMapItems(zoom: number, box: Box) {
    const items = await fleet.fleetMapItems(zoom, box);
    return Comlink.transfer(items, [items.position.buffer, items.count.buffer, items.rank.buffer, items.clusterId.buffer]);
  },
  fleetMapExpansion: (generation: number, clusterId: number) => fleet.fleetMapExpansion(generation, clusterId),
  async fleetLiveStart(req: FleetLiveStart, out: FleetLiveOut) {
    fleetFeed.start(req, out);
  },
  fleetLiveWindow: (start: number, end: number) => fleetFeed.setWindow(start, end),
  fleetLiveWatch: (sensorIds: string[]) => fleetFeed.watch(sensorIds),
  fleetLiveStop: () => fleetFeed.stop(),
} as unknown as DataWorkerApi;

Comlink.expose(api);

// Diagnostics for people with devtools (and benchmark 6): the core's linear memory and points held.
(self as unknown as { tidewatchStats: () => Promise<unknown> }).tidewatchStats = async () => {
  const dw = await ready;
  return { memoryBytes: dw.memoryBytes(), held: dw.held() };
};
