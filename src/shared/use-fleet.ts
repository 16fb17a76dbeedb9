import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { OrgLiveHandlers } from '../contract/live.schema';
import type { Sensor } from '../contract/sensor.schema';
import type { SensorSummary } from '../domain/sensor-summary';
import { messageForError } from '../domain/messages';
import { reportClientError } from './client-errors';
import { dataWorker, workerApiBase as apiBase, workerToken } from './data-worker';
import { afterFirstDraw, holdFirstDraw } from './first-draw';
import { liveBrokerUrl } from './live';
import type { FleetLiveRows, FleetLoaded, FleetRows } from '../../workers/fleet';
import type { Box, FleetMapItems, FleetMapOverview } from '../../workers/fleet-map';

/** The highlight pane's refresh (monitoring-client 4): latest data is re-read this often. */
export const SENSORS_REFRESH_MS = 60_000;

export type FleetState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | {
      status: 'ready';
      total: number;
      count: number;
      version: number;
      first?: SensorSummary;
      /** Counts the whole list's loads (the first and each refresh); 0 while only its first page is in. */
      loads: number;
      /** Only the list's first page is held: rows past it show loading until the whole list is in. */
      partial: boolean;
    };

export interface FleetHandle {
  state: FleetState;
  /** Searches in the worker (the view debounces); the state's count and version follow, then it resolves. */
  search(query: string): Promise<void>;
  rows(start: number, end: number): Promise<FleetRows>;
  find(serial: string): Promise<{ index: number; sensor: SensorSummary } | undefined>;
  /** The rows the list holds: live updates answer the changed ones among them. */
  setWindow(start: number, end: number): void;
  /** Called after each batch of live uplinks with what it changed (the held rows among them). */
  onLiveRows(listener: (rows: FleetLiveRows) => void): () => void;
  /** How many sensors have a position and the view that fits them (the worker clusters them for the map). */
  mapOverview(): Promise<FleetMapOverview>;
  /** The same of the sensors held now (the list's first page, with `loading`, while the whole list loads). */
  mapHeld(): Promise<FleetMapOverview>;
  /** The map's sensors and clusters at an integer zoom within a box. */
  mapItems(zoom: number, box: Box): Promise<FleetMapItems>;
  /** The zoom at which a cluster of the map's items splits (null: the clustering has changed since). */
  mapExpansion(generation: number, clusterId: number): Promise<number | null>;
  /** A setup save (here or, by the live feed, elsewhere) reaches the list. */
  settings(saved: Sensor): void;
  csv(): Promise<string>;
  /** Reads the whole list again (after an add, or as a retry of a failed load, which shows loading meanwhile). */
  reload(): Promise<void>;
}

interface FeedUser extends OrgLiveHandlers {
  rows?(r: FleetLiveRows): void;
  counts?(c: { count: number; version: number }): void;
  /** The worker's connection opened (first, or again after a drop). */
  connected?(): void;
  /** The sensor whose messages this user is told (onSensor, onSensorSettings). */
  sensorId?: string;
}
let feed: { orgId: string; users: Set<FeedUser>; watch(): void; stop(): void } | undefined;

/**
 * Joins the worker's live feed of the organisation (started once the page has drawn its first
 * data, first-draw.ts, and stopped when its last user leaves); returns the leave.
 */
function joinFleetFeed(orgId: string, user: FeedUser): () => void {
  if (feed?.orgId !== orgId) {
    feed?.stop();
    feed = startFleetFeed(orgId);
  }
  const joined = feed;
  joined.users.add(user);
  if (user.sensorId) joined.watch();
  return () => {
    joined.users.delete(user);
    if (joined.users.size === 0) {
      joined.stop();
      if (feed === joined) feed = undefined;
    } else if (user.sensorId) joined.watch();
  };
}

/**
 * The organisation's live feed for a view on the sensors or map page (the open sensor's record, its
 * alerts), taken from the data worker's connection, which the fleet's list runs there anyway: the
 * page then opens no connection of its own for them. With `sensorId`, that sensor's messages only.
 * Other pages use subscribeOrg (live.ts).
 */
export function subscribeFleetFeed(orgId: string, h: OrgLiveHandlers, sensorId?: string): () => void {
  return joinFleetFeed(orgId, { ...h, sensorId });
}

function startFleetFeed(orgId: string) {
  const users = new Set<FeedUser>();
  const watched = () => [...new Set([...users].flatMap((u) => (u.sensorId ? [u.sensorId] : [])))];
  let stopped = false;
  let started = false;
  const cancel = afterFirstDraw(() => {
    liveBrokerUrl()
      .then((url) => {
        if (stopped) return;
        started = true;
        return dataWorker().fleetLiveStart(
          { url, orgId, watch: watched() },
          {
            token: () => workerToken(),
            rows: (r) => users.forEach((u) => u.rows?.(r)),
            counts: (c) => users.forEach((u) => u.counts?.(c)),
            sensor: (m) => users.forEach((u) => u.sensorId === m.sensorId && u.onSensor?.(m)),
            settings: (m) => users.forEach((u) => u.sensorId === m.sensorId && u.onSensorSettings?.(m)),
            notification: (m) => users.forEach((u) => u.onNotification?.(m)),
            connected: () => users.forEach((u) => u.connected?.()),
            // refused or signed out: the minute's refresh keeps the list current instead
            error: (message) => users.forEach((u) => u.onError?.(new Error(message))),
          },
        );
      })
      .catch(() => {}); // no broker address: the same
  });
  return {
    orgId,
    users,
    watch() {
      if (started && !stopped) dataWorker().fleetLiveWatch(watched());
    },
    stop() {
      stopped = true;
      cancel();
      dataWorker().fleetLiveStop();
    },
  };
}

