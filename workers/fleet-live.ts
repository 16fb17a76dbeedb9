import type { Sensor } from '../src/contract/sensor.schema';
import { createLiveConnection } from '../src/shared/live-connection';
import { orgFeed } from '../src/shared/org-feed';
import type { LiveNotificationMessage, LiveSensorSettingsMessage, OrgLiveHandlers } from '../src/contract/live.schema';
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
  /** Sensors whose every message the page is also told (the open dashboard's), see FleetLiveOut.sensor. */
  watch?: string[];
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
  /** A watched sensor's latest data changed (its uplink, or it went offline). */
  sensor(msg: Parameters<NonNullable<OrgLiveHandlers['onSensor']>>[0]): void;
  /** A watched sensor's settings were saved. */
  settings(msg: LiveSensorSettingsMessage): void;
  /** A notification of the organisation opened or closed. */
  notification(msg: LiveNotificationMessage): void;
  /**
   * The connection opened (first, or again after a drop): uplinks before it, since the list was
   * read, came on no feed, so the page catches up with the list's changes since its read.
   */
  connected(): void;
}

/** What the data worker exposes of the feed (Comlink). */
export interface FleetLiveApi {
  /** Starts the feed on the worker's own connection (or moves it to another organisation); `out` is the page's, proxied. */
  fleetLiveStart(req: FleetLiveStart, out: FleetLiveOut): Promise<void>;
  /** The rows the page holds: each batch answers the changed ones among them. */
  fleetLiveWindow(start: number, end: number): void;
  /** The sensors whose messages the page is told too (FleetLiveOut.sensor and .settings). */
  fleetLiveWatch(sensorIds: string[]): void;
  fleetLiveStop(): void;
}

/**
 * The organisation's uplinks, taken by the data worker on a live connection of its own (MQTT over
 * WebSocket, as the page's), applied to the fleet it holds in batches: at a fleet's rate (a
 * thousand uplinks a second) none of the messages, their parsing or their checks reach the page's
 * main thread, which is told only what changed among the rows it holds, the messages of the sensors
 * it watches (the open dashboard's) and the organisation's notifications: on the sensors and map
 * pages the page opens no connection of its own (and loads mqtt.js once, here) until live mode or a
 * remote-task view needs one.
 */
export class FleetLiveFeed {
  private conn: ReturnType<typeof createLiveConnection> | undefined;
  private offs: (() => void)[] = [];
  private queue: FleetLiveUpdate[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private window: [number, number] = [0, 0];
  private watched = new Set<string>();

  constructor(private readonly fleet: LiveFleet) {}

  /** Starts (or moves to another organisation); the feed runs until stop. */
  start(req: FleetLiveStart, out: FleetLiveOut): void {
    this.stop();
    this.watched = new Set(req.watch ?? []);
    const conn = createLiveConnection({ url: req.url, getIdToken: () => out.token(), onDropped: dropped, onStatus: (up) => up && this.conn === conn && out.connected() });
    this.conn = conn;
    const feed = orgFeed(
      req.orgId,
      {
        onSensor: (m) => {
          if (this.watched.has(m.sensorId)) out.sensor(m);
          this.queue.push({ sensorId: m.sensorId, latestData: m.latestData });
          this.timer ??= setTimeout(() => this.flush(out), LIVE_BATCH_MS);
        },
        onSensorSettings: (m) => {
          if (this.watched.has(m.sensorId)) out.settings(m);
          void this.fleet.fleetSettings(m.sensor).then((c) => this.conn === conn && out.counts(c));
        },
        onNotification: (m) => out.notification(m),
      },
      dropped,
    );
    this.offs = feed.map(({ filter, onMessage }) => conn.listen(filter, { onMessage, onError: (err) => out.error(err.message) }));
  }

  /** The rows the page holds: a batch answers the changed ones among them. */
  setWindow(start: number, end: number): void {
    this.window = [start, end];
  }

  /** The sensors whose messages the page is told too. */
  watch(sensorIds: string[]): void {
    this.watched = new Set(sensorIds);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.offs.forEach((off) => off());
    this.offs = [];
    this.conn?.close();
    this.conn = undefined;
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
