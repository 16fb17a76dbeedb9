import { useEffect, useState } from 'react';
import type { SensorSummary } from '../domain/sensor-summary';
import type { MapPoint } from './sensor-layers';
import type { FleetHandle } from './use-fleet';

/** A live status change re-reads the map's points at most this often (a visible change within 2 s). */
export const POINTS_REFRESH_MS = 1_000;

/**
 * The map's points from the fleet in the data worker (every sensor with a position, with its
 * status): read after each load of the list, and again after live uplinks change a status.
 */
export function useFleetPoints(fleet: FleetHandle): MapPoint[] | undefined {
  const [points, setPoints] = useState<MapPoint[]>();
  const [changes, setChanges] = useState(0);
  const loads = fleet.state.status === 'ready' ? fleet.state.loads : 0;
  const { points: read, onLiveRows } = fleet;
  useEffect(() => {
    if (!loads) return;
    let stale = false;
    void read().then((p) => {
      if (!stale) setPoints(p);
    });
    return () => {
      stale = true;
    };
  }, [loads, changes, read]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onLiveRows((r) => {
      if (!r.statusChanged || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setChanges((c) => c + 1);
      }, POINTS_REFRESH_MS);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [onLiveRows]);
  return points;
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
