import { useMemo, useState } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FullRadarParams } from '../../../contract/downlink-task.schema';
import type { SectionProps } from '../section-types';
import { blockerMessage, remoteTasksBlocker, TASK_MESSAGES, typePermitted, underLimit } from '../../../domain/remote-tasks';
import { tasksApi } from '../remote-tasks/tasks-api';
import { useRemoteTasks } from '../remote-tasks/use-remote-tasks';
import { FullRadarForm } from './full-radar-form';

/** Radar Config (sensor-setup 2, 6; site admins, radar sensors): the full radar configuration sent as a FullRadarConfig task. */
export default function RadarSection({ sensor, org, isSiteAdmin, onSaved }: SectionProps) {
  const calls = useMemo(() => tasksApi(org.id, sensor.id), [org.id, sensor.id]);
  const { state, reload } = useRemoteTasks(org.id, sensor, onSaved);
  const [busy, setBusy] = useState(false);
  const blocker = remoteTasksBlocker(sensor);
  if (blocker) return <Alert color="yellow">{blockerMessage(blocker)}</Alert>;
  if (!typePermitted('FullRadarConfig', sensor, isSiteAdmin)) return <Alert color="yellow">The sensor's firmware does not support radar configuration.</Alert>;
  const queued = state.status === 'ready' && !underLimit('FullRadarConfig', state.list.queued);

  const submit = async (params: FullRadarParams) => {
    setBusy(true);
    try {
      await calls.create({ type: 'FullRadarConfig', params });
      notifications.show({ color: 'teal', message: TASK_MESSAGES.radarCreated, autoClose: 4000 });
      void reload();
    } catch {
      notifications.show({ color: 'red', message: TASK_MESSAGES.somethingWrong, autoClose: 4000 });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The settings are sent to the sensor as a remote task and apply when it next checks in. Defaults are the radar's factory settings.
      </Text>
      {queued && <Alert color="blue">A full radar configuration is already queued for this sensor; cancel it under Remote Tasks to send another.</Alert>}
      <FullRadarForm busy={busy} onSubmit={(p) => void submit(p)} />
    </Stack>
  );
}
