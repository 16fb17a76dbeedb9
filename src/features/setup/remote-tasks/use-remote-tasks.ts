import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { TaskList } from '../../../contract/downlink-task.schema';
import type { Sensor } from '../../../contract/sensor.schema';
import { isLiveConnected, onLiveStatus, subscribeDownlinkTasks } from '../../../shared/live';
import { tasksApi } from './tasks-api';

export const COMPLETED_LIMIT = 10;
export const ALL_RECORDS = 1000;
/** While the live connection is down, the lists are reloaded this often instead. */
export const POLL_MS = 60_000;

export type TasksState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; list: TaskList };

/**
 * A sensor's queued and completed tasks, kept current: every live task message (created, collected,
 * reported, cancelled, timed out) reloads the lists and hands over the sensor as it now is. While the
 * live connection is down (not yet up, dropped, refused) the lists are polled every 60 s instead, and
 * reloaded once when it comes back (messages sent while it was down are lost).
 */
export function useRemoteTasks(orgId: string, sensor: Sensor, onSensor: (s: Sensor) => void) {
  const calls = useMemo(() => tasksApi(orgId, sensor.id), [orgId, sensor.id]);
  const [state, setState] = useState<TasksState>({ status: 'loading' });
  const [limit, setLimit] = useState(COMPLETED_LIMIT);
  const sensorUpdated = useRef(onSensor);
  sensorUpdated.current = onSensor;
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const list = await calls.list(limit);
      if (mine === seq.current) setState({ status: 'ready', list });
    } catch {
      if (mine === seq.current) setState((s) => (s.status === 'ready' ? s : { status: 'error' }));
    }
  }, [calls, limit]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(
    () =>
      subscribeDownlinkTasks(orgId, sensor.id, (msg) => {
        // the frame's copy of the sensor (list, dashboard, forms) takes the task's effects at once
        sensorUpdated.current(msg.sensor);
        void reload();
      }),
    [orgId, sensor.id, reload],
  );

  const live = useSyncExternalStore(onLiveStatus, isLiveConnected);
  const wasLive = useRef(live);
  useEffect(() => {
    if (live) {
      if (!wasLive.current) void reload();
      wasLive.current = true;
      return;
    }
    wasLive.current = false;
    const id = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(id);
  }, [live, reload]);

  return { state, reload, calls, live, showAll: () => setLimit(ALL_RECORDS), limit };
}
