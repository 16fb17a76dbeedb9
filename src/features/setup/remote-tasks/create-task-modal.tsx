import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Modal, Select, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { createTaskMachine } from '../../../../machines/create-task.machine';
import type { CreateTaskRequest, DownlinkTask, TaskType } from '../../../contract/downlink-task.schema';
import type { Sensor } from '../../../contract/sensor.schema';
import { TASK_MESSAGES, taskTypeLabel } from '../../../domain/remote-tasks';
import { ScheduleFields, scheduleValid, type ScheduleValue } from '../update-rate/schedule-fields';
import { FullRadarForm } from '../radar/full-radar-form';
import { AlarmForm } from './alarm-form';
import { FirmwareForm } from './firmware-form';
import { ExtendedForm, RadarForm, TransmissionForm } from './simple-forms';
import type { TasksApi } from './tasks-api';

interface Props {
  opened: boolean;
  onClose(): void;
  sensor: Sensor;
  unit: 'Metres' | 'Inches';
  isSiteAdmin: boolean;
  queued: DownlinkTask[];
  allowed: TaskType[];
  calls: TasksApi;
}

/** Create Remote Task (sensor-setup 2, 8): a type select filtered by the allowed types and limits, and one form per type. */
export function CreateTaskModal({ opened, onClose, sensor, unit, isSiteAdmin, queued, allowed, calls }: Props) {
  const machine = useMemo(() => createTaskMachine.provide({ actors: { create: fromPromise<unknown, CreateTaskRequest>(({ input }) => calls.create(input)) } }), [calls]);
  const [state, send] = useMachine(machine);
  const { taskType, formError, notice } = state.context;
  const busy = state.matches('submitting');

  useEffect(() => {
    if (opened) send({ type: 'OPEN', allowed });
    // reopening recomputes the allowed types; while open they stay as opened
  }, [opened, send]);
  // the machine closes itself (created, or CLOSE): the modal follows once it has been open
  const wasOpen = useRef(false);
  const closed = state.matches('closed');
  useEffect(() => {
    if (!closed) wasOpen.current = true;
    else if (wasOpen.current) {
      wasOpen.current = false;
      onClose();
    }
  }, [closed, onClose]);
  useEffect(() => {
    if (notice) notifications.show({ color: 'teal', message: notice, autoClose: 4000 });
  }, [notice]);

  const submit = (request: CreateTaskRequest) => send({ type: 'SUBMIT', request });
  const close = () => send({ type: 'CLOSE' });
  return (
    <Modal opened={opened} onClose={busy ? () => {} : close} title="Create Remote Task" centered size="lg">
      {state.matches('noTypes') ? (
        <Alert color="yellow">{TASK_MESSAGES.noTypeLeft}</Alert>
      ) : (
        <Stack>
          <Select
            label="Task type"
            data={state.context.allowed.map((t) => ({ value: t, label: taskTypeLabel(t, isSiteAdmin) }))}
            value={taskType}
            onChange={(v) => v && send({ type: 'SELECT_TYPE', taskType: v as TaskType })}
            allowDeselect={false}
            disabled={busy}
          />
          {formError && <Alert color="red">{formError}</Alert>}
          {taskType && <TaskForm key={taskType} type={taskType} sensor={sensor} unit={unit} isSiteAdmin={isSiteAdmin} queued={queued} busy={busy} calls={calls} onSubmit={submit} />}
        </Stack>
      )}
    </Modal>
  );
}

interface FormProps {
  type: TaskType;
  sensor: Sensor;
  unit: 'Metres' | 'Inches';
  isSiteAdmin: boolean;
  queued: DownlinkTask[];
  busy: boolean;
  calls: TasksApi;
  onSubmit(r: CreateTaskRequest): void;
}

function TaskForm({ type, sensor, unit, isSiteAdmin, queued, busy, calls, onSubmit }: FormProps) {
  switch (type) {
    case 'SensorConfig':
      return <ScheduleTaskForm sensor={sensor} busy={busy} onSubmit={onSubmit} />;
    case 'AlarmConfig':
      return <AlarmForm sensor={sensor} unit={unit} queued={queued} busy={busy} onSubmit={onSubmit} />;
    case 'ExtendedConfig':
      return <ExtendedForm sensor={sensor} busy={busy} isSiteAdmin={isSiteAdmin} onSubmit={onSubmit} />;
    case 'TransmissionConfig':
      return <TransmissionForm sensor={sensor} busy={busy} isSiteAdmin={isSiteAdmin} onSubmit={onSubmit} />;
    case 'RadarConfig':
      return <RadarForm sensor={sensor} busy={busy} isSiteAdmin={isSiteAdmin} onSubmit={onSubmit} />;
    case 'FullRadarConfig':
      return <FullRadarForm busy={busy} onSubmit={(params) => onSubmit({ type: 'FullRadarConfig', params })} />;
    case 'FirmwareDownload':
      return <FirmwareForm sensor={sensor} queued={queued} busy={busy} load={calls.firmware} onSubmit={onSubmit} />;
  }
}

function ScheduleTaskForm({ sensor, busy, onSubmit }: { sensor: Sensor; busy: boolean; onSubmit(r: CreateTaskRequest): void }) {
  const c = sensor.config;
  const [v, setV] = useState<ScheduleValue>({
    measurementInterval: c.measurementInterval,
    transmissionInterval: c.transmissionInterval,
    deltaCompressionEnabled: !!c.deltaCompressionEnabled,
    maxGradient: sensor.boundsFilter?.maxGradient ?? 150,
    txCountOnAlarm: undefined,
  });
  const ok = scheduleValid(sensor.radio.type, c.measurementInterval, v, false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!ok) return;
        const mi = v.measurementInterval!;
        onSubmit({ type: 'SensorConfig', params: { measurementInterval: mi, measurementsPerTransmission: v.transmissionInterval! / mi, maxGradient: v.maxGradient!, deltaCompressionEnabled: v.deltaCompressionEnabled } });
      }}
    >
      <Stack>
        <ScheduleFields radio={sensor.radio.type} currentMeasurement={c.measurementInterval} value={v} onChange={setV} withAlarmMode={false} disabled={busy} />
        <Button type="submit" loading={busy} disabled={!ok}>
          Create
        </Button>
      </Stack>
    </form>
  );
}
