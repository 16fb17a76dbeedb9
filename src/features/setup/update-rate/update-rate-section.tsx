import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Modal, Radio, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { isBusy, updateRateSaveMachine, type SaveRequest } from '../../../../machines/update-rate-save.machine';
import type { CreateTaskRequest } from '../../../contract/downlink-task.schema';
import type { SectionProps } from '../section-types';
import { blockerMessage, remoteTasksBlocker, typePermitted } from '../../../domain/remote-tasks';
import { intervalText } from '../../../domain/sensor-format';
import { isTankFamily } from '../../../domain/tank-form';
import { rangeOf } from '../../../domain/task-params';
import { maxPerTransmission, SIMPLE_MEASUREMENT, simpleTransmissions } from '../../../domain/update-rate';
import { useRemoteTasks } from '../remote-tasks/use-remote-tasks';
import { ScheduleFields, scheduleValid, type ScheduleValue } from './schedule-fields';


export const SATELLITE_TEXT =
  'Satellite sensors transmit on a schedule set when they are installed: the measurement and transmission intervals cannot be changed remotely. Contact support to change them.';

/** Why simple mode offers nothing: its 15-minute measurements over 6, 4 or 2 hours exceed the per-transmission limit. */
export const simpleNoneText = (delta: boolean) =>
  `Simple mode's choices (15-minute measurements sent every 6, 4 or 2 hours) exceed this sensor's limit of ${maxPerTransmission(delta)} measurements per transmission${delta ? '' : ' (12 with delta compression)'}. Turn off simple mode to change the update rate.`;

/** Update Rate (sensor-setup 2, 4, 5, 9): the scheduler form or simple mode, saved as remote tasks through the save machine. */
export default function UpdateRateSection({ sensor, org, isSiteAdmin, onSaved }: SectionProps) {
  const c = sensor.config;
  if (sensor.radio.type === 'myriota') {
    return (
      <Stack>
        <Alert color="blue">{SATELLITE_TEXT}</Alert>
        <Text size="sm">
          Measuring every {intervalText(c.measurementInterval)}, transmitting every {intervalText(c.transmissionInterval)}.
        </Text>
      </Stack>
    );
  }
  return <ScheduleEditor sensor={sensor} org={org} isSiteAdmin={isSiteAdmin} onSaved={onSaved} />;
}

