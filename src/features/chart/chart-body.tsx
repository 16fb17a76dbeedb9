import { memo, useCallback, useId, useMemo, type KeyboardEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRef, Snapshot } from 'xstate';
import { Box, Button, Center, Group, Loader, Progress, ScrollArea, Stack, Table, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconChartLine, IconDownload, IconPlayerRecordFilled } from '@tabler/icons-react';
import { DateTime } from 'luxon';
import type { ChartContext, ChartDisplay, ChartEvent, ZoneChoice } from '../../../machines/chart.machine';
import type { TimeRange } from '../../domain/date-presets';
import type { Guide } from './chart-scales';
import { CURSOR_KEYS, pointText, summaryText, timeText, valueText } from './chart-reading';
import { UplotChart } from './uplot-chart';
import { Segmented } from '../../shared/segmented';
import type { ForecastLine } from './forecast-line';
import classes from './chart.module.css';

export type ChartStatus = 'loading' | 'drawing' | 'ready' | 'empty' | 'failed';

export interface ChartBodyProps {
  height: number;
  status: ChartStatus;
  /** The machine's context; its `progress` may be stale (the pane leaves it out): read showsProgress. */
  context: ChartContext;
  /** A load has reported chunks to fetch. */
  showsProgress: boolean;
  /** The progress bar (ChartProgress), which follows the reports itself. */
  progress: ReactNode;
  guides: readonly Guide[];
  unit: string;
  axisLabel: string;
  decimals: number;
  /** The zone times are shown in: the organisation's, or the viewer's (issue 16). */
  timeZone: string;
  orgTimeZone: string;
  viewerTimeZone: string;
  zone: ZoneChoice;
  display: ChartDisplay;
  /** Opens the export (the full-resolution CSV), from the table view. */
  onExportClick(): void;
  canExport: boolean;
  send(e: ChartEvent): void;
  /** A tank's forecast, drawn dashed after the latest point (issue 38). */
  forecast?: ForecastLine | null;
}

const count = new Intl.NumberFormat('en-NZ');

/**
 * Whether the overlay (progress or message) covers the plot. While a load runs over a drawn chart,
 * the chart stays until the worker reports chunks to fetch: a range already held (no fetch) goes
 * straight to its new drawing, without an overlay in between. A load that fetched keeps its
 * progress up until its own drawing replaces it (the machine clears progress then), never showing
 * the chart from before for a moment in between. What the running load holds is drawn as it
 * lands (held): then the progress sits above the plot instead of covering it.
 */
export function overlayShown(status: ChartStatus, hasView: boolean, showsProgress: boolean, held = false): boolean {
  if (status === 'failed' || status === 'empty') return true;
  if (held) return false;
  return (status === 'loading' || status === 'drawing') && (!hasView || showsProgress);
}

/** While a range arrives, a gap over a day is not bridged: a chunk still on its way is a gap, not a line. */
export const HELD_GAP_MS = 86_400_000;

/** The plot with what surrounds it: progress while chunks arrive, the messages, a caption. */
export function ChartBody(props: ChartBodyProps) {
  const { height, status, context: c, guides, unit, axisLabel, decimals, timeZone, send } = props;
  const held = c.held && (status === 'loading' || status === 'drawing');
  const showOverlay = overlayShown(status, c.view !== null, props.showsProgress, held);
  const when = (ms: number, fmt: string) => DateTime.fromMillis(ms, { zone: timeZone }).toFormat(fmt);
  const ids = { help: useId(), summary: useId() };
  const view = status === 'ready' ? c.view : null;
  const summary = useMemo(() => (view ? summaryText(view, axisLabel, timeZone, unit, decimals) : ''), [view, axisLabel, timeZone, unit, decimals]);
  const announced = view && c.cursor !== null && c.cursor < view.time.length ? pointText(view, c.cursor, timeZone, unit, decimals) : '';
  // stable, so that the memoised plot is not rendered again at each status change of a load
  const onZoom = useCallback((window: TimeRange) => send({ type: 'ZOOM', window }), [send]);
  const onResetZoom = useCallback(() => send({ type: 'RESET_ZOOM' }), [send]);
  const onPlotWidth = useCallback((widthPx: number) => send({ type: 'RESIZE', widthPx }), [send]);
  const onKey = (e: KeyboardEvent) => {
    const step = CURSOR_KEYS[e.key];
    if (step) send({ type: 'CURSOR', step });
    else if (e.key === 'Escape') send({ type: 'CURSOR_OFF' });
    else return;
    e.preventDefault();
  };
  const table = props.display === 'table';
  return (
    <Stack gap={4}>
      {/* one row on a laptop: chart or table, what is drawn, and whose time; wrapped on a phone */}
      <Group justify="space-between" gap="xs" mih={30}>
        <Group gap="sm" style={{ minWidth: 0 }}>
          <DisplayControl display={props.display} send={send} />
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
        <ZoneControl zone={props.zone} orgTimeZone={props.orgTimeZone} viewerTimeZone={props.viewerTimeZone} send={send} />
      </Group>
      <VisuallyHidden id={ids.help}>Arrow keys step through the drawn points, Home and End go to the first and the latest, Page Up and Page Down move by a day, Escape leaves.</VisuallyHidden>
      <VisuallyHidden id={ids.summary} data-testid="chart-summary">
        {summary}
      </VisuallyHidden>
      {/* what the keyboard cursor lands on, read out as it moves */}
      <VisuallyHidden role="status" data-testid="chart-announcement">
        {announced}
      </VisuallyHidden>
      {table && view && (
        <ChartTable view={view} height={height} unit={unit} decimals={decimals} timeZone={timeZone} axisLabel={axisLabel} summary={summary} canExport={props.canExport} onExportClick={props.onExportClick} />
      )}
      <Box
        pos="relative"
        h={height}
        display={table && view ? 'none' : undefined}
        tabIndex={0}
        role="application"
        aria-label={`${axisLabel} chart`}
        aria-describedby={`${ids.summary} ${ids.help}`}
        onKeyDown={onKey}
        data-testid="chart-keyboard"
        className={classes.keyboard}
      >
        <UplotChart
          cursorIndex={c.cursor}
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
          onZoom={onZoom}
          onResetZoom={onResetZoom}
          onPlotWidth={onPlotWidth}
          breakGapsOverMs={held ? HELD_GAP_MS : null}
          forecast={held ? null : (props.forecast ?? null)}
        />
        {held && (
          // the range so far is drawn: the progress stays in view above it, leaving the plot readable
          <Box pos="absolute" top={6} left="50%" px="sm" py={6} className={classes.heldProgress} data-testid="chart-held">
            {props.progress}
          </Box>
        )}
        {showOverlay && (
          <Center pos="absolute" inset={0} bg="color-mix(in srgb, var(--mantine-color-body) 85%, transparent)" style={{ zIndex: 5 }}>
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
              props.progress
            )}
          </Center>
        )}
      </Box>
    </Stack>
  );
}

