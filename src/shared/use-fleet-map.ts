import { useEffect, useState } from 'react';
import type { SensorSummary } from '../domain/sensor-summary';
import type { FleetMapOverview } from '../../workers/fleet-map';
import type { FleetHandle } from './use-fleet';

/** A live status change re-reads the map's items at most this often (a visible change within 2 s). */
export const POINTS_REFRESH_MS = 1_000;
/** While the whole list streams in, the map asks for the part read this often (and draws it). */
export const MAP_FILL_MS = 1_000;

/**
 * The map's view of the fleet in the data worker, which clusters it: the overview (how many
 * sensors have a position, the view that fits them) read after each load of the list (and, while
 * the whole list loads, of its first page, so the map draws those at once), and a
 * revision that changes, at most once a second, when live uplinks change a mapped sensor's status
 * (the map then asks for its view's items again).
 */
export function useFleetMapView(fleet: FleetHandle): { overview: FleetMapOverview | undefined; revision: number } {
  const [overview, setOverview] = useState<FleetMapOverview>();
  const [revision, setRevision] = useState(0);
  const ready = fleet.state.status === 'ready';
  const loads = fleet.state.status === 'ready' ? fleet.state.loads : 0;
  const { mapOverview, mapHeld, onLiveRows } = fleet;
  useEffect(() => {
    if (!ready) return;
    let stale = false;
    // loads 0: only the first page is in (the whole list's load counts 1)
    void (loads ? mapOverview() : mapHeld()).then(
      (o) => {
        if (!stale) setOverview((prev) => (loads === 0 && prev && !prev.loading ? prev : o));
      },
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [ready, loads, mapOverview, mapHeld]);
  // the part of the whole list read so far, drawn as it grows until the whole list is in
  const filling = !!overview?.loading && loads === 0;
  const [fills, setFills] = useState(0);
  useEffect(() => {
    if (!filling) return;
    let stale = false;
    const timer = setTimeout(() => {
      void mapHeld().then(
        (o) => {
          if (stale) return;
          // unchanged (no rows read since): the map keeps what it draws
          setOverview((prev) => (!prev?.loading || o.loading?.held === prev.loading.held ? prev : o));
          setFills((n) => n + 1);
        },
        () => undefined,
      );
    }, MAP_FILL_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [filling, fills, mapHeld]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onLiveRows((r) => {
      if (!r.statusChanged || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setRevision((c) => c + 1);
      }, POINTS_REFRESH_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [onLiveRows]);
  return { overview, revision };
}

export type FleetSensorLookup = { status: 'none' } | { status: 'pending' } | { status: 'found'; sensor: SensorSummary } | { status: 'missing' };

/** One sensor of the fleet by serial (the map's selection), kept current by live uplinks. */
export function useFleetSensor(fleet: FleetHandle, serial: string | undefined): FleetSensorLookup {
  const [found, setFound] = useState<{ serial: string; sensor?: SensorSummary; loads: number }>();
  const loads = fleet.state.status === 'ready' ? fleet.state.loads : 0;
  const { find, onLiveRows } = fleet;
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (!serial || !loads) return;
    let stale = false;
    void find(serial).then((f) => {
      if (!stale) setFound({ serial, sensor: f?.sensor, loads });
    });
    return () => {
      stale = true;
    };
  }, [serial, loads, changes, find]);
  useEffect(() => (serial ? onLiveRows((r) => r.serials.includes(serial) && setChanges((c) => c + 1)) : undefined), [serial, onLiveRows]);
  if (!serial) return { status: 'none' };
  if (!found || found.serial !== serial) return { status: 'pending' };
  return found.sensor ? { status: 'found', sensor: found.sensor } : { status: 'missing' };
}
