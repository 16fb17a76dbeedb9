import { Alert, Box, Group, Paper, Progress, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClockHour4, IconHourglass, IconPlayerPause, IconRipple, IconShieldCheck, IconDroplet } from '@tabler/icons-react';
import type { Sensor } from '../../contract/sensor.schema';
import { formatLevel, intervalText, levelMm, levelPercent, measurementIntervalText, type MeasurementUnit } from '../../domain/sensor-format';
import { volumeLitres } from '../../domain/tank-volume';
import { formatTime, timeAgo, type TimeDisplay } from '../../domain/time-format';
import { REFRESH, useNow } from './use-clock';

export const HIGHLIGHT_MESSAGES = {
  alarmOnly: 'The sensor is in alarm only mode',
  waitingForConfig: 'Waiting for the configuration to come through',
  noMeasurements: "It looks like we haven't received any measurements from this sensor yet",
} as const;

interface HighlightPaneProps {
  sensor: Sensor;
  unit: MeasurementUnit;
  timeDisplay: TimeDisplay;
  timeZone: string;
}

const litres = new Intl.NumberFormat('en-NZ', { maximumFractionDigits: 0 });

/** Latest measurement and schedule (monitoring-client 2.5), refreshed every 60 s. */
export function HighlightPane({ sensor, unit, timeDisplay, timeZone }: HighlightPaneProps) {
  const now = useNow(REFRESH.highlight);
  const last = sensor.latestData?.lastMeasurement;
  const level = last ? levelMm(sensor, last.rawDistance) : undefined;
  const percent = level === undefined ? undefined : levelPercent(sensor, level);
  const volume = level === undefined ? undefined : volumeLitres(sensor.conversionConfigs[0], level / 1000);
  const { config } = sensor;
  const alarmOnly = config.schedulerEnabled && config.measurementTransmissionEnabled === false;
  const pending = sensor.pendingConfig && Object.keys(sensor.pendingConfig).length > 0;
  const lastTx = sensor.latestData?.lastMeasurementTransmission;
  const nextTx = lastTx && config.schedulerEnabled && !alarmOnly ? lastTx + config.transmissionInterval * 60_000 : undefined;

  // one row on a laptop (the measurement beside its time and the schedule), stacked on a phone: the
  // pane stays short so that the chart below it is on the first screen (docs/architecture.md, Layout)
  return (
    <Paper withBorder radius="lg" px="lg" py="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
        <Box>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5} mb={6}>
            Latest measurement
          </Text>
          {last && level !== undefined ? (
            <Box>
              <Group gap="xs" align="baseline">
                <Text fz={40} fw={700} lh={1} data-testid="latest-level">
                  {formatLevel(level, unit)}
                </Text>
                {percent !== undefined && (
                  <Text fz="lg" c="dimmed" fw={600}>
                    {Math.round(percent)}%
                  </Text>
                )}
              </Group>
              {percent !== undefined && <Progress value={Math.max(0, Math.min(100, percent))} mt="sm" size="md" radius="xl" aria-label="Level of the display range" />}
            </Box>
          ) : (
            <Alert variant="light" color="gray" icon={<IconRipple size={18} />}>
              {HIGHLIGHT_MESSAGES.noMeasurements}
            </Alert>
          )}
        </Box>
        <Stack gap={6} justify="flex-end">
          {last && level !== undefined && (
            <>
              {volume !== undefined && (
                <Group gap={6}>
                  <IconDroplet size={16} color="var(--mantine-color-blue-6)" />
                  <Text size="sm">{litres.format(volume)} L</Text>
                </Group>
              )}
              <Text size="sm" c="dimmed">
                Measured {timeAgo(last.time, now)} · {formatTime(last.time, timeDisplay, timeZone)}
              </Text>
            </>
          )}
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.5} mt={4}>
            Schedule
          </Text>
          {!config.schedulerEnabled ? (
            <Group gap="xs" wrap="nowrap">
              <ThemeIcon variant="light" color="gray" radius="xl" size="sm">
                <IconPlayerPause size={14} />
              </ThemeIcon>
              <Text size="sm">The scheduler is off: the sensor is disabled.</Text>
            </Group>
          ) : (
            <>
              <Group gap="xs" wrap="nowrap">
                <ThemeIcon variant="light" radius="xl" size="sm">
                  <IconClockHour4 size={14} />
                </ThemeIcon>
                <Text size="sm">
                  Measures every {measurementIntervalText(config.measurementInterval)}
                  {alarmOnly ? '' : `, reports every ${intervalText(config.transmissionInterval)}`}
                </Text>
              </Group>
              {nextTx !== undefined && (
                <Text size="xs" c="dimmed" pl={30}>
                  {nextTx > now - 60_000 ? `Next report expected ${nextTx > now ? timeAgo(nextTx, now) : 'now'}` : `A report was expected ${timeAgo(nextTx, now)}`}
                </Text>
              )}
              {alarmOnly && (
                <Alert variant="light" color="blue" icon={<IconShieldCheck size={18} />} p="xs">
                  {HIGHLIGHT_MESSAGES.alarmOnly}
                </Alert>
              )}
            </>
          )}
          {pending && (
            <Alert variant="light" color="yellow" icon={<IconHourglass size={18} />} p="xs">
              {HIGHLIGHT_MESSAGES.waitingForConfig}
            </Alert>
          )}
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
