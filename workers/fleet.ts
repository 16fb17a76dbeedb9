import type { LatestData, Sensor } from '../src/contract/sensor.schema';
import { sensorSummaryBodySchema } from '../src/contract/sensor-summary.schema';
import { sensorsCsv } from '../src/domain/sensor-csv';
import { createFleetSearch, type FleetSearch } from '../src/domain/fleet-search';
import { fieldPositions, readSummaryRow, summaryOf, withLatest, type SensorSummary } from '../src/domain/sensor-summary';
import { displayStatus } from '../src/domain/sensor-status';
import { isMappable } from '../src/domain/map-view';
import { FleetMapIndex, type Box, type FleetMapItems, type FleetMapOverview, type MapPoint } from './fleet-map';
import { SummaryStream } from './summary-stream';
import { FAILED_TO_FETCH, READ_TIMEOUT_MS } from '../src/shared/api';

/** A row of the list as the main thread gets it: the summary and its position in the shown list. */
export interface FleetRow {
  index: number;
  sensor: SensorSummary;
}

export interface FleetLoaded {
  /** The organisation's sensors (all held once the whole list is in). */
  total: number;
  /** False while only the list's first page is held (fleetComplete answers when the whole list is). */
  complete: boolean;
  /** Sensors the current search shows. */
  count: number;
  version: number;
  /** Serials (or positions, without one) of rows with bad values, and which. */
  invalid: { serial: string; fields: string[] }[];
}

export interface FleetRows {
  version: number;
  count: number;
  rows: FleetRow[];
  /** The search the rows answer (the worker holds one; a later search may change it before the rows arrive). */
  query: string;
}

/** What a batch of live uplinks changed: the held rows, every sensor touched, and whether a mapped sensor's status changed. */
export interface FleetLiveRows extends FleetRows {
  serials: string[];
  statusChanged: boolean;
}

export interface FleetLiveUpdate {
  sensorId: string;
  latestData: Partial<LatestData>;
}

/** Versions of the shown list, across fleets: a row the main thread holds is current while the version is. */
let versions = 0;

const byName = new Intl.Collator(undefined, { sensitivity: 'base' });
const order = (a: SensorSummary, b: SensorSummary) => byName.compare(a.name, b.name) || (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0);

/** A compact list's rows, checked: the readable ones, and the serials (or positions) of those with bad values. */
function readRows(fields: readonly unknown[], rows: unknown[], into: { read: SensorSummary[]; invalid: FleetLoaded['invalid'] } = { read: [], invalid: [] }, first = 0) {
  const at = fieldPositions(fields);
  const { read, invalid } = into;
  for (let i = 0; i < rows.length; i++) {
    const s = readSummaryRow(rows[i], at);
    if (!s) {
      invalid.push({ serial: `row ${first + i + 1}`, fields: ['row'] });
      continue;
    }
    if (s.invalid) invalid.push({ serial: s.serial || `row ${first + i + 1}`, fields: s.invalid });
    read.push(s);
  }
  return into;
}

/** An answer's body parsed, or its text (or status) as the error when it is not a success. */
async function parsed(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(text || `HTTP ${res.status}`);
  return JSON.parse(text);
}

/** Every sensor with a position, with its display status: what the map draws. */
function mapPoints(all: readonly SensorSummary[]): MapPoint[] {
  const out: MapPoint[] = [];
  for (const s of all) if (isMappable(s.latitude, s.longitude)) out.push({ serial: s.serial, latitude: s.latitude!, longitude: s.longitude!, status: displayStatus(s) });
  return out;
}

/** A whole list read row batch by row batch as it arrived (its rows checked already). */
interface StreamedList {
  read: SensorSummary[];
  invalid: FleetLoaded['invalid'];
  /** Rows received, readable or not. */
  received: number;
  cursor?: number;
}

/**
 * The organisation's whole fleet in the data worker (DESIGN.md "At a customer's size"): the
 * compact list parsed and checked here, sorted by name, searched with the spec's fuzzy rules, kept
 * current by live uplinks. The main thread asks for the rows it draws and nothing more.
 */
