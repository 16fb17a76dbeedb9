import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { sensorResponseSchema, type Sensor } from '../../contract/sensor.schema';
import { messageForError } from '../../domain/messages';
import { ApiError } from '../../shared/api';
import { reportClientError } from '../../shared/client-errors';
import { readEarly, sensorRecordPath } from '../../shared/early-reads';
import { holdFirstDraw } from '../../shared/first-draw';
import { subscribeFleetFeed } from '../../shared/use-fleet';

export type SensorRecordState = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; sensor: Sensor };
/** A state with the serial it was read for: another serial's is never shown as this one's. */
type HeldRecord = SensorRecordState & { serial: string };

/**
 * The opened sensor's full record (the list holds only summaries): read by its serial when the
 * serial changes, beside the organisation's list rather than after it, so a dashboard opened by
 * link draws as soon as its own record is in; kept current by the live feed (latest data, setup
 * saves elsewhere) and by saves here. Until the serial's own record is in it is loading, even on the
 * render that brings a new serial, so a view and its redirects never act on the last sensor's record.
 */
export function useSensorRecord(orgId: string, serial: string): SensorRecordState & { replace(sensor: Sensor): void } {
  const [held, setHeld] = useState<HeldRecord>({ serial, status: 'loading' });
  const state: SensorRecordState = held.serial === serial ? held : { status: 'loading' };
  // which sensor was last saved here and when, so a read of it begun before the save cannot undo it
  const saved = useRef({ id: '', at: 0 });
  useEffect(() => {
    const ctrl = new AbortController();
    const started = performance.now();
    setHeld((prev) => (prev.serial === serial && prev.status === 'ready' ? prev : { serial, status: 'loading' }));
    void (async () => {
      try {
        // a dashboard opened by link finds its record's read begun beside the user's (src/shared/early-reads.ts)
        const { sensor } = await readEarly(sensorRecordPath(orgId, serial), sensorResponseSchema, ctrl.signal);
        if (ctrl.signal.aborted || (saved.current.id === sensor.id && saved.current.at > started)) return;
        // the record draws the whole dashboard: a transition, rendered in slices that yield to the
        // browser (docs/performance.md)
        startTransition(() => setHeld((prev) => (prev.serial === serial && prev.status === 'ready' && JSON.stringify(prev.sensor) === JSON.stringify(sensor) ? prev : { serial, status: 'ready', sensor })));
      } catch (err) {
        if (ctrl.signal.aborted || (err as Error).name === 'AbortError') return;
        // not in this organisation (a mistyped or former serial): the sensors route, as for any unknown sub-path
        if (err instanceof ApiError && err.status === 404) return setHeld({ serial, status: 'missing' });
        // a malformed record fails this sensor's detail only; the list keeps every sensor
        void reportClientError('error', err);
        setHeld({ serial, status: 'error', message: messageForError(err) });
      }
    })();
    return () => ctrl.abort();
  }, [orgId, serial]);

  // the record's first draw holds the live connection back (first-draw.ts); declared before the subscription below
  const loading = state.status === 'loading';
  useEffect(() => (loading ? holdFirstDraw() : undefined), [loading]);

  // this sensor's messages, from the data worker's feed that the sensors list runs (use-fleet.ts)
  const sensorId = state.status === 'ready' ? state.sensor.id : undefined;
  useEffect(
    () =>
      sensorId === undefined
        ? undefined
        : subscribeFleetFeed(
            orgId,
            {
              onSensor: (m) =>
                setHeld((prev) =>
                  prev.status === 'ready' && prev.sensor.id === m.sensorId ? { ...prev, sensor: { ...prev.sensor, latestData: { ...(prev.sensor.latestData ?? {}), ...m.latestData } } } : prev,
                ),
              onSensorSettings: (m) =>
                setHeld((prev) =>
                  prev.status === 'ready' && prev.sensor.id === m.sensorId ? { ...prev, sensor: { ...m.sensor, latestData: prev.sensor.latestData ?? m.sensor.latestData } } : prev,
                ),
            },
            sensorId,
          ),
    [orgId, sensorId],
  );

  // a save that returns after the user has moved to another sensor changes only the list (its caller's other half)
  const replace = useCallback((sensor: Sensor) => {
    saved.current = { id: sensor.id, at: performance.now() };
    setHeld((prev) => (prev.status === 'ready' && prev.sensor.id === sensor.id ? { ...prev, sensor: { ...sensor, latestData: prev.sensor.latestData ?? sensor.latestData } } : prev));
  }, []);
  return { ...state, replace };
}
