import { Box, Button, Center, Group, Loader, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconChartLine, IconPlayerRecordFilled } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import type { ChartContext, ChartEvent } from '../../../machines/chart.machine';
import type { Guide } from './chart-scales';
import { UplotChart } from './uplot-chart';

export type ChartStatus = 'loading' | 'drawing' | 'ready' | 'empty' | 'failed';

export interface ChartBodyProps {
  height: number;
  status: ChartStatus;
  context: ChartContext;
  guides: readonly Guide[];
  unit: string;
  axisLabel: string;
  decimals: number;
  timeZone: string;
  send(e: ChartEvent): void;
}

const count = new Intl.NumberFormat('en-NZ');

/** The plot with what surrounds it: progress while chunks arrive, the messages, a caption. */
export function ChartBody({ height, status, context: c, guides, unit, axisLabel, decimals, timeZone, send }: ChartBodyProps) {
  const showOverlay = status === 'loading' || status === 'failed' || status === 'empty' || (status === 'drawing' && !c.view);
  const when = (ms: number, fmt: string) => DateTime.fromMillis(ms, { zone: timeZone }).toFormat(fmt);
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" mih={20}>
        <Text size="xs" c="dimmed" data-testid="chart-caption">
          {axisLabel}
          {c.view && c.shown && status !== 'loading' && (
            <>
              {' · '}
              {count.format(c.view.rawPoints)} measurements
              {c.zoom && ` · zoomed to ${when(c.zoom.start, 'd LLL HH:mm')} – ${when(c.zoom.end, c.zoom.end - c.zoom.start < 86_400_000 ? 'HH:mm' : 'd LLL HH:mm')}`}
            </>
          )}
        </Text>
        {c.viewMode === 'live' && (
          <Group gap={4}>
            <IconPlayerRecordFilled size={10} color="var(--mantine-color-red-6)" />
            <Text size="xs" c="dimmed">
              Live · last hour
            </Text>
          </Group>
        )}
        {c.exportError && (
          <Text size="xs" c="red" role="alert">
            {c.exportError}
          </Text>
        )}
      </Group>
      <Box pos="relative" h={height}>
        <UplotChart
          height={height}
          data={c.view}
          xWindow={c.shown}
          yZoom={c.yZoom}
          guides={guides}
          limitsInRange={c.dataMode === 'level'}
          unit={unit}
          decimals={decimals}
          timeZone={timeZone}
          color="#1c7ed6"
          onZoom={(window) => send({ type: 'ZOOM', window })}
          onResetZoom={() => send({ type: 'RESET_ZOOM' })}
          onPlotWidth={(widthPx) => send({ type: 'RESIZE', widthPx })}
        />
        {showOverlay && (
          <Center pos="absolute" inset={0} bg="rgba(255,255,255,0.85)" style={{ zIndex: 5 }}>
            {status === 'failed' || status === 'empty' ? (
              <Stack align="center" gap="xs" maw={360}>
                <ThemeIcon variant="light" color={status === 'failed' ? 'red' : 'gray'} size="xl" radius="xl">
                  {status === 'failed' ? <IconAlertTriangle size={22} /> : <IconChartLine size={22} />}
                </ThemeIcon>
                <Text ta="center" size="sm" role={status === 'failed' ? 'alert' : 'status'} data-testid="chart-message">
                  {c.message}
                </Text>
                {status === 'failed' && (
                  <Button size="xs" variant="light" onClick={() => send({ type: 'REFRESH' })}>
                    Try again
                  </Button>
                )}
              </Stack>
            ) : (
              <LoadingProgress done={c.progress?.chunksDone ?? 0} total={c.progress?.chunksTotal ?? 0} points={c.progress?.points ?? 0} />
            )}
          </Center>
        )}
      </Box>
    </Stack>
  );
}

/** A year is 25 chunks: the bar fills as they arrive. */
function LoadingProgress({ done, total, points }: { done: number; total: number; points: number }) {
  return (
    <Stack align="center" gap={6} w={260} role="progressbar" aria-label="Loading measurements" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
      {total > 0 ? <Progress value={(100 * done) / total} w="100%" size="sm" /> : <Loader size="sm" />}
      <Text size="xs" c="dimmed" data-testid="chart-progress">
        {total > 0 ? `Loading ${done} of ${total} chunks · ${count.format(points)} measurements` : 'Loading measurements…'}
      </Text>
    </Stack>
  );
}