export class Fleet {
  private all: SensorSummary[] = [];
  private readonly byId = new Map<string, number>();
  private readonly bySerial = new Map<string, number>();
  private search: FleetSearch = Object.assign(() => null, { warm: () => {} });
  /** Positions in `all` of the rows shown (null: all, in order). */
  private shown: number[] | null = null;
  /** Position in the shown list of each sensor (by its position in `all`), -1 when not shown. */
  private shownAt: Int32Array = new Int32Array(0);
  private query = '';
  private version = 0;
  /** With only the list's first page held: the organisation's sensor count. */
  private declared: number | undefined;
  /** The map's clustering, built when the map first asks. */
  private map: FleetMapIndex | undefined;
  /** The clustering of the list before (a refresh, a setup save): kept when no sensor has moved. */
  private mapBefore: FleetMapIndex | undefined;
  /** The server's cursor for the list held: a refresh asks for what changed since (undefined: ask for the whole list). */
  cursor: number | undefined;

  /** Reads the body of GET .../sensors?view=summary (parsed JSON), the whole list or its first page (`limit`, with `total`). */
  load(body: unknown): FleetLoaded {
    const { fields, rows, total, cursor } = sensorSummaryBodySchema.parse(body);
    const { read: all, invalid } = readRows(fields, rows);
    this.declared = total !== undefined && total > rows.length ? total : undefined;
    this.cursor = this.declared === undefined ? cursor : undefined;
    this.replaceAll(all);
    return this.loaded(invalid);
  }

  /** Holds a whole list read as it streamed in (its rows checked batch by batch). */
  loadStreamed(list: StreamedList): FleetLoaded {
    this.declared = undefined;
    this.cursor = list.cursor;
    this.replaceAll(list.read);
    return this.loaded(list.invalid);
  }

  private loaded(invalid: FleetLoaded['invalid']): FleetLoaded {
    return { total: this.declared ?? this.all.length, complete: this.complete, count: this.count(), version: this.version, invalid };
  }

  /**
   * Reads a refresh's answer (GET .../sensors?view=summary&since=): a change set (with `removed`)
   * is applied to the list held; a whole list (a cursor the server could not answer from) replaces
   * it. Rows whose name, serial and position are unchanged are replaced in place (the search and the
   * map's clustering stand, a status change recolours its cluster); a sensor arriving, leaving,
   * renamed or moved re-sorts the list and rebuilds what depends on it.
   */
  applyChanges(body: unknown): FleetLoaded {
    const parsed = sensorSummaryBodySchema.parse(body);
    if (parsed.removed === undefined || !this.complete) return this.load(body);
    const { read, invalid } = readRows(parsed.fields, parsed.rows);
    const changed = new Map(read.map((s) => [s.id, s]));
    const leaving = parsed.removed.filter((id) => !changed.has(id) && this.byId.has(id));
    let reorder = leaving.length > 0;
    for (const s of read) {
      const p = this.byId.get(s.id);
      const old = p === undefined ? undefined : this.all[p]!;
      if (!old || old.name !== s.name || old.serial !== s.serial || old.latitude !== s.latitude || old.longitude !== s.longitude) reorder = true;
    }
    if (reorder) {
      const gone = new Set(leaving);
      const all = this.all.filter((s) => !gone.has(s.id) && !changed.has(s.id));
      all.push(...read);
      this.replaceAll(all);
    } else {
      for (const s of read) {
        const p = this.byId.get(s.id)!;
        const before = this.all[p]!;
        this.all[p] = s;
        const status = displayStatus(s);
        if (status !== displayStatus(before) && isMappable(s.latitude, s.longitude)) this.map?.setStatus(s.serial, status);
      }
      // the rows held by the main thread are stale: a new version makes it ask again
      if (read.length > 0) this.version = ++versions;
    }
    this.cursor = parsed.cursor;
    return this.loaded(invalid);
  }

  /** Whether the whole list is held (not only its first page). */
  get complete(): boolean {
    return this.declared === undefined;
  }

