import Supercluster, { type AnyProps, type ClusterFeature, type PointFeature } from 'supercluster';
import { initialView, type InitialView } from '../src/domain/map-view';
import type { SensorStatus } from '../src/domain/sensor-status';

/** A sensor as the map draws it. */
export interface MapPoint {
  serial: string;
  latitude: number;
  longitude: number;
  status: SensorStatus;
}

/** A box of longitudes and latitudes; west may exceed east's side of the antimeridian (the map's unwrapped bounds). */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The statuses by rank: a cluster takes its worst member's, so an alert is never hidden by zooming out. */
export const RANKED: readonly SensorStatus[] = ['DISABLED', 'NO_STATUS', 'OK', 'WARNING', 'ALERT'];
const RANK = Object.fromEntries(RANKED.map((s, i) => [s, i])) as Record<SensorStatus, number>;

/**
 * The sensors and clusters of one zoom within a box, in columns (what deck.gl draws, moved from the
 * worker without a copy): item k is at position[2k], position[2k + 1] (longitude, latitude).
 */
export interface FleetMapItems {
  /** The index the cluster ids belong to (a refresh with the same positions keeps it). */
  generation: number;
  length: number;
  position: Float64Array;
  /** 1 for a sensor, else the cluster's size. */
  count: Uint32Array;
  /** The status's rank in RANKED (a cluster's: its worst member's). */
  rank: Uint8Array;
  /** The cluster's id, -1 for a sensor. */
  clusterId: Int32Array;
  /** The sensor's serial, '' for a cluster. */
  serial: string[];
}

/** What the map needs before it draws: how many sensors have a position, and the view that fits them. */
export interface FleetMapOverview {
  count: number;
  view: InitialView;
  /**
   * Set while only part of the list is held (its first page): the sensors held and the
   * organisation's count. The map draws the part held and says the rest is loading.
   */
  loading?: { held: number; total: number };
}

const WORLD: Box = { west: -180, south: -90, east: 180, north: 90 };
let generations = 0;

/** The clustering of one set of positions, which statuses do not change. */
interface Geometry {
  generation: number;
  index: Supercluster<{ i: number }>;
  serials: string[];
  latitude: Float64Array;
  longitude: Float64Array;
  bySerial: Map<string, number>;
  /** Each sensor's place in the depth-first order of the cluster tree: every cluster's members are a run of it. */
  leafAt: Int32Array;
  /** Each cluster's first member in that order (its size is its point_count). */
  clusterStart: Map<number, number>;
  view: InitialView;
}

function geometry(points: readonly MapPoint[]): Geometry {
  const n = points.length;
  const index = new Supercluster<{ i: number }>({ radius: 44, maxZoom: 16 });
  index.load(points.map((p, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] }, properties: { i } })));
  const leafAt = new Int32Array(n).fill(-1);
  const clusterStart = new Map<number, number>();
  let order = 0;
  const visit = (f: ClusterFeature<AnyProps> | PointFeature<{ i: number }>) => {
    const p = f.properties as { cluster?: boolean; cluster_id?: number; i?: number };
    if (!p.cluster) {
      leafAt[p.i!] = order++;
      return;
    }
    clusterStart.set(p.cluster_id!, order);
    for (const c of index.getChildren(p.cluster_id!)) visit(c);
  };
  for (const f of index.getClusters([WORLD.west, WORLD.south, WORLD.east, WORLD.north], 0)) visit(f);
  // every sensor is reached from the top zoom; should one not be, it still gets a place of its own
  for (let i = 0; i < n; i++) if (leafAt[i] < 0) leafAt[i] = order++;
  return {
    generation: ++generations,
    index,
    serials: points.map((p) => p.serial),
    latitude: Float64Array.from(points, (p) => p.latitude),
    longitude: Float64Array.from(points, (p) => p.longitude),
    bySerial: new Map(points.map((p, i) => [p.serial, i])),
    leafAt,
    clusterStart,
    view: initialView(points),
  };
}

/**
 * The map's sensors in the data worker: supercluster's index of their positions, built once per
 * set of positions (about 0.5 s at 100,000 on this machine class, off the main thread), and their
 * statuses beside it. A cluster's colour is the worst status among its members, read from a max
 * tree over the members' depth-first order (each cluster's members are one run of it), so a live
 * status change is a path's update, never a rebuild. The map asks for one zoom within a box.
 */
export class FleetMapIndex {
  private readonly ranks: Uint8Array;
  /** Max tree over the depth-first order: leaves at [size, 2 size). */
  private readonly worst: Uint8Array;
  private readonly size: number;

