import { Code, Stack, Table, Text } from '@mantine/core';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';
import { ALARM_TYPE_LABEL } from '../../../domain/task-params';
import { PEAK_SORTING, THRESHOLD_TYPE } from '../../../domain/task-params';
import { formatSetupTime } from '../../../domain/time-format';
import { formatLevel, intervalText, type MeasurementUnit } from '../../../domain/sensor-format';
import { useSession } from '../../../shared/session';


/** An alarm's value as the tabs show it: a level or a change in the organisation's unit, movement on the device's 1-255 scale. */
const alarmValueText = (v: { type: keyof typeof ALARM_TYPE_LABEL; threshold: number }, unit: MeasurementUnit) =>
  v.type === 'ACCELEROMETER' ? String(v.threshold) : v.type.startsWith('DELTA') ? `${formatLevel(v.threshold, unit)} per hour` : formatLevel(v.threshold, unit);

/** One line saying what the task changes, lengths in the organisation's unit. */
export function taskDescription(t: DownlinkTask, unit: MeasurementUnit = 'Metres'): string {
  const p = t.params as Record<string, unknown>;
  switch (t.type) {
    case 'SensorConfig': {
      const mi = Number(p.measurementInterval);
      return `Measure every ${intervalText(mi)}, transmit every ${intervalText(mi * Number(p.measurementsPerTransmission))}${p.deltaCompressionEnabled ? ', delta compression on' : ''}`;
    }
    case 'AlarmConfig': {
      const v = p.value as { type: keyof typeof ALARM_TYPE_LABEL; enabled: boolean; threshold: number };
      return `Alarm ${Number(p.index) + 1}: ${ALARM_TYPE_LABEL[v.type] ?? v.type} ${v.enabled ? `at ${alarmValueText(v, unit)}` : 'disabled'}`;
    }
    case 'ExtendedConfig':
      return `Transmit every ${p.txCountOnAlarm} measurement${Number(p.txCountOnAlarm) > 1 ? 's' : ''} while an alarm is active`;
    case 'TransmissionConfig':
      return p.additionalRadarDataEnabled ? `Extra radar data from a starting level of ${formatLevel(Number(p.startingLevelMm), unit)}` : 'Extra radar data off';
    case 'FirmwareDownload':
      return p.fwName ? `Download and install ${firmwareText(p)}` : 'Download and install new firmware';
    case 'RadarConfig':
      return 'New radar configuration';
    case 'FullRadarConfig':
      return `Radar ${p.startDistance} m to ${p.endDistance} m, ${THRESHOLD_TYPE[Number(p.thresholdType)] ?? ''} threshold, ${PEAK_SORTING[Number(p.peakSorting)] ?? ''}`;
    default:
      return '';
  }
}

/** A firmware task's firmware as the firmware list names it: name, type and version. */
const firmwareText = (p: Record<string, unknown>) => `${String(p.fwName)} (${String(p.fwType)} v${String(p.fwVersion)})`;
/** Parameters said within another row (the firmware's name and version, in its Firmware row). */
const FOLDED_PARAMS = new Set(['fwName', 'fwType', 'fwVersion']);

/** Labels of the task parameters; the mm ones are shown in the organisation's unit. */
const PARAM_LABELS: Record<string, string> = {
  measurementInterval: 'Measurement interval',
  measurementsPerTransmission: 'Measurements per transmission',
  maxGradient: 'Maximum gradient',
  deltaCompressionEnabled: 'Delta compression',
  index: 'Alarm slot',
  value: 'New alarm',
  original: 'Previous alarm',
  fwId: 'Firmware',
  txCountOnAlarm: 'Measurements per transmission while an alarm is active',
  userRangeEnabled: 'User range',
  userRangeMin: 'User range minimum',
  userRangeMax: 'User range maximum',
  additionalRadarDataEnabled: 'Extra radar data',
  startingLevelMm: 'Starting level',
};
const MM_PARAMS = new Set(['maxGradient', 'userRangeMin', 'userRangeMax', 'startingLevelMm']);