  private replaceAll(all: SensorSummary[]) {
    // the server sends them sorted already (lower(name)); this keeps the client's collation, in about n steps for sorted input
    all.sort(order);
    this.all = all;
    this.byId.clear();
    this.bySerial.clear();
    for (let i = 0; i < all.length; i++) {
      const s = all[i]!;
      if (s.id) this.byId.set(s.id, i);
      if (s.serial) this.bySerial.set(s.serial, i);
    }
    this.search = createFleetSearch(all);
    this.applyQuery(this.query);
    this.mapBefore = this.map ?? this.mapBefore;
    this.map = undefined;
  }

  private applyQuery(query: string) {
    this.query = query;
    this.shown = this.search(query);
    this.shownAt = new Int32Array(this.all.length);
    if (this.shown === null) for (let i = 0; i < this.all.length; i++) this.shownAt[i] = i;
    else {
      this.shownAt.fill(-1);
      this.shown.forEach((p, i) => (this.shownAt[p] = i));
    }
    this.version = ++versions;
  }

  private count() {
    return this.shown === null ? (this.declared ?? this.all.length) : this.shown.length;
  }

  /** Searches (fuzzy over name and serial, threshold 0.2; a trimmed empty query shows all); answers how many are shown. */
  setQuery(query: string): { count: number; version: number } {
    if (query.trim() !== this.query.trim()) this.applyQuery(query);
    else this.query = query;
    return { count: this.count(), version: this.version };
  }

  /** The shown rows from start (inclusive) to end (exclusive). */
  rows(start: number, end: number): FleetRows {
    const n = this.count();
    const rows: FleetRow[] = [];
    // with only the first page held, the rows past it are not answered (the list shows them loading)
    const known = this.shown === null ? Math.min(n, this.all.length) : n;
    for (let i = Math.max(0, start); i < Math.min(known, end); i++) rows.push({ index: i, sensor: this.all[this.shown === null ? i : this.shown[i]!]! });
    return { version: this.version, count: n, rows, query: this.query };
  }

  /** A sensor by serial, with its position in the shown list (-1 when the search hides it). */
  find(serial: string): FleetRow | undefined {
    const p = this.bySerial.get(serial);
    return p === undefined ? undefined : { index: this.shownAt[p]!, sensor: this.all[p]! };
  }

  /**
   * Live uplinks: each sensor's summary gets its new latest data (a new object). Answers the
   * changed rows the main thread holds (shown positions within [start, end)), so it redraws those
   * rows and no other.
   */
  applyLive(updates: readonly FleetLiveUpdate[], start: number, end: number): FleetLiveRows {
    const changed = new Map<number, FleetRow>();
    const serials = new Set<string>();
    let statusChanged = false;
    for (const u of updates) {
      const p = this.byId.get(u.sensorId);
      if (p === undefined) continue;
      const before = this.all[p]!;
      const next = withLatest(before, u.latestData);
      this.all[p] = next;
      serials.add(next.serial);
      const status = displayStatus(next);
      if (status !== displayStatus(before) && isMappable(next.latitude, next.longitude)) {
        statusChanged = true;
        this.map?.setStatus(next.serial, status);
      }
      const i = this.shownAt[p]!;
      if (i >= start && i < end) changed.set(i, { index: i, sensor: next });
    }
    return { version: this.version, count: this.count(), rows: [...changed.values()], query: this.query, serials: [...serials], statusChanged };
  }

  /** A sensor saved in setup: its summary from the full record (a rename may move it, so the list is re-sorted). */
  applySettings(saved: Sensor): { count: number; version: number } {
    const p = this.byId.get(saved.id);
    if (p === undefined) return { count: this.count(), version: this.version };
    const old = this.all[p]!;
    const next = { ...summaryOf(saved), latestData: old.latestData ?? summaryOf(saved).latestData };
    const all = this.all.slice();
    all[p] = next;
    this.replaceAll(all);
    return { count: this.count(), version: this.version };
  }

  /** The organisation sensors CSV (monitoring-client 7) of the whole fleet. */
  csv(): string {
    return sensorsCsv(this.all);
  }

  /** The map's clustering of the sensors with a position (built on the first ask, kept current by live uplinks). */
  mapIndex(): FleetMapIndex {
    if (!this.map) {
      const points = mapPoints(this.all);
      this.map = this.mapBefore ? this.mapBefore.rebuilt(points) : FleetMapIndex.build(points);
      this.mapBefore = undefined;
    }
    return this.map;
  }

