import { useEffect, useState } from 'react';
import { Badge, Box, Button, Collapse, Group, Modal, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useSelector } from '@xstate/react';
import { rowControls } from '../../../../machines/remote-task.machine';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';
import { statusDisplay, taskTypeLabel, type StatusDisplay } from '../../../domain/remote-tasks';
import { formatSetupTime } from '../../../domain/time-format';
import { useSession } from '../../../shared/session';
import type { MeasurementUnit } from '../../../domain/sensor-format';
import { TaskDetails } from './task-details';
import type { TaskActor } from './task-actors';

const COLOUR: Record<StatusDisplay, string> = { queued: 'blue', executing: 'yellow', ok: 'teal', error: 'red', canceled: 'gray', na: 'gray' };

interface Props {
  task: DownlinkTask;
  isSiteAdmin: boolean;
  timeZone: string;
  unit: MeasurementUnit;
  /** Estimate text for a Created task. */
  estimate?: string;
  /** The task's remote-task actor, owned by the section so a cancel outlives the row's move to Completed. */
  actor: TaskActor;
}

/** One row of the Queued or Completed list: expandable, with Cancel and its Yes/No confirmation (sensor-setup 2, 4). */
export function TaskRow({ task, isSiteAdmin, timeZone, unit, estimate, actor }: Props) {
  const state = useSelector(actor, (s) => s);
  const send = actor.send;
  const [open, setOpen] = useState(false);
  const { user } = useSession();
  const controls = rowControls(state);
  const shown = statusDisplay(state.context.status);

  // the lists reload on every live message: the row follows its task's status
  useEffect(() => send({ type: 'STATUS', status: task.status }), [send, task.status]);

  const queued = task.status === 'Created' || task.status === 'Dispatched';
  const when = (t: number) => formatSetupTime(t, user.displaySettings.timeDisplay, timeZone);
  // a dispatched task's badge says 'Executing...' (once); a completed one shows when, without expanding
  const timing = shown.kind === 'executing' ? undefined : queued ? estimate : `Task completed${task.endedAt !== null ? ` ${when(task.endedAt)}` : ''}`;
  const label = taskTypeLabel(task.type, isSiteAdmin);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="task-row" data-status={state.context.status} data-type={task.type}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <UnstyledButton onClick={() => setOpen((o) => !o)} style={{ flex: 1, minWidth: 0 }} aria-expanded={open}>
          <Group gap="xs" wrap="nowrap">
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            <Box miw={0}>
              <Text fw={600} size="sm">
                {label}
                {isSiteAdmin && (
                  <Text span c="dimmed" size="xs" ff="monospace">
                    {' '}
                    {task.type}
                  </Text>
                )}
              </Text>
              <Text size="xs" c="dimmed">
                {[timing, isSiteAdmin && `created ${when(task.createdAt)}`].filter(Boolean).join(' · ')}
              </Text>
            </Box>
          </Group>
        </UnstyledButton>
        <Group gap="xs" wrap="nowrap">
          <Badge color={COLOUR[shown.kind]} variant="light">
            {shown.label}
          </Badge>
          {controls.cancelShown && (
            <Button size="xs" variant="default" disabled={!controls.cancelEnabled} loading={controls.canceling} onClick={() => send({ type: 'CANCEL' })}>
              Cancel
            </Button>
          )}
        </Group>
      </Group>
      <Collapse expanded={open}>
        <Stack mt="xs">
          <TaskDetails task={task} timeZone={timeZone} unit={unit} isSiteAdmin={isSiteAdmin} estimate={estimate} />
        </Stack>
      </Collapse>
      <Modal opened={controls.confirmOpen} onClose={() => send({ type: 'NO' })} title="Cancel Remote Task" centered>
        <Text mb="md">Are you sure you want to cancel the task "{label}"?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => send({ type: 'NO' })}>
            No
          </Button>
          <Button color="red" onClick={() => send({ type: 'YES' })}>
            Yes
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