// stable for the life of the tab: the worker is one
const rows = (start: number, end: number) => dataWorker().fleetRows(start, end);
const find = (serial: string) => dataWorker().fleetFind(serial);
const csv = () => dataWorker().fleetCsv();
const mapOverview = () => dataWorker().fleetMapOverview();
const mapHeld = () => dataWorker().fleetMapHeld();
const mapItems = (zoom: number, box: Box) => dataWorker().fleetMapItems(zoom, box);
const mapExpansion = (generation: number, clusterId: number) => dataWorker().fleetMapExpansion(generation, clusterId);


/**
 * The organisation's sensors, held by the data worker (DESIGN.md "At a customer's size"): the
 * compact list fetched, checked, sorted and indexed there; this hook keeps only the counts, and the
 * list asks for the rows it draws. Live uplinks go to the worker in batches.
 */
export function useFleet(orgId: string): FleetHandle {
  const [state, setState] = useState<FleetState>({ status: 'loading' });
  const windowRef = useRef<[number, number]>([0, 0]);
  const listeners = useRef(new Set<(rows: FleetLiveRows) => void>());
  const loads = useRef(0);
  const load = useCallback(
    async (quiet: boolean) => {
      const w = dataWorker();
      const show = async (loaded: FleetLoaded) => {
        const first = loaded.total > 0 ? (await w.fleetRows(0, 1)).rows[0]?.sensor : undefined;
        // the first list draws the sensors page (and the first sensor's dashboard beside it): a
        // transition, rendered in slices that yield to the browser (docs/performance.md); later
        // loads, which callers await before they navigate, are committed at once
        const commit = quiet || loads.current > 0 ? (f: () => void) => f() : startTransition;
        commit(() => setState((prev) => ({
          status: 'ready',
          total: loaded.total,
          count: loaded.count,
          version: loaded.version,
          first,
          loads: loaded.complete ? ++loads.current : loads.current,
          partial: !loaded.complete,
          // a search answered meanwhile is newer than this load's list (versions only grow)
          ...(prev.status === 'ready' && prev.version > loaded.version ? { count: prev.count, version: prev.version } : {}),
        })));
        if (loaded.invalid.length > 0 && !quiet && loaded.complete) {
          const shown = loaded.invalid.slice(0, 5).map((x) => `${x.serial} (${x.fields.join(', ')})`);
          void reportClientError('error', new Error(`Sensor records with invalid values: ${shown.join('; ')}${loaded.invalid.length > 5 ? ` and ${loaded.invalid.length - 5} more` : ''}`));
        }
      };
      try {
        // a first load draws the list's first page while the whole list loads; a refresh reads what changed since
        const req = { apiBase: apiBase(), token: await workerToken(), orgId };
        const loaded = await (quiet ? w.fleetRefresh(req) : w.fleetLoad(req));
        await show(loaded);
        if (!loaded.complete) await show(await w.fleetComplete());
      } catch (err) {
        if ((err as Error).name === 'AbortError') return;
        // a failed background refresh keeps what is shown rather than replacing it with an error
        if (!quiet) setState({ status: 'error', message: messageForError(err) });
      }
    },
    [orgId],
  );
  // the list's first rows hold the live connection back (first-draw.ts); declared before the subscription below
  const loading = state.status === 'loading';
  useEffect(() => (loading ? holdFirstDraw() : undefined), [loading]);
  useEffect(() => {
    setState({ status: 'loading' });
    void load(false);
    const id = setInterval(() => void load(true), SENSORS_REFRESH_MS);
    return () => clearInterval(id);
  }, [load]);

  const settings = useCallback((saved: Sensor) => {
    void dataWorker()
      .fleetSettings(saved)
      .then((r) => setState((prev) => (prev.status === 'ready' ? { ...prev, ...r } : prev)))
      // a worker that never started (offline on first use): the load's failure says so
      .catch(() => undefined);
  }, []);

  // between reads, each uplink's latest data reaches the worker's list on the worker's own live
  // connection (workers/fleet-live.ts); this thread hears only what changed among the rows it holds
  useEffect(
    () =>
      joinFleetFeed(orgId, {
        rows: (r) => listeners.current.forEach((l) => l(r)),
        counts: (c) => setState((prev) => (prev.status === 'ready' ? { ...prev, ...c } : prev)),
        // the uplinks between the list's read and the connection (opened once the page has drawn, or
        // again after a drop) came on no feed: read the list's changes since, once the whole list is in
        connected: () =>
          void dataWorker()
            .fleetComplete()
            .then(() => load(true))
            .catch(() => undefined),
      }),
    [orgId, load],
  );

  const setWindow = useCallback((start: number, end: number) => {
    const [was, wasEnd] = windowRef.current;
    windowRef.current = [start, end];
    if (start !== was || end !== wasEnd) dataWorker().fleetLiveWindow(start, end);
  }, []);
  const onLiveRows = useCallback((l: (rows: FleetLiveRows) => void) => {
    listeners.current.add(l);
    return () => void listeners.current.delete(l);
  }, []);

  const search = useCallback(
    (query: string) =>
      dataWorker()
        .fleetSearch(query)
        .then((r) => setState((prev) => (prev.status === 'ready' ? { ...prev, ...r } : prev)))
        .catch(() => undefined),
    [],
  );

  const reload = useCallback(() => {
    // a retry after a failed load shows it loading again (a reload of a list shown keeps it until the new one is in)
    setState((prev) => (prev.status === 'error' ? { status: 'loading' } : prev));
    return load(false);
  }, [load]);

  return useMemo<FleetHandle>(() => ({ state, search, rows, find, setWindow, onLiveRows, settings, csv, mapOverview, mapHeld, mapItems, mapExpansion, reload }), [state, search, settings, reload, setWindow, onLiveRows]);
}