  /** The map's overview of the sensors held (with `loading` while only the list's first page is). */
  mapOverview(): FleetMapOverview {
    const o = this.mapIndex().overview;
    return this.complete ? o : { ...o, loading: { held: this.all.length, total: this.declared ?? this.all.length } };
  }

  /** Takes over the clustering of the fleet this one replaces (a refresh), to keep it if no sensor has moved. */
  succeed(before: Fleet): void {
    this.mapBefore = before.map ?? before.mapBefore;
  }

  /** Builds the search index ahead of the first query (it is otherwise built by the first search). */
  warmSearch(): void {
    this.search.warm();
  }

  get size(): number {
    return this.all.length;
  }
}

/** What the data worker exposes of the fleet (Comlink): the calls the sensors list, map and CSV make. */
export interface FleetApi {
  /**
   * Fetches and holds the organisation's compact list (replacing any other organisation's). With
   * firstPage (the default), answers as soon as the list's first page is in (complete: false)
   * while the whole list loads; fleetComplete answers when it is.
   */
  fleetLoad(req: FleetLoadRequest): Promise<FleetLoaded>;
  /**
   * Begins the organisation's load before the page that shows it has asked (a signed-in visit to the
   * sensors list or the map, as soon as the organisations name the address's id): the page's own
   * fleetLoad of that organisation within EARLY_LOAD_TTL_MS takes it instead of asking again. Does
   * nothing when a load of that organisation has begun already (the page's own may be first).
   */
  fleetPrefetch(req: FleetLoadRequest): Promise<void>;
  /** The whole list's load, once it is in (at once when it is already). */
  fleetComplete(): Promise<FleetLoaded>;
  /**
   * The minute's refresh: asks for what changed since the list held was read (rows changed or
   * arrived, ids that left) and applies it; without a whole list held for this organisation, loads
   * the whole list instead.
   */
  fleetRefresh(req: FleetLoadRequest): Promise<FleetLoaded>;
  fleetSearch(query: string): Promise<{ count: number; version: number }>;
  fleetRows(start: number, end: number): Promise<FleetRows>;
  fleetFind(serial: string): Promise<FleetRow | undefined>;
  fleetLive(updates: FleetLiveUpdate[], start: number, end: number): Promise<FleetLiveRows>;
  fleetSettings(saved: Sensor): Promise<{ count: number; version: number }>;
  fleetCsv(): Promise<string>;
  /** How many sensors the map draws and the view that fits them (waits for the whole list). */
  fleetMapOverview(): Promise<FleetMapOverview>;
  /**
   * The same of the sensors held now, at once: while only the list's first page is in, its
   * sensors (with `loading`: how many are held of how many), so the map draws them while the whole
   * list loads; once it is in, the whole list's overview.
   */
  fleetMapHeld(): Promise<FleetMapOverview>;
  /** The map's sensors and clusters at an integer zoom within a box, of the sensors held: all the main thread draws. */
  fleetMapItems(zoom: number, box: Box): Promise<FleetMapItems>;
  /** The zoom at which a cluster of the items splits (null: the clustering has changed since). */
  fleetMapExpansion(generation: number, clusterId: number): Promise<number | null>;
}

export interface FleetLoadRequest {
  apiBase: string;
  token: string;
  orgId: string;
  /** Ask for the first page, then the whole list (false: the whole list alone, as a background refresh does). */
  firstPage?: boolean;
}

/** The map's clustering of a streaming list is built again when the rows read reach this many times those it holds. */
export const PART_GROWTH = 2;

/** How long a load begun by fleetPrefetch waits to be taken by the page's fleetLoad (as src/shared/early-reads.ts holds its reads). */
export const EARLY_LOAD_TTL_MS = 15_000;

/** Rows of the first page: a tall screen of the list and its overscan. */
export const FIRST_PAGE = 100;

const listUrl = (req: FleetLoadRequest) => `${req.apiBase}/organisations/${encodeURIComponent(req.orgId)}/sensors?view=summary`;

const aborted = () => new DOMException('The load was replaced by a newer one.', 'AbortError');

