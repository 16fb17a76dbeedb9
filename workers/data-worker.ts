import type { Core } from '../wasm-core/core';
import { conversionParams } from '../wasm-core/conversion';
import { buildExceptionsFile, buildMultiTaskCsv, buildResultsFile, buildSelectionCsv, type ExportFile } from '../wasm-core/council-file';
import { buildCsv } from '../wasm-core/csv-file';
import { analyseUsage, usageLoadStart } from '../wasm-core/usage';
import { buildUsageCsv } from '../wasm-core/usage-file';
import { DEFAULT_COUNCIL_FILE_ENCODING, encodeCouncilText } from '../src/domain/council-encoding';
import { toEvict } from './cache-policy';
import { planChunks, runGrouped } from './chunk-plan';
import type { DataWorkerApi, ExportRequest, LoadProgress, LoadRequest, LoadResult, MultiTaskExportRequest, EncodedExportFile, ResultsFileRequest, SeriesTarget, TaskExportRequest, UsageExportRequest, UsageRequest, UsageResult, ViewRequest, ViewResult } from './data-api';
import type { FleetLiveApi } from './fleet-live';
import type { FleetApi } from './fleet';
import { fetchChunk } from './measurement-fetch';
import { parseRouteFiles, type RouteFile, type RouteFilesResult, type RouteImportOptions } from './route-import';
import { parseSpecialRouteFiles, type SpecialFile, type SpecialFilesResult } from './special-route-import';

/** monitoring-client.md 7: a call without a session fails with this. */
export const NOT_LOGGED_IN = 'User is not logged in';
/** sensor-setup.md 9: an empty request resolves after 500 ms. */
export const EMPTY_REQUEST_MS = 500;
/** Progress reports to the main thread are at least this far apart (ms), except the first; the last chunk has none (the answer follows). */
export const PROGRESS_MS = 250;
/** Held chunks ending this long before they were fetched are complete (transmissions are at most daily). */
const SETTLED_MS = 86_400_000;