/** Chart or table: memoised, as a load's status changes leave it as it is. */
const DisplayControl = memo(function DisplayControl(p: { display: ChartDisplay; send(e: ChartEvent): void }) {
  const { send } = p;
  return (
    <Segmented<ChartDisplay>
      aria-label="Show the data as"
      value={p.display}
      onChange={(display) => send({ type: 'SHOW', display })}
      data={[
        { value: 'chart', label: 'Chart' },
        { value: 'table', label: 'Table' },
      ]}
    />
  );
});

/** Whose time the axis and table read in; its labels wrap rather than push a narrow screen sideways. */
const ZoneControl = memo(function ZoneControl(p: { zone: ZoneChoice; orgTimeZone: string; viewerTimeZone: string; send(e: ChartEvent): void }) {
  const { send } = p;
  return (
    <Segmented<ZoneChoice>
      aria-label="Times in"
      style={{ flexShrink: 0 }}
      labelClassName={classes.zoneLabel}
      value={p.zone}
      onChange={(zone) => send({ type: 'USE_ZONE', zone })}
      data={[
        { value: 'organisation', label: `Organisation time (${p.orgTimeZone})` },
        { value: 'viewer', label: `My time (${p.viewerTimeZone})` },
      ]}
    />
  );
});

/** The drawn points as a table (the M4 output of the visible window), with the full-resolution CSV a click away. */
function ChartTable(p: { view: NonNullable<ChartContext['view']>; height: number; unit: string; decimals: number; timeZone: string; axisLabel: string; summary: string; canExport: boolean; onExportClick(): void }) {
  const rows = [];
  for (let i = 0; i < p.view.time.length; i++) {
    rows.push(
      <Table.Tr key={i}>
        <Table.Td>{timeText(p.view.time[i]!, p.timeZone)}</Table.Td>
        <Table.Td ta="right">{valueText(p.view.value[i]!, p.unit, p.decimals)}</Table.Td>
      </Table.Tr>,
    );
  }
  return (
    <Stack gap="xs" data-testid="chart-table">
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed" maw={640}>
          The {count.format(p.view.time.length)} drawn points: each pixel column's first, lowest, highest and last of {count.format(p.view.rawPoints)} measurements.
        </Text>
        <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} disabled={!p.canExport} onClick={p.onExportClick}>
          Full-resolution CSV
        </Button>
      </Group>
      {/* the scrolling viewport takes focus: its rows scroll by keyboard too */}
      <ScrollArea h={p.height} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${p.axisLabel}, drawn points` }}>
        <Table stickyHeader striped highlightOnHover fz="sm">
          <Table.Caption>{p.summary}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Time</Table.Th>
              <Table.Th scope="col" ta="right">
                {p.axisLabel}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{rows}</Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

/**
 * A year is 25 chunks: the bar fills as they arrive (in steps: an animated width is a run of frames
 * for each report). It reads the reports from the chart's actor itself, so a report re-renders the bar only.
 */
export function ChartProgress({ actor }: { actor: ActorRef<Snapshot<unknown> & { context: ChartContext }, ChartEvent> }) {
  const progress = useSelector(actor, (s) => s.context.progress);
  const done = progress?.chunksDone ?? 0;
  const total = progress?.chunksTotal ?? 0;
  const points = progress?.points ?? 0;
  return (
    <Stack align="center" gap={6} w={260}>
      {total > 0 ? <Progress value={(100 * done) / total} transitionDuration={0} w="100%" size="sm" aria-label="Loading measurements" /> : <Loader size="sm" aria-label="Loading measurements" />}
      <Text size="xs" c="dimmed" data-testid="chart-progress">
        {total > 0 ? `Loading ${done} of ${total} chunks · ${count.format(points)} measurements` : 'Loading measurements…'}
      </Text>
    </Stack>
  );
}