/**
 * The list's reads wait at most READ_TIMEOUT_MS (as the gateway's reads do, src/shared/api.ts) for
 * an answer and then for each next part of its body, and then fail as a lost network does, so the
 * page shows its network message and retry instead of loading for ever on a connection that went
 * quiet. It limits a stall, not the whole read: 100,000 sensors over a slow phone's connection
 * may take longer than that, and go on while bytes keep coming.
 */
function stallLimit(outer?: AbortSignal) {
  const ctrl = new AbortController();
  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onOuter = () => ctrl.abort(outer!.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ((stalled = true), ctrl.abort()), READ_TIMEOUT_MS);
  };
  arm();
  return {
    signal: ctrl.signal,
    /** More of the body came: the limit starts again. */
    arm,
    done: () => (clearTimeout(timer), outer?.removeEventListener('abort', onOuter)),
    failure: (err: unknown) => (stalled ? new TypeError(FAILED_TO_FETCH) : err),
  };
}

/**
 * The fleet's part of the data worker: fetching the compact list with the caller's token, one
 * organisation at a time. The list's first page is asked for first and the whole list once it is
 * in: the page is answered from an index in milliseconds and drawn while the whole list is built,
 * sent and parsed; live uplinks that arrive meanwhile are applied to the whole list when it is in.
 */
export class FleetWorker implements FleetApi {
  private fleet = new Fleet();
  private loads = 0;
  private currentQuery = '';
  private whole: Promise<FleetLoaded> = Promise.resolve({ total: 0, complete: true, count: 0, version: 0, invalid: [] });
  /** Live updates since the whole list (or a refresh) was asked for, applied to it when it is in (null: none pending). */
  private since: FleetLiveUpdate[] | null = null;
  /** The organisation whose list is loading (or held, when its last load succeeded). */
  private org: string | undefined;
  /** The organisation whose list is held: after a failed load of another, the list held is still this one's. */
  private heldOrg: string | undefined;
  /** A load begun by fleetPrefetch, until the page's fleetLoad takes it (its number among the loads, so a later load voids it). */
  private early: { orgId: string; mine: number; at: number; answer: Promise<FleetLoaded> } | undefined;
  /** The whole list while it streams in, and the map's clustering of the part read (built when the map asks). */
  private streaming: { list: StreamedList; map?: { held: number; index: FleetMapIndex } } | undefined;

  constructor(private readonly deps: { fetch?: typeof fetch } = {}) {}

  private shownOf(loaded: FleetLoaded): FleetLoaded {
    return { ...loaded, ...this.fleet.setQuery(this.currentQuery) };
  }

  /**
   * The whole list, read batch by batch as the server streams it: each batch's rows are parsed and
   * checked as they arrive (into `into`, which the map reads while the rest loads), so little is
   * left to do after the last byte.
   */
  private async getStreamed(url: string, token: string, into: StreamedList, signal?: AbortSignal): Promise<StreamedList | unknown> {
    const stall = stallLimit(signal);
    try {
      const res = await this.request(url, token, stall.signal);
      if (!res.ok || !res.body) return await parsed(res);
      const stream = new SummaryStream();
      const text = new TextDecoder();
      const reader = res.body.getReader();
      const take = (rows: unknown[]) => {
        if (rows.length === 0) return;
        readRows(stream.fieldsRead!, rows, into, into.received);
        into.received += rows.length;
      };
      for (;;) {
        stall.arm();
        const { done, value } = await reader.read();
        if (done) break;
        take(stream.push(text.decode(value, { stream: true })));
      }
      take(stream.push(text.decode()));
      const rest = stream.finish();
      // another shape than the stream's (kept whole): read as one body
      if (rest.rows.length > 0 || stream.fieldsRead === undefined) return rest;
      const { cursor } = sensorSummaryBodySchema.parse(rest);
      into.cursor = cursor;
      return into;
    } catch (err) {
      throw stall.failure(err);
    } finally {
      stall.done();
    }
  }

  private request(url: string, token: string, signal?: AbortSignal): Promise<Response> {
    const f = this.deps.fetch ?? ((input, init) => fetch(input, init));
    return f(url, { headers: { Authorization: token }, signal });
  }