function ScheduleEditor({ sensor, org, isSiteAdmin, onSaved }: Pick<SectionProps, 'sensor' | 'org' | 'isSiteAdmin' | 'onSaved'>) {
  const c = sensor.config;
  const { state: tasks, calls, reload } = useRemoteTasks(org.id, sensor, onSaved);
  const withAlarmMode = typePermitted('ExtendedConfig', sensor, isSiteAdmin);
  const initial: ScheduleValue = {
    measurementInterval: c.measurementInterval,
    transmissionInterval: c.transmissionInterval,
    deltaCompressionEnabled: !!c.deltaCompressionEnabled,
    maxGradient: sensor.boundsFilter?.maxGradient ?? 150,
    txCountOnAlarm: c.txCountOnAlarm ?? 1,
  };
  const [v, setV] = useState(initial);
  const [simple, setSimple] = useState(isTankFamily(sensor.sensorType));
  // simple mode starts on the sensor's own schedule: a choice is selected only when it is the one running
  const simpleChoices = simpleTransmissions(sensor.radio.type, initial.deltaCompressionEnabled);
  const [simpleChoice, setSimpleChoice] = useState(c.measurementInterval === SIMPLE_MEASUREMENT && simpleChoices.includes(c.transmissionInterval) ? c.transmissionInterval : undefined);
  const blocker = remoteTasksBlocker(sensor);

  const machine = useMemo(
    () =>
      updateRateSaveMachine.provide({
        actors: {
          cancelTasks: fromPromise<unknown, string[]>(async ({ input }) => {
            for (const id of input) await calls.cancel(id);
          }),
          save: fromPromise<unknown, SaveRequest>(async ({ input }) => {
            await calls.putPending(input.pending);
            try {
              for (const t of input.tasks) await calls.create(t);
            } catch (err) {
              await calls.deletePending().catch(() => {}); // all or nothing: no banner for changes never queued
              throw err;
            }
            onSaved({ ...sensor, pendingConfig: input.pending });
          }),
          discard: fromPromise<unknown, void>(async () => {
            await calls.deletePending();
            onSaved({ ...sensor, pendingConfig: null });
          }),
        },
      }),
    [calls, onSaved, sensor],
  );
  const [save, send] = useMachine(machine);
  const notice = save.context.notice;
  useEffect(() => {
    if (!notice) return;
    notifications.show({ color: notice.kind === 'success' ? 'teal' : 'red', message: notice.text, autoClose: 4000 });
    void reload();
  }, [notice, reload]);

  // simple mode: 15-minute measurements, transmission every 6, 4 or 2 hours where the rules allow; unchosen, the schedule stays as it is
  const value: ScheduleValue = simple ? (simpleChoice ? { ...initial, measurementInterval: SIMPLE_MEASUREMENT, transmissionInterval: simpleChoice } : initial) : v;
  const schedChanged =
    value.measurementInterval !== initial.measurementInterval ||
    value.transmissionInterval !== initial.transmissionInterval ||
    value.deltaCompressionEnabled !== initial.deltaCompressionEnabled ||
    value.maxGradient !== initial.maxGradient;
  // with no alarm-mode option left (transmission = measurement) the alarm mode is not sent
  const alarmChanged = withAlarmMode && !simple && value.txCountOnAlarm !== undefined && value.txCountOnAlarm !== initial.txCountOnAlarm;
  const valid = scheduleValid(sensor.radio.type, c.measurementInterval, value, withAlarmMode && !simple);
  const busy = isBusy(save);
  const canSave = (schedChanged || alarmChanged) && valid && !busy && !blocker && tasks.status === 'ready';

  const submit = () => {
    if (!canSave || tasks.status !== 'ready') return;
    const mi = value.measurementInterval!;
    const ti = value.transmissionInterval!;
    const out: CreateTaskRequest[] = [];
    if (schedChanged) out.push({ type: 'SensorConfig', params: { measurementInterval: mi, measurementsPerTransmission: ti / mi, maxGradient: value.maxGradient!, deltaCompressionEnabled: value.deltaCompressionEnabled } });
    if (alarmChanged) {
      const r = sensor.rangeConfig;
      const range = rangeOf(sensor.sensorType);
      out.push({ type: 'ExtendedConfig', params: { txCountOnAlarm: value.txCountOnAlarm!, userRangeEnabled: r?.enabled ?? false, userRangeMin: r?.min ?? range.min + 1, userRangeMax: r?.max ?? range.max - 1 } });
    }
    const pendingTaskIds = tasks.list.queued.filter((t) => t.type === 'SensorConfig' || t.type === 'ExtendedConfig').map((t) => t.id);
    const pending = { measurementInterval: mi, transmissionInterval: ti, measurementsPerTransmission: ti / mi, deltaCompressionEnabled: value.deltaCompressionEnabled, maxGradient: value.maxGradient, ...(alarmChanged ? { txCountOnAlarm: value.txCountOnAlarm } : {}) };
    send({ type: 'SAVE', request: { pending, tasks: out }, pendingTaskIds });
  };

  const pending = sensor.pendingConfig as { measurementInterval?: number; transmissionInterval?: number } | null | undefined;
  return (
    <Stack>
      {blocker && <Alert color="yellow">{blockerMessage(blocker)}</Alert>}
      {pending?.measurementInterval && (
        <Alert color="blue" title="Changes pending" data-testid="pending-banner">
          <Group justify="space-between" align="center">
            <Text size="sm">
              Measure every {intervalText(pending.measurementInterval)}, transmit every {intervalText(pending.transmissionInterval ?? 0)}: applied when the sensor next checks in.
            </Text>
            <Button size="xs" variant="default" onClick={() => send({ type: 'DISCARD' })} disabled={busy}>
              Cancel
            </Button>
          </Group>
        </Alert>
      )}
      {isTankFamily(sensor.sensorType) && <Switch label="Simple mode" checked={simple} onChange={(e) => setSimple(e.currentTarget.checked)} />}
      {simple ? (
        <Stack gap="xs">
          <Text size="sm" data-testid="simple-current">
            Now measuring every {intervalText(c.measurementInterval)} and sending every {intervalText(c.transmissionInterval)}.
          </Text>
          {simpleChoices.length ? (
            <Radio.Group label="Send readings every" description="Measured every 15 minutes" value={simpleChoice ? String(simpleChoice) : null} onChange={(x) => setSimpleChoice(Number(x))}>
              <Stack gap={6} mt="xs">
                {simpleChoices.map((t) => (
                  <Radio key={t} value={String(t)} label={intervalText(t)} disabled={busy} />
                ))}
              </Stack>
            </Radio.Group>
          ) : (
            <Alert color="yellow" data-testid="simple-none">
              {simpleNoneText(initial.deltaCompressionEnabled)}
            </Alert>
          )}
        </Stack>
      ) : (
        <ScheduleFields radio={sensor.radio.type} currentMeasurement={c.measurementInterval} value={value} onChange={setV} withAlarmMode={withAlarmMode} disabled={busy} />
      )}
      <Group>
        <Button onClick={submit} disabled={!canSave} loading={busy}>
          Save
        </Button>
      </Group>
      <Modal opened={save.matches('confirming')} onClose={() => send({ type: 'CLOSE' })} title="Changes already scheduled" centered>
        <Text mb="md">There are changes already scheduled for this sensor. Update them with these settings?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => send({ type: 'CLOSE' })}>
            Close
          </Button>
          <Button onClick={() => send({ type: 'UPDATE_CHANGES' })}>Update changes</Button>
        </Group>
      </Modal>
      <Modal opened={save.matches('confirmingDiscard')} onClose={() => send({ type: 'NO' })} title="Cancel pending changes" centered>
        <Text mb="md">Cancel the scheduled changes to this sensor's update rate?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => send({ type: 'NO' })}>
            No, keep changes
          </Button>
          <Button color="red" onClick={() => send({ type: 'YES' })}>
            Yes, cancel changes
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
