import { useCallback, useEffect, useRef, useState } from 'react';
import { sensorResponseSchema, type Sensor } from '../../contract/sensor.schema';
import { messageForError } from '../../domain/messages';
import { ApiError } from '../../shared/api';
import { reportClientError } from '../../shared/client-errors';
import { readEarly, sensorRecordPath } from '../../shared/early-reads';
import { holdFirstDraw } from '../../shared/first-draw';
import { subscribeFleetFeed } from '../../shared/use-fleet';

export type SensorRecordState = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; sensor: Sensor };

/**
 * The opened sensor's full record (the list holds only summaries): read by its serial when the
 * serial changes, beside the organisation's list rather than after it, so a dashboard opened by
 * link draws as soon as its own record is in; kept current by the live feed (latest data, setup
 * saves elsewhere) and by saves here.
 */
export function useSensorRecord(orgId: string, serial: string): SensorRecordState & { replace(sensor: Sensor): void } {
  const [state, setState] = useState<SensorRecordState>({ status: 'loading' });
  // when the sensor was last saved here, so a read begun before the save cannot undo it
  const savedAt = useRef(0);
  useEffect(() => {
    const ctrl = new AbortController();
    const started = performance.now();
    setState((prev) => (prev.status === 'ready' && prev.sensor.serial === serial ? prev : { status: 'loading' }));
    void (async () => {
      try {
        // a dashboard opened by link finds its record's read begun beside the user's (src/shared/early-reads.ts)
        const { sensor } = await readEarly(sensorRecordPath(orgId, serial), sensorResponseSchema, ctrl.signal);
        if (ctrl.signal.aborted || savedAt.current > started) return;
        setState((prev) => (prev.status === 'ready' && JSON.stringify(prev.sensor) === JSON.stringify(sensor) ? prev : { status: 'ready', sensor }));
      } catch (err) {
        if (ctrl.signal.aborted || (err as Error).name === 'AbortError') return;
        // not in this organisation (a mistyped or former serial): the sensors route, as for any unknown sub-path
        if (err instanceof ApiError && err.status === 404) return setState({ status: 'missing' });
        // a malformed record fails this sensor's detail only; the list keeps every sensor
        void reportClientError('error', err);
        setState({ status: 'error', message: messageForError(err) });
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
                setState((prev) =>
                  prev.status === 'ready' && prev.sensor.id === m.sensorId ? { status: 'ready', sensor: { ...prev.sensor, latestData: { ...(prev.sensor.latestData ?? {}), ...m.latestData } } } : prev,
                ),
              onSensorSettings: (m) =>
                setState((prev) =>
                  prev.status === 'ready' && prev.sensor.id === m.sensorId ? { status: 'ready', sensor: { ...m.sensor, latestData: prev.sensor.latestData ?? m.sensor.latestData } } : prev,
                ),
            },
            sensorId,
          ),
    [orgId, sensorId],
  );

  const replace = useCallback((saved: Sensor) => {
    savedAt.current = performance.now();
    setState((prev) => ({ status: 'ready', sensor: { ...saved, latestData: prev.status === 'ready' ? (prev.sensor.latestData ?? saved.latestData) : saved.latestData } }));
  }, []);
  return { ...state, replace };
}