export interface DataWorkerDeps {
  core: Core;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Entry {
  store: number;
  lastUsed: number;
  /** Ranges fetched completely, with when: [startTime, endTime, fetchedAt]. */
  loaded: [number, number, number][];
  abort: AbortController | null;
}

const keyOf = (t: SeriesTarget) => `${t.orgId}/${t.sensorId}`;
/** A progress report: a Comlink proxy answers with a promise, and a failed report must not fail the load. */
function tell(listener: (p: LoadProgress) => void, p: LoadProgress) {
  try {
    void Promise.resolve(listener({ ...p })).catch(() => undefined);
  } catch {
    /* ignore */
  }
}
const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * The data worker's implementation, free of worker plumbing so that it runs in Node tests too:
 * data.worker.ts exposes it with Comlink. One column store per sensor in the core's memory.
 */
export class DataWorker implements Omit<DataWorkerApi, keyof FleetApi | keyof FleetLiveApi> {
  private apiBase = '';
  private token = '';
  private readonly entries = new Map<string, Entry>();
  private inView: string | null = null;
  private tick = 0;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: DataWorkerDeps) {
    this.fetch = deps.fetch ?? ((input, init) => fetch(input, init));
    this.now = deps.now ?? Date.now;
    this.sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  configure(opts: { apiBase: string; token: string }): void {
    this.apiBase = opts.apiBase;
    this.token = opts.token;
  }

  setToken(token: string): void {
    this.token = token;
  }

  /** Bytes of the core's linear memory (diagnostics). */
  memoryBytes(): number {
    return this.deps.core.memoryBytes;
  }

  /** Points held per sensor (diagnostics and tests). */
  held(): Record<string, number> {
    return Object.fromEntries([...this.entries].map(([k, e]) => [k, this.deps.core.length(e.store)]));
  }

  private entry(target: SeriesTarget, create: boolean): Entry | null {
    const key = keyOf(target);
    let e = this.entries.get(key);
    if (!e && create) {
      e = { store: this.deps.core.newStore(), lastUsed: 0, loaded: [], abort: null };
      this.entries.set(key, e);
    }
    if (e) e.lastUsed = ++this.tick;
    return e ?? null;
  }

  private summary(e: Entry | null, startTime: number, endTime: number): LoadResult {
    if (!e) return { points: 0, firstTime: null, lastTime: null };
    const core = this.deps.core;
    const from = core.lowerBound(e.store, startTime);
    const to = core.upperBound(e.store, endTime);
    if (to <= from) return { points: 0, firstTime: null, lastTime: null };
    return { points: to - from, firstTime: core.read(e.store, from, 1).time[0], lastTime: core.read(e.store, to - 1, 1).time[0] };
  }

  private isSettled(e: Entry, startTime: number, endTime: number): boolean {
    return e.loaded.some(([s, t, at]) => s <= startTime && endTime <= t && endTime < at - SETTLED_MS);
  }

  /** One load. A load replaces (aborts) the sensor's load before it. */
  async load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<LoadResult> {
    if (!finite(req.startTime) || !finite(req.endTime)) throw new Error('startTime and endTime must be epoch milliseconds.');
    const chunks = req.endTime >= req.startTime ? planChunks(req.startTime, req.endTime) : [];
    if (chunks.length === 0) {
      await this.sleep(EMPTY_REQUEST_MS);
      return { points: 0, firstTime: null, lastTime: null };
    }
    if (!this.token || !this.apiBase) throw new Error(NOT_LOGGED_IN);
    const key = keyOf(req);
    this.inView = key;
    const e = this.entry(req, true)!;
    const abort = new AbortController();
    e.abort?.abort();
    e.abort = abort;
    const fetchedAt = this.now();
    const todo = req.refresh ? chunks : chunks.filter((c) => !this.isSettled(e, c.startTime, c.endTime));
    const progress = { chunksDone: chunks.length - todo.length, chunksTotal: chunks.length, points: 0 };
    // At most one report every PROGRESS_MS, always the first and the first chunk landed (the chart
    // draws what is held as it lands: the first data on screen waits for no timer), and none for the
    // last chunk (the load's answer follows at once): each one is a render on the main thread, and a
    // year is 25 chunks, five years 122.
    let reportedAt = -Infinity;
    let landed = false;
    const report = (always = false) => {
      const t = performance.now();
      if (!always && (t - reportedAt < PROGRESS_MS || progress.chunksDone === progress.chunksTotal)) return;
      reportedAt = t;
      progress.points = this.entries.has(key) ? this.deps.core.length(e.store) : 0;
      if (onProgress) tell(onProgress, progress);
    };
    // a range already held fetches nothing: no report, so the main thread renders no progress for it
    if (todo.length) report(true);
    const ctx = { apiBase: this.apiBase, token: this.token, fetch: this.fetch, signal: abort.signal };
    try {
      await runGrouped(todo, async (range) => {
        await fetchChunk(ctx, req, range, (page) => {
          if (abort.signal.aborted || this.entries.get(key) !== e) return;
          this.deps.core.merge(e.store, page.time, page.rawDistance);
        });
        progress.chunksDone++;
        report(!landed && progress.chunksDone < progress.chunksTotal);
        landed = true;
      });
    } finally {
      if (e.abort === abort) e.abort = null;
    }
    if (abort.signal.aborted) throw new DOMException('The load was replaced by a newer one.', 'AbortError');
    e.loaded.push([req.startTime, req.endTime, fetchedAt]);
    this.enforceCaps();
    return this.summary(this.entries.get(key) ?? null, req.startTime, req.endTime);
  }

  append(target: SeriesTarget, points: { time: number; rawDistance: number }[]): void {
    const ok = points.filter((p) => finite(p.time) && finite(p.rawDistance));
    if (ok.length === 0) return;
    const e = this.entry(target, true)!;
    this.deps.core.merge(
      e.store,
      ok.map((p) => p.time),
      ok.map((p) => p.rawDistance),
    );
    this.enforceCaps();
  }

  async view(req: ViewRequest): Promise<ViewResult> {
    const params = conversionParams(req.mode, req.offsetMm, req.conversion, req.unit);
    this.inView = keyOf(req);
    const e = this.entry(req, false);
    if (!e) return { time: new Float64Array(), value: new Float64Array(), min: NaN, max: NaN, rawPoints: 0 };
    const width = Math.max(1, Math.round(req.widthPx * (req.pxRatio ?? 1)));
    return this.deps.core.view(e.store, req.startTime, req.endTime, width, params);
  }

  async exportCsv(req: ExportRequest): Promise<{ filename: string; csv: string }> {
    const params = conversionParams(req.mode, req.offsetMm, req.conversion, req.unit);
    const e = this.entry(req, false);
    const store = e?.store ?? this.deps.core.newStore();
    try {
      const { filename, csv } = buildCsv(this.deps.core, store, {
        startTime: req.startTime,
        endTime: req.endTime,
        format: req.format,
        timeZone: req.timeZone,
        sensorName: req.sensorName,
        serial: req.serial,
        params,
        nowMs: this.now(),
      });
      return { filename, csv };
    } finally {
      if (!e) this.deps.core.freeStore(store);
    }
  }

  /**
   * Usage over [startTime, endTime] (issue 38). The analysis needs the 13 weeks before the range
   * and the month so far: chunks of that not yet held are fetched here, beside the chart's load
   * (which this neither replaces nor aborts), then the core analyses the store in place.
   */
  async usage(req: UsageRequest): Promise<UsageResult> {
    if (!finite(req.startTime) || !finite(req.endTime) || req.endTime < req.startTime) throw new Error('startTime and endTime must be epoch milliseconds, in order.');
    if (!req.conversionConfigs.length) return { kind: 'none' };
    if (!this.token || !this.apiBase) throw new Error(NOT_LOGGED_IN);
    const from = usageLoadStart(req.timeZone, req.startTime, req.endTime);
    const key = keyOf(req);
    const e = this.entry(req, true)!;
    const fetchedAt = this.now();
    const todo = planChunks(from, req.endTime).filter((c) => !this.isSettled(e, c.startTime, c.endTime));
    const ctx = { apiBase: this.apiBase, token: this.token, fetch: this.fetch, signal: new AbortController().signal };
    await runGrouped(todo, async (range) => {
      await fetchChunk(ctx, req, range, (page) => {
        if (this.entries.get(key) === e) this.deps.core.merge(e.store, page.time, page.rawDistance);
      });
      e.loaded.push([range.startTime, range.endTime, fetchedAt]);
    });
    if (this.entries.get(key) !== e) throw new DOMException('The sensor was cleared during the usage load.', 'AbortError');
    const core = this.deps.core;
    const lo = core.lowerBound(e.store, from);
    const hi = core.upperBound(e.store, req.endTime);
    const sensor = { offsetMeasurement: req.offsetMm, conversionConfigs: req.conversionConfigs, alarms: req.alarms, maxLevel: req.maxLevel ?? null };
    const out = analyseUsage(core, sensor, { store: e.store, from: lo, count: hi - lo }, { timeZone: req.timeZone, startTime: req.startTime, endTime: req.endTime, levelMm: req.levelMm }) ?? { kind: 'none' as const };
    this.enforceCaps();
    return out;
  }

  async exportUsageCsv(req: UsageExportRequest): Promise<{ filename: string; csv: string }> {
    const usage = await this.usage(req);
    if (usage.kind === 'none') throw new Error('Usage needs a volume or flow conversion on the sensor.');
    return buildUsageCsv(this.deps.core, usage, { sensorName: req.sensorName, serial: req.serial, timeZone: req.timeZone, format: req.format, nowMs: this.now() });
  }

  async parseRouteFiles(files: RouteFile[], opts: RouteImportOptions): Promise<RouteFilesResult> {
    return parseRouteFiles(files, { ...opts, now: opts.now ?? this.now() });
  }

  async parseSpecialRouteFiles(files: SpecialFile[], opts: { group: string; organisationId?: string }): Promise<SpecialFilesResult> {
    return parseSpecialRouteFiles(files, opts);
  }

  async formatResultsFile(req: ResultsFileRequest): Promise<EncodedExportFile> {
    const file = buildResultsFile(this.deps.core, req.task, req.readings, req.timeZone);
    const { bytes, replaced } = encodeCouncilText(file.content, req.encoding ?? DEFAULT_COUNCIL_FILE_ENCODING);
    return { ...file, bytes, replaced };
  }

  async formatExceptionsFile(req: TaskExportRequest): Promise<ExportFile> {
    return buildExceptionsFile(this.deps.core, req.task, req.readings, req.timeZone);
  }

  async formatSelectionCsv(req: TaskExportRequest): Promise<ExportFile> {
    return buildSelectionCsv(this.deps.core, req.task, req.readings, req.timeZone);
  }

  async formatMultiTaskCsv(req: MultiTaskExportRequest): Promise<ExportFile> {
    return buildMultiTaskCsv(this.deps.core, req.tasks, req.exceptionsOnly, req.timeZone, this.now());
  }

  clear(target?: SeriesTarget): void {
    const keys = target ? [keyOf(target)] : [...this.entries.keys()];
    for (const k of keys) this.drop(k);
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.abort?.abort();
    this.entries.delete(key);
    this.deps.core.freeStore(e.store);
  }

  private enforceCaps(): void {
    const list = [...this.entries].map(([key, e]) => ({ key, points: this.deps.core.length(e.store), lastUsed: e.lastUsed }));
    for (const key of toEvict(list, this.inView)) this.drop(key);
  }
}
