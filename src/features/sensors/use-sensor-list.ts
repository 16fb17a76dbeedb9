import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../shared/api';
import { sensorListSchema, type Sensor } from '../../contract/sensor.schema';
import { applyLatestData, applySensorSettings } from '../../domain/live-updates';
import { messageForError } from '../../domain/messages';
import { subscribeOrg } from '../../shared/live';

export type SensorListState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; sensors: Sensor[] };

/** The highlight pane's refresh (monitoring-client 4): latest data is re-read this often. */
export const SENSORS_REFRESH_MS = 60_000;

const byName = (a: Sensor, b: Sensor) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.serial.localeCompare(b.serial);

/** The organisation's sensors sorted by name, with a reload for after Add Sensor or a failure. */
export function useSensorList(orgId: string): SensorListState & { reload(): Promise<void>; replace(sensor: Sensor): void } {
  const [state, setState] = useState<SensorListState>({ status: 'loading' });
  // when each sensor was last saved here, so a refresh read before the save cannot undo it
  const savedAt = useRef(new Map<string, number>());
  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const { sensors } = await api.get(`/organisations/${orgId}/sensors`, { schema: sensorListSchema, signal });
        if (!signal?.aborted) setState({ status: 'ready', sensors: [...sensors].sort(byName) });
      } catch (err) {
        if (!signal?.aborted) setState({ status: 'error', message: messageForError(err) });
      }
    },
    [orgId],
  );
  const refresh = useCallback(
    async (signal: AbortSignal) => {
      const started = performance.now();
      const res = await api.get(`/organisations/${orgId}/sensors`, { schema: sensorListSchema, signal }).catch(() => undefined);
      if (!res || signal.aborted) return;
      // unchanged sensors keep their identity, so panes keyed on them (the chart) do not reload
      setState((prev) => {
        const old = new Map(prev.status === 'ready' ? prev.sensors.map((s) => [s.id, s]) : []);
        const same = (s: Sensor) => {
          const o = old.get(s.id);
          if (o && (savedAt.current.get(s.id) ?? -1) > started) return o;
          return o && JSON.stringify(o) === JSON.stringify(s) ? o : s;
        };
        return { status: 'ready', sensors: res.sensors.map(same).sort(byName) };
      });
    },
    [orgId],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading' });
    void load(ctrl.signal);
    // a failed background refresh keeps what is shown rather than replacing it with an error
    const id = setInterval(() => void refresh(ctrl.signal), SENSORS_REFRESH_MS);
    return () => {
      ctrl.abort();
      clearInterval(id);
    };
  }, [load, refresh]);
  // a setup save answers the updated sensor; the live feed brings the same to other browsers
  const replace = useCallback((saved: Sensor) => {
    savedAt.current.set(saved.id, performance.now());
    setState((prev) => (prev.status === 'ready' ? { ...prev, sensors: applySensorSettings(prev.sensors, saved).sort(byName) } : prev));
  }, []);
  // between reads, each uplink's latest data arrives on the organisation's live topic
  useEffect(
    () =>
      subscribeOrg(orgId, {
        onSensor: (m) => setState((prev) => (prev.status === 'ready' ? { ...prev, sensors: applyLatestData(prev.sensors, m.sensorId, m.latestData) } : prev)),
        onSensorSettings: (m) => replace(m.sensor),
      }),
    [orgId, replace],
  );
  const reload = useCallback(() => load(), [load]);
  return { ...state, reload, replace };
}