  /** A small read (the first page, the changes since a cursor): its answer and body within READ_TIMEOUT_MS. */
  private async get(url: string, token: string): Promise<unknown> {
    const stall = stallLimit();
    try {
      return await parsed(await this.request(url, token, stall.signal));
    } catch (err) {
      throw stall.failure(err);
    } finally {
      stall.done();
    }
  }

  /** Holds a parsed list (or one read as it streamed) as the current fleet (a search typed before stays applied). */
  private hold(mine: number, body: unknown): FleetLoaded {
    if (mine !== this.loads) throw aborted();
    const fleet = new Fleet();
    const streamed = this.streaming?.list;
    const loaded = streamed !== undefined && body === streamed ? fleet.loadStreamed(streamed) : fleet.load(body);
    // the whole list in: its part read while it streamed is no longer drawn
    if (fleet.complete) this.streaming = undefined;
    fleet.succeed(this.fleet);
    if (fleet.complete && this.since) fleet.applyLive(this.since, 0, 0);
    if (fleet.complete) this.since = null;
    this.fleet = fleet;
    // the load answered is the latest (mine === this.loads): its organisation is this.org
    this.heldOrg = this.org;
    const shown = this.shownOf(loaded);
    // the index is built after the first rows are answered, before a person can type
    if (fleet.complete) setTimeout(() => fleet.warmSearch(), 0);
    return shown;
  }

  async fleetPrefetch(req: FleetLoadRequest): Promise<void> {
    // a load of this organisation begun already (the page's, or a prefetch before) is left to run
    if (this.org === req.orgId && this.loads > 0) return;
    const answer = this.fleetLoad({ ...req, firstPage: true });
    // nobody may take it: its failure is the page's to show when it takes it
    answer.catch(() => undefined);
    this.early = { orgId: req.orgId, mine: this.loads, at: Date.now(), answer };
  }

  async fleetLoad(req: FleetLoadRequest): Promise<FleetLoaded> {
    const early = this.early;
    this.early = undefined;
    // the page's first load of the organisation a prefetch began (and no load since): that load's answer
    if (early && early.orgId === req.orgId && early.mine === this.loads && req.firstPage !== false && Date.now() - early.at <= EARLY_LOAD_TTL_MS) return early.answer;
    const mine = ++this.loads;
    this.org = req.orgId;
    const url = listUrl(req);
    this.since = [];
    const list: StreamedList = { read: [], invalid: [], received: 0 };
    this.streaming = { list };
    // The first page is asked for first and the whole list once it is in: asked together, the
    // server built and sent the whole list's first batches (5,000 rows each) while the page's 100
    // rows waited behind them, and on a slow line the two shared its bandwidth. A page that holds
    // every sensor is the whole list, which is then not asked for. A page the server refused asks
    // for the whole list; a page lost to the network (no answer within READ_TIMEOUT_MS) is the
    // load's failure, not a second wait as long.
    type First = { kind: 'none' } | { kind: 'failed'; err: unknown } | { kind: 'page'; body: unknown; complete: boolean };
    const first: Promise<First> =
      req.firstPage === false
        ? Promise.resolve({ kind: 'none' })
        : this.get(`${url}&limit=${FIRST_PAGE}`, req.token)
            .then((body): First => {
              const f = new Fleet();
              f.load(body);
              return { kind: 'page', body, complete: f.complete };
            })
            .catch((err: unknown): First => ({ kind: 'failed', err }));
    const whole = first.then((p) => {
      if (mine !== this.loads) throw aborted();
      if (p.kind === 'failed' && p.err instanceof TypeError && p.err.message === FAILED_TO_FETCH) throw p.err;
      return p.kind === 'page' && p.complete ? p.body : this.getStreamed(url, req.token, list);
    });
    this.whole = whole.then((body) => this.hold(mine, body));
    // a failure is answered by fleetComplete (and fleetLoad, when it waits for the whole list)
    this.whole.catch(() => {
      if (mine === this.loads) this.since = null;
    });
    if (req.firstPage === false) return this.whole;
    const p = await first;
    if (mine !== this.loads) throw aborted();
    // no page (its request failed), or the page is the whole list: answer the whole list's load
    if (p.kind !== 'page' || p.complete) return this.whole;
    return this.hold(mine, p.body);
  }

