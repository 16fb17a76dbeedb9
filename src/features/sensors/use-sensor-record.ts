import { useCallback, useEffect, useRef, useState } from 'react';
import { sensorResponseSchema, type Sensor } from '../../contract/sensor.schema';
import { messageForError } from '../../domain/messages';
import { api } from '../../shared/api';
import { reportClientError } from '../../shared/client-errors';
import { subscribeOrg } from '../../shared/live';

export type SensorRecordState = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; sensor: Sensor };

/**
 * The opened sensor's full record (the list holds only summaries): read when the serial changes,
 * kept current by the live feed (latest data, setup saves elsewhere) and by saves here.
 */
export function useSensorRecord(
  orgId: string,
  serial: string,
  find: (serial: string) => Promise<{ sensor: { id: string } } | undefined>,
): SensorRecordState & { replace(sensor: Sensor): void } {
  const [state, setState] = useState<SensorRecordState>({ status: 'loading' });
  const idRef = useRef<string | undefined>(undefined);
  // when the sensor was last saved here, so a read begun before the save cannot undo it
  const savedAt = useRef(0);
  useEffect(() => {
    const ctrl = new AbortController();
    let started = 0;
    setState((prev) => (prev.status === 'ready' && prev.sensor.serial === serial ? prev : { status: 'loading' }));
    void (async () => {
      try {
        const found = await find(serial);
        if (ctrl.signal.aborted) return;
        if (!found) {
          setState({ status: 'missing' });
          return;
        }
        idRef.current = found.sensor.id;
        started = performance.now();
        const { sensor } = await api.get(`/organisations/${orgId}/sensors/${found.sensor.id}`, { schema: sensorResponseSchema, signal: ctrl.signal });
        if (ctrl.signal.aborted || savedAt.current > started) return;
        setState((prev) => (prev.status === 'ready' && JSON.stringify(prev.sensor) === JSON.stringify(sensor) ? prev : { status: 'ready', sensor }));
      } catch (err) {
        if (ctrl.signal.aborted || (err as Error).name === 'AbortError') return;
        // a malformed record fails this sensor's detail only; the list keeps every sensor
        void reportClientError('error', err);
        setState({ status: 'error', message: messageForError(err) });
      }
    })();
    return () => ctrl.abort();
  }, [orgId, serial, find]);

  useEffect(
    () =>
      subscribeOrg(orgId, {
        onSensor: (m) =>
          setState((prev) =>
            prev.status === 'ready' && prev.sensor.id === m.sensorId ? { status: 'ready', sensor: { ...prev.sensor, latestData: { ...(prev.sensor.latestData ?? {}), ...m.latestData } } } : prev,
          ),
        onSensorSettings: (m) =>
          setState((prev) =>
            prev.status === 'ready' && prev.sensor.id === m.sensorId ? { status: 'ready', sensor: { ...m.sensor, latestData: prev.sensor.latestData ?? m.sensor.latestData } } : prev,
          ),
      }),
    [orgId],
  );

  const replace = useCallback((saved: Sensor) => {
    savedAt.current = performance.now();
    setState((prev) => ({ status: 'ready', sensor: { ...saved, latestData: prev.status === 'ready' ? (prev.sensor.latestData ?? saved.latestData) : saved.latestData } }));
  }, []);
  return { ...state, replace };
}
