import type { ReactNode } from 'react';
import { Badge, Group, Paper, Table, Text } from '@mantine/core';
import type { Sensor } from '../../contract/sensor.schema';
import { errorLabel } from '../../domain/measurement-errors';
import { batteryText, intervalText, measurementIntervalText } from '../../domain/sensor-format';
import { hardwareVersionText, moduleName, radioName, sensorTypeName } from '../../domain/sensor-types';
import { LINK_QUALITY_LABEL, signalQuality, signalText, type LinkQuality } from '../../domain/signal-quality';
import { formatTime, timeAgo, type TimeDisplay } from '../../domain/time-format';
import { FirmwarePopup } from './firmware-popup';
import { REFRESH, useNow } from './use-clock';

const QUALITY_COLOUR: Record<LinkQuality, string> = { EXCELLENT: 'teal', GOOD: 'green', AVERAGE: 'yellow', LIMIT: 'orange', OFFLINE: 'gray' };

interface SensorInfoTableProps {
  sensor: Sensor;
  isSiteAdmin: boolean;
  timeDisplay: TimeDisplay;
  timeZone: string;
}

/** The sensor info table; last seen refreshes every 30 s. */
export function SensorInfoTable({ sensor, isSiteAdmin, timeDisplay, timeZone }: SensorInfoTableProps) {
  const now = useNow(REFRESH.lastSeen);
  const d = sensor.latestData;
  const quality = d?.linkQuality ?? signalQuality(sensor.radio.type, d?.signalLevel);
  const fw = sensor.latestBootInfo?.firmwareVersion;
  const err = d?.lastMeasurementError;

  const rows: [string, ReactNode][] = [
    ['Sensor type', sensorTypeName(sensor.sensorType)],
    ['Module', moduleName(sensor.sensorType)],
    ['Serial', <Text key="s" span ff="monospace" size="sm">{sensor.serial}</Text>],
    ['Radio', radioName(sensor.radio)],
    [
      'Signal quality',
      quality ? (
        <Group key="q" gap={6} justify="flex-end">
          <Badge variant="light" color={QUALITY_COLOUR[quality]} size="sm">
            {LINK_QUALITY_LABEL[quality]}
          </Badge>
          <Text span size="sm" c="dimmed">
            {signalText(sensor.radio.type, d?.signalLevel)}
          </Text>
        </Group>
      ) : (
        'N/A'
      ),
    ],
    ['Battery', batteryText(d?.battery)],
    ['Last seen', d?.lastSeen ? <span key="l" title={formatTime(d.lastSeen, timeDisplay, timeZone, true)}>{timeAgo(d.lastSeen, now)}</span> : 'Never'],
    [
      'Firmware',
      <Group key="f" gap={6} justify="flex-end">
        <span>{typeof fw === 'number' && fw >= 0 ? `v${fw}` : 'N/A'}</span>
        {isSiteAdmin && <FirmwarePopup sensor={sensor} />}
      </Group>,
    ],
    ['Hardware version', hardwareVersionText(sensor.latestBootInfo?.hardwareVersion)],
    ['Measurement interval', measurementIntervalText(sensor.config.measurementInterval)],
    ['Transmission interval', intervalText(sensor.config.transmissionInterval)],
    ['Location', sensor.latitude !== null && sensor.longitude !== null ? `${sensor.latitude.toFixed(5)}, ${sensor.longitude.toFixed(5)}` : 'Not set'],
  ];
  if (err) rows.push(['Last measurement error', `${errorLabel(err.code, sensor.sensorType)} (${err.code}) · ${timeAgo(err.time, now)}`]);

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5} mb="xs">
        Sensor information
      </Text>
      <Table verticalSpacing={6} fz="sm" aria-label="Sensor information">
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th fw={500} c="dimmed" style={{ verticalAlign: 'top' }}>
                {k}
              </Table.Th>
              <Table.Td ta="right">{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