  async fleetComplete(): Promise<FleetLoaded> {
    return this.whole;
  }

  async fleetRefresh(req: FleetLoadRequest): Promise<FleetLoaded> {
    const fleet = this.fleet;
    const cursor = fleet.cursor;
    // another organisation's list (held before a failed load of this one) is not refreshed with this one's changes
    if (req.orgId !== this.org || req.orgId !== this.heldOrg || !fleet.complete || cursor === undefined) return this.fleetLoad({ ...req, firstPage: false });
    const mine = ++this.loads;
    this.since = [];
    try {
      const body = await this.get(`${listUrl(req)}&since=${cursor}`, req.token);
      // a load begun meanwhile (another organisation, a reload) replaces this fleet: its answer is not for it
      if (mine !== this.loads || fleet !== this.fleet) throw aborted();
      const loaded = fleet.applyChanges(body);
      // uplinks that came while the changes were read are at least as new as them
      if (this.since.length > 0) fleet.applyLive(this.since, 0, 0);
      // a re-sorted list has a new search index: built before a person types (a no-op when it stands)
      setTimeout(() => fleet.warmSearch(), 0);
      return this.shownOf(loaded);
    } finally {
      if (mine === this.loads) this.since = null;
    }
  }

  /** Waits for the whole list when only its first page is held (a failed load leaves what is held). */
  private async wholeList(): Promise<Fleet> {
    if (!this.fleet.complete) await this.whole.catch(() => undefined);
    return this.fleet;
  }

  async fleetSearch(query: string) {
    this.currentQuery = query;
    // a search reads the whole fleet; showing everything does not wait for it
    if (query.trim() !== '') await this.wholeList();
    // the latest query, which a later call may have changed meanwhile
    return this.fleet.setQuery(this.currentQuery);
  }
  async fleetRows(start: number, end: number) {
    return this.fleet.rows(start, end);
  }
  async fleetFind(serial: string) {
    return this.fleet.find(serial) ?? (this.fleet.complete ? undefined : (await this.wholeList()).find(serial));
  }
  async fleetLive(updates: FleetLiveUpdate[], start: number, end: number) {
    this.since?.push(...updates);
    return this.fleet.applyLive(updates, start, end);
  }
  async fleetSettings(saved: Sensor) {
    return this.fleet.applySettings(saved);
  }
  async fleetCsv() {
    return (await this.wholeList()).csv();
  }
  async fleetMapOverview() {
    return (await this.wholeList()).mapIndex().overview;
  }
  async fleetMapHeld() {
    const part = this.streamedMap();
    if (!part) return this.fleet.mapOverview();
    const read = this.streaming!.list.read.length;
    return { ...part.index.overview, loading: { held: read, total: this.fleet.mapOverview().loading?.total ?? read } };
  }
  /**
   * While the whole list streams in: the clustering of the rows read so far, when they are more than
   * the first page. It is built again once the rows read are PART_GROWTH times those it holds, so
   * the builds while 100,000 sensors stream in cost less than two of the whole list's, where a
   * build at each of the map's asks (one a second) cost a growing build a second in the thread
   * that parses the stream.
   */
  private streamedMap(): { held: number; index: FleetMapIndex } | undefined {
    const s = this.streaming;
    if (this.fleet.complete || !s || s.list.read.length <= this.fleet.size) return undefined;
    const read = s.list.read.length;
    if (!s.map || read >= s.map.held * PART_GROWTH) s.map = { held: read, index: FleetMapIndex.build(mapPoints(s.list.read)) };
    return s.map;
  }
  /** The clustering the map draws now: of the part of the list read (as last asked for), else of the list held. */
  private mapNow(): FleetMapIndex {
    const part = this.fleet.complete ? undefined : this.streaming?.map;
    return part?.index ?? this.fleet.mapIndex();
  }
  // the sensors held: a view asked for while the whole list loads gets the part read (the whole
  // list's load changes the overview, and the map asks again)
  async fleetMapItems(zoom: number, box: Box) {
    return this.mapNow().items(zoom, box);
  }
  async fleetMapExpansion(generation: number, clusterId: number) {
    return this.mapNow().expansionZoom(generation, clusterId);
  }
}
