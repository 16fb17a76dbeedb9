import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TaskList } from '../../../contract/downlink-task.schema';
import type { Sensor } from '../../../contract/sensor.schema';
import { subscribeDownlinkTasks } from '../../../shared/live';
import { tasksApi } from './tasks-api';

export const COMPLETED_LIMIT = 10;
export const ALL_RECORDS = 1000;

export type TasksState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; list: TaskList };

/**
 * A sensor's queued and completed tasks, kept current: every live task message (created, collected,
 * reported, cancelled, timed out) reloads the lists and hands over the sensor as it now is.
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

  return { state, reload, calls, showAll: () => setLimit(ALL_RECORDS), limit };
}
