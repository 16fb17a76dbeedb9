import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Center, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';
import type { Organisation } from '../../../contract/organisation.schema';
import type { Sensor } from '../../../contract/sensor.schema';
import { allowedTaskTypes, blockerMessage, remoteTasksBlocker, TASK_MESSAGES } from '../../../domain/remote-tasks';
import { ESTIMATE_REFRESH_MS, estimateApplyAt, estimateNote, estimateText } from '../../../domain/task-estimate';
import { CreateTaskModal } from './create-task-modal';
import { TaskRow } from './task-row';
import { useTaskActors, type Notice } from './task-actors';
import { useRemoteTasks } from './use-remote-tasks';
import { useNow } from '../../../shared/server-clock';

interface Props {
  sensor: Sensor;
  org: Organisation;
  isSiteAdmin: boolean;
  onSaved(sensor: Sensor): void;
}

const announce = (notice: Notice) =>
  notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.text, autoClose: 4000 });

/** Remote Tasks (sensor-setup 2, 4, 8): the banners, Queued Tasks with Create, Completed Tasks with Show More; live. */
export default function RemoteTasksSection({ sensor, org, isSiteAdmin, onSaved }: Props) {
  const { state, calls, showAll, limit, reload } = useRemoteTasks(org.id, sensor, onSaved);
  const [creating, setCreating] = useState(false);
  // the dashboard's server-corrected clock (GET /tools/server-time), re-read every 60 s
  const now = useNow(ESTIMATE_REFRESH_MS);
  const onCancel = useCallback((id: string) => calls.cancel(id), [calls]);
  const { actorFor, prune } = useTaskActors(onCancel, announce);
  const list = state.status === 'ready' ? state.list : null;
  useEffect(() => {
    if (list) prune([...list.queued, ...list.completed]);
  }, [list, prune]);
  const closeCreate = useCallback(() => setCreating(false), []);
  const blocker = remoteTasksBlocker(sensor);

  if (state.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label="Loading remote tasks" />
      </Center>
    );
  }
  if (state.status === 'error') {
    return (
      <Alert color="red" data-testid="tasks-load-failed">
        <Group justify="space-between" gap="sm">
          <Text size="sm">{TASK_MESSAGES.loadFailed}</Text>
          <Button size="xs" variant="default" onClick={() => void reload()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }

  // FullRadarConfig tasks are for site admins' eyes only
  const visible = (t: DownlinkTask) => isSiteAdmin || t.type !== 'FullRadarConfig';
  const { queued, completed, completedTotal } = state.list;
  const allowed = allowedTaskTypes(sensor, isSiteAdmin, queued);
  const note = estimateNote(sensor);
  // positions count every queued task (a hidden one still runs first)
  const shownQueued = queued.map((t, i) => ({ t, i })).filter(({ t }) => visible(t));
  const shownCompleted = completed.filter(visible);
  const row = (t: DownlinkTask, position?: number) => (
    <TaskRow
      key={t.id}
      task={t}
      isSiteAdmin={isSiteAdmin}
      timeZone={org.locale.timezone}
      unit={org.measurementUnit}
      estimate={position === undefined ? undefined : estimateText(estimateApplyAt(sensor, t, position, now), now)}
      actor={actorFor(t)}
    />
  );
  return (
    <Stack>
      {blocker && (
        <Alert color={blocker.kind === 'firmware' ? 'yellow' : 'blue'} data-testid="remote-banner">
          {blockerMessage(blocker)}
        </Alert>
      )}
      <Box>
        <Group justify="space-between" mb="xs">
          <div>
            <Title order={4} size="h5">
              Queued Tasks
            </Title>
            <Text size="sm" c="dimmed">
              Tasks run in order.{note ? ` ${note}` : ''}
            </Text>
          </div>
          {!blocker && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              Create
            </Button>
          )}
        </Group>
        <Stack gap="xs" data-testid="queued-tasks">
          {shownQueued.length ? shownQueued.map(({ t, i }) => row(t, i)) : <Text c="dimmed">{TASK_MESSAGES.emptyQueued}</Text>}
        </Stack>
      </Box>
      <Divider />
      <Box>
        <Title order={4} size="h5" mb="xs">
          Completed Tasks
        </Title>
        <Stack gap="xs" data-testid="completed-tasks">
          {shownCompleted.length ? shownCompleted.map((t) => row(t)) : <Text c="dimmed">{TASK_MESSAGES.emptyCompleted}</Text>}
        </Stack>
        {isSiteAdmin && limit < 1000 && completedTotal > completed.length && (
          <Button variant="subtle" mt="sm" onClick={showAll}>
            Show More
          </Button>
        )}
      </Box>
      {!blocker && (
        <CreateTaskModal
          opened={creating}
          onClose={closeCreate}
          sensor={sensor}
          unit={org.measurementUnit}
          isSiteAdmin={isSiteAdmin}
          queued={queued}
          allowed={allowed}
          calls={calls}
        />
      )}
    </Stack>
  );
}
