import { Code, Table, Text } from '@mantine/core';
import type { DownlinkTask } from '../../../contract/downlink-task.schema';
import { ALARM_TYPE_LABEL } from '../../../domain/task-params';
import { PEAK_SORTING, THRESHOLD_TYPE } from '../../../domain/task-params';
import { formatTime } from '../../../domain/time-format';
import { intervalText } from '../../../domain/sensor-format';
import { useSession } from '../../../shared/session';


/** One line saying what the task changes. */
export function taskDescription(t: DownlinkTask): string {
  const p = t.params as Record<string, unknown>;
  switch (t.type) {
    case 'SensorConfig': {
      const mi = Number(p.measurementInterval);
      return `Measure every ${intervalText(mi)}, transmit every ${intervalText(mi * Number(p.measurementsPerTransmission))}${p.deltaCompressionEnabled ? ', delta compression on' : ''}`;
    }
    case 'AlarmConfig': {
      const v = p.value as { type: keyof typeof ALARM_TYPE_LABEL; enabled: boolean; threshold: number };
      // thresholds are mm of level (a movement threshold is the device's 0-255 reading)
      return `Alarm ${Number(p.index) + 1}: ${ALARM_TYPE_LABEL[v.type] ?? v.type} ${v.enabled ? `at ${v.threshold}${v.type === 'ACCELEROMETER' ? '' : ' mm'}` : 'disabled'}`;
    }
    case 'ExtendedConfig':
      return `Transmit every ${p.txCountOnAlarm} measurement${Number(p.txCountOnAlarm) > 1 ? 's' : ''} while an alarm is active`;
    case 'TransmissionConfig':
      return p.additionalRadarDataEnabled ? `Extra radar data from a starting level of ${p.startingLevelMm} mm` : 'Extra radar data off';
    case 'FirmwareDownload':
      return 'Download and install new firmware';
    case 'RadarConfig':
      return 'New radar configuration';
    case 'FullRadarConfig':
      return `Radar ${p.startDistance} m to ${p.endDistance} m, ${THRESHOLD_TYPE[Number(p.thresholdType)] ?? ''} threshold, ${PEAK_SORTING[Number(p.peakSorting)] ?? ''}`;
    default:
      return '';
  }
}

interface Props {
  task: DownlinkTask;
  timeZone: string;
  isSiteAdmin: boolean;
  /** The estimate text of a queued task. */
  estimate?: string;
}

/** The row details table (sensor-setup 2): created at, estimate or completed time, description and details. */
export function TaskDetails({ task, timeZone, isSiteAdmin, estimate }: Props) {
  const done = task.endedAt !== null;
  const { user } = useSession();
  const DATE = (t: number, tz: string) => formatTime(t, user.displaySettings.timeDisplay, tz, true);
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
        <Table.Tr>
          <Table.Th>Description</Table.Th>
          <Table.Td>{taskDescription(task)}</Table.Td>
        </Table.Tr>
        {showParams && (
          <Table.Tr>
            <Table.Th>Details</Table.Th>
            <Table.Td>
              <Code block style={{ whiteSpace: 'pre-wrap', maxWidth: '100%' }}>
                {Object.entries(task.params)
                  .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
                  .join('\n')}
              </Code>
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