/** The task's parameters as label and readable value (sensor-setup 2's row details). */
export function taskParamRows(t: DownlinkTask, unit: MeasurementUnit): [string, string][] {
  return Object.entries(t.params).filter(([k]) => !FOLDED_PARAMS.has(k)).map(([k, v]) => {
    const label = PARAM_LABELS[k] ?? k;
    if (k === 'fwId' && t.params.fwName) return [label, firmwareText(t.params)];
    if (v === null || v === undefined) return [label, 'None'];
    if (typeof v === 'boolean') return [label, v ? 'On' : 'Off'];
    if (k === 'measurementInterval') return [label, intervalText(Number(v))];
    if (k === 'index') return [label, String(Number(v) + 1)];
    if (MM_PARAMS.has(k) && typeof v === 'number') return [label, formatLevel(v, unit)];
    if (typeof v === 'object' && 'type' in v && 'threshold' in v) {
      const a = v as { type: keyof typeof ALARM_TYPE_LABEL; threshold: number; enabled: boolean };
      return [label, `${ALARM_TYPE_LABEL[a.type] ?? a.type} at ${alarmValueText(a, unit)}, ${a.enabled ? 'enabled' : 'disabled'}`];
    }
    return [label, typeof v === 'object' ? JSON.stringify(v) : String(v)];
  });
}

/** Why a task failed: the device's own words when it gave them, else what the status means. */
export function failureText(t: DownlinkTask): string {
  if (t.status === 'Timeout') return 'The sensor did not report the task within 3 days of receiving it.';
  return t.reason ? `The sensor reported: ${t.reason}` : 'The sensor reported that it could not apply the task; it gave no reason.';
}

interface Props {
  task: DownlinkTask;
  timeZone: string;
  unit: MeasurementUnit;
  isSiteAdmin: boolean;
  /** The estimate text of a queued task. */
  estimate?: string;
}

/** The row details table (sensor-setup 2): created at, estimate or completed time, description and details. */
export function TaskDetails({ task, timeZone, unit, isSiteAdmin, estimate }: Props) {
  const done = task.endedAt !== null;
  const { user } = useSession();
  const DATE = (t: number, tz: string) => formatSetupTime(t, user.displaySettings.timeDisplay, tz);
  // FullRadarConfig shows its raw params; radar details are for site admins
  const showParams = task.type !== 'RadarConfig' || isSiteAdmin;
  return (
    <Table withRowBorders={false} verticalSpacing={4} fz="sm" data-testid="task-details">
      <Table.Tbody>
        <Table.Tr>
          <Table.Th w={180}>Created at</Table.Th>
          <Table.Td>{DATE(task.createdAt, timeZone)}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>{done ? 'Completed time' : 'Estimated time to apply'}</Table.Th>
          <Table.Td>{done ? DATE(task.endedAt!, timeZone) : task.status === 'Dispatched' ? 'Executing...' : estimate}</Table.Td>
        </Table.Tr>
        {(task.status === 'Error' || task.status === 'Timeout') && (
          <Table.Tr>
            <Table.Th>Why it failed</Table.Th>
            <Table.Td>{failureText(task)}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr>
          <Table.Th>Description</Table.Th>
          <Table.Td>{taskDescription(task, unit)}</Table.Td>
        </Table.Tr>
        {showParams && (
          <Table.Tr>
            <Table.Th>Details</Table.Th>
            <Table.Td>
              {/* FullRadarConfig keeps its raw params (sensor-setup 3); the others read with labels and units */}
              {task.type === 'FullRadarConfig' ? (
                <Code block style={{ whiteSpace: 'pre-wrap', maxWidth: '100%' }}>
                  {Object.entries(task.params)
                    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                    .join('\n')}
                </Code>
              ) : (
                <Stack gap={2} data-testid="task-params">
                  {taskParamRows(task, unit).map(([label, value]) => (
                    <Text size="sm" key={label}>
                      {label}: {value}
                    </Text>
                  ))}
                </Stack>
              )}
            </Table.Td>
          </Table.Tr>
        )}
        {!showParams && (
          <Table.Tr>
            <Table.Th>Details</Table.Th>
            <Table.Td>
              <Text size="sm" c="dimmed">
                Radar settings
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  );
}