  /** ranks: each sensor's status rank, in the geometry's order. */
  private constructor(
    private readonly geo: Geometry,
    ranks: Uint8Array,
  ) {
    const n = geo.serials.length;
    this.size = 1;
    while (this.size < n) this.size *= 2;
    this.ranks = ranks;
    this.worst = new Uint8Array(2 * this.size);
    for (let i = 0; i < n; i++) this.worst[this.size + geo.leafAt[i]!] = ranks[i]!;
    for (let k = this.size - 1; k > 0; k--) this.worst[k] = Math.max(this.worst[2 * k]!, this.worst[2 * k + 1]!);
  }

  /** Clusters the sensors (each one with a position). */
  static build(points: readonly MapPoint[]): FleetMapIndex {
    return new FleetMapIndex(
      geometry(points),
      Uint8Array.from(points, (p) => RANK[p.status]),
    );
  }

  /** The same sensors at the same positions (in any order) keep this clustering with their new statuses; otherwise it is built afresh. */
  rebuilt(points: readonly MapPoint[]): FleetMapIndex {
    const g = this.geo;
    const same = points.length === g.serials.length && points.every((p) => {
      const j = g.bySerial.get(p.serial);
      return j !== undefined && g.latitude[j] === p.latitude && g.longitude[j] === p.longitude;
    });
    if (!same) return FleetMapIndex.build(points);
    const ranks = new Uint8Array(points.length);
    for (const p of points) ranks[g.bySerial.get(p.serial)!] = RANK[p.status];
    return new FleetMapIndex(g, ranks);
  }

  get generation(): number {
    return this.geo.generation;
  }

  get overview(): FleetMapOverview {
    return { count: this.geo.serials.length, view: this.geo.view };
  }

  /** A sensor's status changed (live uplinks, a setup save); false when it is not on the map. */
  setStatus(serial: string, status: SensorStatus): boolean {
    const j = this.geo.bySerial.get(serial);
    if (j === undefined) return false;
    this.ranks[j] = RANK[status];
    let k = this.size + this.geo.leafAt[j]!;
    this.worst[k] = RANK[status];
    for (k >>= 1; k > 0; k >>= 1) this.worst[k] = Math.max(this.worst[2 * k]!, this.worst[2 * k + 1]!);
    return true;
  }

  /** The worst rank over [from, to) of the depth-first order. */
  private worstOf(from: number, to: number): number {
    let w = 0;
    for (let l = from + this.size, r = to + this.size; l < r; l >>= 1, r >>= 1) {
      if (l & 1) w = Math.max(w, this.worst[l++]!);
      if (r & 1) w = Math.max(w, this.worst[--r]!);
    }
    return w;
  }

  /** The sensors and clusters at an integer zoom within a box (the whole world when none is given). */
  items(zoom: number, box: Box = WORLD): FleetMapItems {
    const g = this.geo;
    const z = Math.max(0, Math.min(17, Math.floor(zoom)));
    const found = g.index.getClusters([box.west, box.south, box.east, box.north], z);
    const n = found.length;
    const out: FleetMapItems = { generation: g.generation, length: n, position: new Float64Array(2 * n), count: new Uint32Array(n), rank: new Uint8Array(n), clusterId: new Int32Array(n), serial: new Array<string>(n) };
    for (let k = 0; k < n; k++) {
      const p = found[k]!.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; i?: number };
      if (p.cluster) {
        const [lng, lat] = found[k]!.geometry.coordinates as [number, number];
        const start = g.clusterStart.get(p.cluster_id!) ?? 0;
        out.position[2 * k] = lng;
        out.position[2 * k + 1] = lat;
        out.count[k] = p.point_count!;
        out.rank[k] = this.worstOf(start, start + p.point_count!);
        out.clusterId[k] = p.cluster_id!;
        out.serial[k] = '';
      } else {
        const i = p.i!;
        out.position[2 * k] = g.longitude[i]!;
        out.position[2 * k + 1] = g.latitude[i]!;
        out.count[k] = 1;
        out.rank[k] = this.ranks[i]!;
        out.clusterId[k] = -1;
        out.serial[k] = g.serials[i]!;
      }
    }
    return out;
  }

  /** The zoom at which a cluster splits (a click on it zooms there); null for another index's cluster. */
  expansionZoom(generation: number, clusterId: number): number | null {
    if (generation !== this.geo.generation || !this.geo.clusterStart.has(clusterId)) return null;
    return this.geo.index.getClusterExpansionZoom(clusterId);
  }
}
