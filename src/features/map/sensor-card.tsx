import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Anchor, CloseButton, ColorSwatch, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';
import { MAP_CARD_TIMEOUT_MS } from '../../domain/map-view';
import { latestLevelText, type MeasurementUnit } from '../../domain/sensor-format';
import { displayStatus, STATUS_COLOUR, STATUS_LABEL } from '../../domain/sensor-status';
import type { SensorSummary } from '../../domain/sensor-summary';
import { formatTime, timeAgo, type TimeDisplay } from '../../domain/time-format';

interface SensorCardProps {
  sensor: SensorSummary;
  unit: MeasurementUnit;
  timeDisplay: TimeDisplay;
  timeZone: string;
  dashboardHref: string;
  now: number;
  onHide(): void;
}

/**
 * The selected sensor's info card (monitoring-client 2.8). It hides 5 s after it is shown (the
 * spec's info card timeout); while the pointer is over it or the keyboard focus is in it the
 * countdown waits, and starts afresh when they leave.
 */
export function SensorCard({ sensor, unit, timeDisplay, timeZone, dashboardHref, now, onHide }: SensorCardProps) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hide = useRef(onHide);
  hide.current = onHide;
  const held = useRef({ pointer: false, focus: false });
  const countdown = () => {
    clearTimeout(timer.current);
    if (!held.current.pointer && !held.current.focus) timer.current = setTimeout(() => hide.current(), MAP_CARD_TIMEOUT_MS);
  };
  const hold = (what: 'pointer' | 'focus', on: boolean) => {
    held.current[what] = on;
    countdown();
  };
  // each selection (and the first) shows the card for the full timeout (countdown reads refs only)
  useEffect(() => {
    countdown();
    return () => clearTimeout(timer.current);
  }, [sensor.serial]);

  const status = displayStatus(sensor);
  const seen = sensor.latestData?.lastSeen;
  const rows: [string, React.ReactNode][] = [
    ['Serial', <Text key="s" ff="monospace" size="sm">{sensor.serial}</Text>],
    ['Level', latestLevelText(sensor, unit) ?? 'No data'],
    [
      'Status',
      <Group key="st" gap={6} wrap="nowrap">
        <ColorSwatch color={`var(--mantine-color-${STATUS_COLOUR[status]}-6)`} size={12} withShadow={false} />
        <span data-status={status}>{STATUS_LABEL[status]}</span>
      </Group>,
    ],
    ['Last seen', seen ? <span key="l" title={formatTime(seen, timeDisplay, timeZone, true)}>{timeAgo(seen, now)}</span> : 'Never'],
  ];

  return (
    <Paper
      shadow="md"
      p="md"
      withBorder
      w={300}
      maw="calc(100vw - 24px)"
      role="dialog"
      aria-label={`${sensor.name} details`}
      data-testid="sensor-card"
      onMouseEnter={() => hold('pointer', true)}
      onMouseLeave={() => hold('pointer', false)}
      onFocus={() => hold('focus', true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold('focus', false);
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={650} lh={1.3}>
            {sensor.name}
          </Text>
          <CloseButton size="sm" aria-label="Close sensor details" onClick={() => hide.current()} />
        </Group>
        <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} fz="sm">
          <Table.Tbody>
            {rows.map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Td c="dimmed" w={90}>
                  {k}
                </Table.Td>
                <Table.Td>{v}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Anchor component={Link} to={dashboardHref} size="sm" fw={600}>
          <Group gap={4}>
            <IconChartLine size={16} /> Open dashboard
          </Group>
        </Anchor>
      </Stack>
    </Paper>
  );
}
