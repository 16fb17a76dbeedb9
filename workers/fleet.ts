import type { LatestData, Sensor } from '../src/contract/sensor.schema';
import { sensorSummaryBodySchema } from '../src/contract/sensor-summary.schema';
import { sensorsCsv } from '../src/domain/sensor-csv';
import { createFleetSearch, type FleetSearch } from '../src/domain/fleet-search';
import { fieldPositions, readSummaryRow, summaryOf, withLatest, type SensorSummary } from '../src/domain/sensor-summary';
import { displayStatus, type SensorStatus } from '../src/domain/sensor-status';
import { isMappable } from '../src/domain/map-view';

/** A row of the list as the main thread gets it: the summary and its position in the shown list. */
export interface FleetRow {
  index: number;
  sensor: SensorSummary;
}

export interface FleetLoaded {
  /** Sensors held (all of the organisation's). */
  total: number;
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

/** The sensors for the map: one entry per sensor with a position. */
export interface FleetPoint {
  serial: string;
  latitude: number;
  longitude: number;
  status: SensorStatus;
}

/** Versions of the shown list, across fleets: a row the main thread holds is current while the version is. */
let versions = 0;

const byName = new Intl.Collator(undefined, { sensitivity: 'base' });
const order = (a: SensorSummary, b: SensorSummary) => byName.compare(a.name, b.name) || (a.serial < b.serial ? -1 : a.serial > b.serial ? 1 : 0);

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

  /** Reads the body of GET .../sensors?view=summary (parsed JSON). */
  load(body: unknown): FleetLoaded {
    const { fields, rows } = sensorSummaryBodySchema.parse(body);
    const at = fieldPositions(fields);
    const all: SensorSummary[] = [];
    const invalid: FleetLoaded['invalid'] = [];
    for (let i = 0; i < rows.length; i++) {
      const s = readSummaryRow(rows[i], at);
      if (!s) {
        invalid.push({ serial: `row ${i + 1}`, fields: ['row'] });
        continue;
      }
      if (s.invalid) invalid.push({ serial: s.serial || `row ${i + 1}`, fields: s.invalid });
      all.push(s);
    }
    this.replaceAll(all);
    return { total: this.all.length, count: this.count(), version: this.version, invalid };
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
    return this.shown === null ? this.all.length : this.shown.length;
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
    for (let i = Math.max(0, start); i < Math.min(n, end); i++) rows.push({ index: i, sensor: this.all[this.shown === null ? i : this.shown[i]!]! });
    return { version: this.version, count: n, rows };
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
      if (!statusChanged && isMappable(next.latitude, next.longitude) && displayStatus(next) !== displayStatus(before)) statusChanged = true;
      const i = this.shownAt[p]!;
      if (i >= start && i < end) changed.set(i, { index: i, sensor: next });
    }
    return { version: this.version, count: this.count(), rows: [...changed.values()], serials: [...serials], statusChanged };
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

  /** Every sensor with a position, with its display status, for the map. */
  points(): FleetPoint[] {
    const out: FleetPoint[] = [];
    for (const s of this.all) if (isMappable(s.latitude, s.longitude)) out.push({ serial: s.serial, latitude: s.latitude!, longitude: s.longitude!, status: displayStatus(s) });
    return out;
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
  /** Fetches and holds the organisation's compact list (replacing any other organisation's). */
  fleetLoad(req: { apiBase: string; token: string; orgId: string }): Promise<FleetLoaded>;
  fleetSearch(query: string): Promise<{ count: number; version: number }>;
  fleetRows(start: number, end: number): Promise<FleetRows>;
  fleetFind(serial: string): Promise<FleetRow | undefined>;
  fleetLive(updates: FleetLiveUpdate[], start: number, end: number): Promise<FleetLiveRows>;
  fleetSettings(saved: Sensor): Promise<{ count: number; version: number }>;
  fleetCsv(): Promise<string>;
  fleetPoints(): Promise<FleetPoint[]>;
}

/** The fleet's part of the data worker: fetching the compact list with the caller's token, one organisation at a time. */
export class FleetWorker implements FleetApi {
  private fleet = new Fleet();
  private loads = 0;

  constructor(private readonly deps: { fetch?: typeof fetch } = {}) {}

  async fleetLoad(req: { apiBase: string; token: string; orgId: string }): Promise<FleetLoaded> {
    const mine = ++this.loads;
    const f = this.deps.fetch ?? ((input, init) => fetch(input, init));
    const res = await f(`${req.apiBase}/organisations/${encodeURIComponent(req.orgId)}/sensors?view=summary`, { headers: { Authorization: req.token } });
    const text = await res.text();
    if (!res.ok) throw new Error(text || `HTTP ${res.status}`);
    if (mine !== this.loads) throw new DOMException('The load was replaced by a newer one.', 'AbortError');
    const fleet = new Fleet();
    const loaded = fleet.load(JSON.parse(text));
    // a search typed before a reload stays applied
    const shown = fleet.setQuery(this.currentQuery);
    this.fleet = fleet;
    // the index is built after the first rows are answered, before a person can type
    setTimeout(() => fleet.warmSearch(), 0);
    return { ...loaded, ...shown };
  }

  private currentQuery = '';

  async fleetSearch(query: string) {
    this.currentQuery = query;
    return this.fleet.setQuery(query);
  }
  async fleetRows(start: number, end: number) {
    return this.fleet.rows(start, end);
  }
  async fleetFind(serial: string) {
    return this.fleet.find(serial);
  }
  async fleetLive(updates: FleetLiveUpdate[], start: number, end: number) {
    return this.fleet.applyLive(updates, start, end);
  }
  async fleetSettings(saved: Sensor) {
    return this.fleet.applySettings(saved);
  }
  async fleetCsv() {
    return this.fleet.csv();
  }
  async fleetPoints() {
    return this.fleet.points();
  }
}
