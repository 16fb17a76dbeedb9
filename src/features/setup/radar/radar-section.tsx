import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { radarConfigMachine, type RadarLoad } from '../../../../machines/radar-config.machine';
import type { FullRadarParams, RadarSettings } from '../../../contract/downlink-task.schema';
import type { SectionProps } from '../section-types';
import { blockerMessage, remoteTasksBlocker, TASK_MESSAGES, typePermitted, underLimit } from '../../../domain/remote-tasks';
import { PEAK_SORTING, THRESHOLD_TYPE } from '../../../domain/task-params';
import { formatTime } from '../../../domain/time-format';
import { isLiveConnected, onLiveStatus, subscribeDownlinkTasks } from '../../../shared/live';
import { tasksApi } from '../remote-tasks/tasks-api';
import { COMPLETED_LIMIT, POLL_MS } from '../remote-tasks/use-remote-tasks';
import { FullRadarForm } from './full-radar-form';

const yesNo = (b: boolean) => (b ? 'On' : 'Off');
/** 'StrongestFlatReflectorFirst' as 'Strongest Flat Reflector First' (it wraps on a phone). */
const words = (name: string | undefined, raw: number) => (name ? name.replace(/(?<=[a-z])(?=[A-Z])/g, ' ') : String(raw));
/** The settings as rows of label and value (sensor-setup 3 option names, 9 defaults' units). */
function settingRows(s: FullRadarParams): [string, string][] {
  return [
    ['Gain', String(s.gain)],
    ['Profile', String(s.profile)],
    ['Start distance', `${s.startDistance} m`],
    ['End distance', `${s.endDistance} m`],
    ['Length', `${s.length} m`],
    ['Hardware average', String(s.hwAvg)],
    ['Threshold type', words(THRESHOLD_TYPE[s.thresholdType], s.thresholdType)],
    ['Peak sorting', words(PEAK_SORTING[s.peakSorting], s.peakSorting)],
    ['Noise normalization', yesNo(s.noiseNormalization)],
    ['Running average factor', String(s.runningAvgFactor)],
    ['Sweep count', String(s.sweepCount)],
    ['High accuracy scan', yesNo(s.highAccuracyScan)],
    ['Interference check', yesNo(s.interferenceCheck)],
  ];
}

function CurrentSettings({ current, timeZone }: { current: RadarSettings | null; timeZone: string }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="radar-current">
      <Title order={2} size="h5" id="radar-current" mb="xs">
        Current radar settings
      </Title>
      {current ? (
        <>
          <Text size="sm" mb="xs">
            {current.source === 'task' ? 'Applied by a remote task' : 'Reported by the sensor'} on {formatTime(current.updatedAt, 'Friendly', timeZone, true)}
          </Text>
          <Table data-testid="radar-current" striped withRowBorders={false} fz="sm">
            <Table.Tbody>
              {settingRows(current.settings).map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" fw={500} w="45%">
                    {label}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      ) : (
        <Text size="sm" data-testid="radar-current">
          Not known yet: the settings are recorded when a full radar configuration task succeeds, or when the sensor reports them after a restart.
        </Text>
      )}
    </Paper>
  );
}

/**
 * Radar Config (sensor-setup 2, 6; site admins, radar sensors): the sensor's current radar settings
 * and the full radar configuration sent as a FullRadarConfig task. Its calls go through
 * machines/radar-config.machine.ts; task changes (live, or polled every 60 s while live is down) reload it.
 */
export default function RadarSection({ sensor, org, isSiteAdmin, onSaved }: SectionProps) {
  const calls = useMemo(() => tasksApi(org.id, sensor.id), [org.id, sensor.id]);
  const machine = useMemo(
    () =>
      radarConfigMachine.provide({
        actors: {
          load: fromPromise<RadarLoad>(async () => {
            const [settings, list] = await Promise.all([calls.radarSettings(), calls.list(COMPLETED_LIMIT)]);
            return { settings, queued: !underLimit('FullRadarConfig', list.queued) };
          }),
          create: fromPromise<unknown, FullRadarParams>(({ input }) => calls.create({ type: 'FullRadarConfig', params: input })),
        },
      }),
    [calls],
  );
  const [state, send] = useMachine(machine);
  const { settings, queued, notice, error, results, loaded } = state.context;

  const sensorUpdated = useRef(onSaved);
  sensorUpdated.current = onSaved;
  useEffect(
    () =>
      subscribeDownlinkTasks(org.id, sensor.id, (msg) => {
        sensorUpdated.current(msg.sensor);
        send({ type: 'REFRESH' });
      }),
    [org.id, sensor.id, send],
  );
  const live = useSyncExternalStore(onLiveStatus, isLiveConnected);
  useEffect(() => {
    if (live) return;
    const id = setInterval(() => send({ type: 'REFRESH' }), POLL_MS);
    return () => clearInterval(id);
  }, [live, send]);

  useEffect(() => {
    if (notice) notifications.show({ color: 'teal', message: notice, autoClose: 4000 });
    else if (error) notifications.show({ color: 'red', message: error, autoClose: 4000 });
    // each submission result shows once, even when it repeats the last one
  }, [results, notice, error]);

  const blocker = remoteTasksBlocker(sensor);
  if (blocker) return <Alert color="yellow">{blockerMessage(blocker)}</Alert>;
  if (!typePermitted('FullRadarConfig', sensor, isSiteAdmin)) return <Alert color="yellow">The sensor's firmware does not support radar configuration.</Alert>;
  if (state.matches('loadFailed')) {
    return (
      <Alert color="red">
        <Group justify="space-between">
          <span>{TASK_MESSAGES.loadFailed}</span>
          <Button variant="white" size="xs" onClick={() => send({ type: 'RETRY' })}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  if (!loaded) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading radar settings" />
      </Center>
    );
  }
  const busy = state.matches('submitting');
  const queuedText = 'A full radar configuration is already queued for this sensor; cancel it under Remote Tasks to send another.';
  return (
    <Stack>
      <CurrentSettings current={settings} timeZone={org.locale.timezone} />
      <Paper withBorder p="md" component="section" aria-labelledby="radar-new">
        <Title order={2} size="h5" id="radar-new" mb={4}>
          New radar configuration
        </Title>
        <Text size="sm" mb="sm">
          The settings are sent to the sensor as a remote task and apply when it next checks in. The form starts from the current settings when they are known, else from the radar's factory defaults.
        </Text>
        {queued && (
          <Alert color="blue" mb="sm">
            {queuedText}
          </Alert>
        )}
        <FullRadarForm busy={busy} initial={settings?.settings} disabledReason={queued ? queuedText : undefined} onSubmit={(params) => send({ type: 'SUBMIT', params })} />
      </Paper>
    </Stack>
  );
}
