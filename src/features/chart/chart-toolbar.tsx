import { createContext, memo, useCallback, useContext, type ComponentPropsWithRef } from 'react';
import { ActionIcon, type ActionIconProps, Button, Group, Select, Tooltip } from '@mantine/core';
import { IconDownload, IconRefresh, IconZoomReset, IconArrowsVertical } from '@tabler/icons-react';
import type { DataMode } from '../../../workers/data-api';
import type { ChartEvent, ViewMode } from '../../../machines/chart.machine';
import type { DatePreset, TimeRange } from '../../domain/date-presets';
import { DateRangePicker } from './date-range-picker';
import { MODE_LABELS } from './chart-scales';
import { Segmented } from '../../shared/segmented';

const MODE_ORDER: DataMode[] = ['level', 'flow', 'volume'];

export interface ChartToolbarProps {
  preset: DatePreset;
  range: TimeRange;
  timeZone: string;
  now: () => number;
  modes: DataMode[];
  dataMode: DataMode;
  viewMode: ViewMode;
  liveModeFeature: boolean;
  yZoom: boolean;
  zoomed: boolean;
  canExport: boolean;
  busy: boolean;
  send(e: ChartEvent): void;
  onExportClick(): void;
}

/** Chart controls (monitoring-client 2.6): range, Normal or Live, data, Y-axis zoom, Export, Refresh. */
export const ChartToolbar = memo(function ChartToolbar(p: ChartToolbarProps) {
  const { send } = p;
  // stable, so the memoised picker is not rendered again when only the chart's status changes
  const onPreset = useCallback((preset: Exclude<DatePreset, 'custom'>) => send({ type: 'SET_PRESET', preset }), [send]);
  const onRange = useCallback((range: TimeRange) => send({ type: 'SET_RANGE', range }), [send]);
  // each group is memoised on what it shows: a load's start and end (busy, canExport) render the
  // Export and Refresh buttons only, not the picker, the tooltips or the data select
  // one row on a laptop (range, mode and data on the left, the actions on the right), so that the plot
  // is on the first screen; on a phone the groups wrap, the range on its own line
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
        <DateRangePicker
          preset={p.preset}
          range={p.range}
          timeZone={p.timeZone}
          now={p.now}
          disabled={p.viewMode === 'live'}
          onPreset={onPreset}
          onRange={onRange}
        />
        <DataControls liveModeFeature={p.liveModeFeature} viewMode={p.viewMode} dataMode={p.dataMode} modes={p.modes} send={send} />
      </Group>
      <Group gap="xs" wrap="nowrap">
        <ZoomButtons zoomed={p.zoomed} yZoom={p.yZoom} send={send} />
        <ExportButton canExport={p.canExport} onExportClick={p.onExportClick} />
        <BusyContext value={p.busy}>
          <RefreshButton send={send} />
        </BusyContext>
      </Group>
    </Group>
  );
});

const ZoomButtons = memo(function ZoomButtons({ zoomed, yZoom, send }: { zoomed: boolean; yZoom: boolean; send(e: ChartEvent): void }) {
  return (
    <>
      {zoomed && (
        <Tooltip label="Reset zoom">
          <ActionIcon variant="default" size="lg" aria-label="Reset zoom" onClick={() => send({ type: 'RESET_ZOOM' })}>
            <IconZoomReset size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label={yZoom ? 'Y-axis zoom on: fitted to the data' : 'Y-axis zoom off: full scale'}>
        <ActionIcon variant={yZoom ? 'filled' : 'default'} size="lg" aria-label="Y-axis zoom" aria-pressed={yZoom} onClick={() => send({ type: 'TOGGLE_Y_ZOOM' })}>
          <IconArrowsVertical size={18} />
        </ActionIcon>
      </Tooltip>
    </>
  );
});

const ExportButton = memo(function ExportButton({ canExport, onExportClick }: { canExport: boolean; onExportClick(): void }) {
  // aria-disabled, not disabled: during the 2 s after an export the button keeps focus (the dialog returns it there)
  return (
    <Button variant="default" leftSection={<IconDownload size={16} />} data-disabled={!canExport || undefined} aria-disabled={!canExport} onClick={canExport ? onExportClick : undefined}>
      Export
    </Button>
  );
});

// Whether a load runs, for the Refresh button alone: a context, so that a load's start and end
// render the button and not its tooltip (Mantine's Tooltip and floating-ui hooks, about 2 ms a render)
const BusyContext = createContext(false);

// disabled while a load runs, without a spinner: the chart's own progress bar shows the load, and a
// spinning loader is a 60-frames-a-second composited animation competing with the load for the CPU
const RefreshButton = memo(function RefreshButton({ send }: { send(e: ChartEvent): void }) {
  return (
    <Tooltip label="Refresh">
      <RefreshIcon onClick={() => send({ type: 'REFRESH' })} />
    </Tooltip>
  );
});

/** The Refresh button itself; the tooltip's ref and handlers pass through to it. */
function RefreshIcon(props: ActionIconProps & ComponentPropsWithRef<'button'>) {
  const busy = useContext(BusyContext);
  return (
    <ActionIcon {...props} variant="default" size="lg" aria-label="Refresh" disabled={busy}>
      <IconRefresh size={18} />
    </ActionIcon>
  );
}

const DataControls = memo(function DataControls(p: { liveModeFeature: boolean; viewMode: ViewMode; dataMode: DataMode; modes: DataMode[]; send(e: ChartEvent): void }) {
  const { send } = p;
  return (
    <Group gap="xs">
      {p.liveModeFeature && (
        <Segmented<ViewMode>
          aria-label="View mode"
          value={p.viewMode}
          onChange={(mode) => send({ type: 'SET_VIEW_MODE', mode })}
          data={[
            { value: 'normal', label: 'Normal Mode' },
            // Live is for Water Level only (monitoring-client 4)
            { value: 'live', label: 'Live Mode', disabled: p.dataMode !== 'level' },
          ]}
        />
      )}
      <Select
        aria-label="Chart data"
        size="xs"
        w={140}
        allowDeselect={false}
        value={p.dataMode}
        onChange={(v) => v && send({ type: 'SET_DATA_MODE', mode: v as DataMode })}
        data={MODE_ORDER.filter((m) => p.modes.includes(m)).map((m) => ({ value: m, label: MODE_LABELS[m] }))}
        disabled={p.modes.length < 2}
      />
    </Group>
  );
});
