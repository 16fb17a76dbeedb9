import type { Sensor } from '../src/contract/sensor.schema';
import { createLiveConnection } from '../src/shared/live-connection';
import { orgFeed } from '../src/shared/org-feed';
import type { FleetLiveRows, FleetLiveUpdate } from './fleet';

/** Uplinks are applied to the fleet in batches this far apart: at a fleet's rate, one answer to the page per batch, not per uplink. */
export const LIVE_BATCH_MS = 250;

/** What the feed needs of the fleet it keeps current (FleetWorker). */
export interface LiveFleet {
  fleetLive(updates: FleetLiveUpdate[], start: number, end: number): Promise<FleetLiveRows>;
  fleetSettings(saved: Sensor): Promise<{ count: number; version: number }>;
}

const dropped = (topic: string, reason: string) => console.warn(`Dropped a malformed live message on ${topic}: ${reason}`);

export interface FleetLiveStart {
  /** The broker (config.mqtt.url). */
  url: string;
  orgId: string;
}

/** What the page is told (Comlink proxies of the page's functions). */
export interface FleetLiveOut {
  /** The current ID token (the MQTT password), asked of the page at each (re)connection. */
  token(): Promise<string | undefined>;
  /** After each batch of uplinks: the changed rows the page holds, every sensor touched, whether a mapped status changed. */
  rows(rows: FleetLiveRows): void;
  /** A setup save elsewhere re-sorted the list. */
  counts(counts: { count: number; version: number }): void;
  /** The feed was refused (not a member any more) or has no token. */
  error(message: string): void;
}

/** What the data worker exposes of the feed (Comlink). */
export interface FleetLiveApi {
  /** Starts the feed on the worker's own connection (or moves it to another organisation); `out` is the page's, proxied. */
  fleetLiveStart(req: FleetLiveStart, out: FleetLiveOut): Promise<void>;
  /** The rows the page holds: each batch answers the changed ones among them. */
  fleetLiveWindow(start: number, end: number): void;
  fleetLiveStop(): void;
}

/**
 * The organisation's uplinks, taken by the data worker on a live connection of its own (MQTT over
 * WebSocket, as the page's), applied to the fleet it holds in batches: at a fleet's rate (a
 * thousand uplinks a second) none of the messages, their parsing or their checks reach the page's
 * main thread, which is told only what changed among the rows it holds. The page's own connection
 * keeps what one view needs (the open sensor's topics, notifications, remote tasks, live mode).
 */
export class FleetLiveFeed {
  private conn: ReturnType<typeof createLiveConnection> | undefined;
  private offs: (() => void)[] = [];
  private queue: FleetLiveUpdate[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private window: [number, number] = [0, 0];
  private org: string | undefined;

  constructor(private readonly fleet: LiveFleet) {}

  /** Starts (or moves to another organisation); the feed runs until stop. */
  start(req: FleetLiveStart, out: FleetLiveOut): void {
    this.stop();
    this.org = req.orgId;
    const conn = createLiveConnection({ url: req.url, getIdToken: () => out.token(), onDropped: dropped });
    this.conn = conn;
    const feed = orgFeed(
      req.orgId,
      {
        onSensor: (m) => {
          this.queue.push({ sensorId: m.sensorId, latestData: m.latestData });
          this.timer ??= setTimeout(() => this.flush(out), LIVE_BATCH_MS);
        },
        onSensorSettings: (m) => void this.fleet.fleetSettings(m.sensor).then((c) => this.conn === conn && out.counts(c)),
      },
      dropped,
    );
    this.offs = feed.map(({ filter, onMessage }) => conn.listen(filter, { onMessage, onError: (err) => out.error(err.message) }));
  }

  /** The rows the page holds: a batch answers the changed ones among them. */
  setWindow(start: number, end: number): void {
    this.window = [start, end];
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.offs.forEach((off) => off());
    this.offs = [];
    this.conn?.close();
    this.conn = undefined;
    this.org = undefined;
  }

  /** The organisation the feed runs for, if it runs. */
  get orgId(): string | undefined {
    return this.org;
  }

  private flush(out: FleetLiveOut) {
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const [start, end] = this.window;
    void this.fleet.fleetLive(batch, start, end).then((r) => out.rows(r));
  }
}
