import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSearchParams } from 'react-router-dom';
import { Paper, Stack } from '@mantine/core';
import type { ChartContext, ExportFormat } from '../../../machines/chart.machine';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import { holdFirstDraw } from '../../shared/first-draw';
import { subscribeLive } from '../../shared/live';
import { chartWorker } from './chart-worker';
import { downloadCsv, provideChart } from './chart-edges';
import { axisLabel, chartModes, decimalsOf, guidesOf, unitOf } from './chart-scales';
import { ChartToolbar } from './chart-toolbar';
import { ChartBody, ChartProgress } from './chart-body';
import { ExportModal } from './export-modal';
import { viewerTimeZone } from './chart-reading';
import { UsagePane } from './usage-pane';
import { forecastLine } from './forecast-line';
import type { UsageResult } from '../../../workers/data-api';

export interface ChartPaneProps {
  sensor: Sensor;
  org: Organisation;
  /** Plot height: 300, or 335 in the sensor view layout (monitoring-client 9). */
  height?: number;
}

/** The sensor's chart: one chart machine per sensor, fed by the data worker. */
export function ChartPane({ sensor, org, height = 335 }: ChartPaneProps) {
  // a saved conversion or offset changes the data modes and every converted value: start afresh
  const settings = `${JSON.stringify(sensor.conversionConfigs[0] ?? null)}/${sensor.displayInfo.offsetMeasurement ?? ''}`;
  return <Chart key={`${org.id}/${sensor.id}/${settings}`} sensor={sensor} org={org} height={height} />;
}

/** Equal contexts but for the load's progress, which ChartProgress reads on its own. */
export function sameButProgress(a: ChartContext, b: ChartContext): boolean {
  for (const key of Object.keys(a) as (keyof ChartContext)[]) if (key !== 'progress' && a[key] !== b[key]) return false;
  return true;
}

function Chart({ sensor, org, height }: Required<ChartPaneProps>) {
  const [query] = useSearchParams();
  const current = useRef({ sensor, org });
  current.current = { sensor, org };
  const machine = useMemo(
    () => provideChart({ worker: chartWorker(), liveSubscribe: subscribeLive, sensor: () => current.current.sensor, org: () => current.current.org, download: downloadCsv }),
    [],
  );
  const actor = useActorRef(machine, {
    input: {
      target: { orgId: org.id, sensorId: sensor.id },
      timeZone: org.locale.timezone,
      liveModeFeature: org.features.liveMode,
      modes: chartModes(sensor),
      widthPx: 1000,
      query: { start: query.get('start'), end: query.get('end') },
    },
  });
  // a progress report (25 a year) re-renders only the progress bar, not the pane
  const c = useSelector(actor, (s) => s.context, sameButProgress);
  const loading = useSelector(actor, (s) => s.context.progress !== null);
  const progress = useMemo(() => <ChartProgress actor={actor} />, [actor]);
  const status = useSelector(actor, (s) =>
    s.matches({ data: 'clock' }) || s.matches({ data: { normal: 'loading' } }) || s.matches({ data: { live: 'loading' } })
      ? 'loading'
      : s.matches({ data: { normal: 'drawing' } }) || s.matches({ data: { live: { streaming: 'drawing' } } })
        ? 'drawing'
        : s.matches({ data: { normal: 'failed' } }) || s.matches({ data: { live: 'failed' } })
          ? 'failed'
          : s.matches({ data: { normal: 'empty' } }) || s.matches({ data: { live: { streaming: 'waiting' } } })
            ? 'empty'
            : 'ready',
  );
  // until its first data is drawn (or found missing) the chart holds the organisation's live connection back (first-draw.ts)
  const [drawn, setDrawn] = useState(false);
  if (!drawn && (status === 'ready' || status === 'empty' || status === 'failed')) setDrawn(true);
  useEffect(() => (drawn ? undefined : holdFirstDraw()), [drawn]);
  const exportIdle = useSelector(actor, (s) => s.matches({ export: 'idle' }));
  const display = useSelector(actor, (s) => (s.matches({ reading: { display: 'table' } }) ? 'table' : 'chart'));
  const zone = useSelector(actor, (s) => (s.matches({ reading: { zone: 'viewer' } }) ? 'viewer' : 'organisation'));
  const viewerZone = useMemo(viewerTimeZone, []);
  const shownZone = zone === 'viewer' ? viewerZone : org.locale.timezone;
  const [exportOpen, setExportOpen] = useState(false);

  const unit = org.measurementUnit;
  // the usage pane's analysis, whose forecast the chart continues its line with (issue 38)
  const [usage, setUsage] = useState<UsageResult | null>(null);
  const forecast = useMemo(() => {
    const v = c.view;
    const n = v?.time.length ?? 0;
    const last = v && n ? { time: v.time[n - 1]!, value: v.value[n - 1]! } : null;
    return c.viewMode === 'live' ? null : forecastLine(usage, c.dataMode, unit, c.shown, last, sensor);
  }, [usage, c.dataMode, c.viewMode, unit, c.shown, c.view, sensor]);
  const guides = useMemo(() => guidesOf(c.dataMode, unit, sensor), [c.dataMode, unit, sensor]);
  const offset = c.clockOffset;
  const now = useCallback(() => Date.now() + offset, [offset]);
  const openExport = useCallback(() => setExportOpen(true), []);
  // the export's window (its text is worked out by the dialog only while it is open)
  const exportRange = useMemo(() => (c.viewMode === 'live' ? { start: c.liveEnd - 3_600_000, end: c.liveEnd } : c.range), [c.viewMode, c.liveEnd, c.range]);
  const closeExport = useCallback(() => setExportOpen(false), []);
  const exportAs = useCallback(
    (format: ExportFormat) => {
      setExportOpen(false);
      actor.send({ type: 'EXPORT', format });
    },
    [actor],
  );

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md" data-testid="chart-pane" data-status={status} data-held={c.held && status === 'loading' ? 'true' : undefined} data-mode={c.dataMode} data-view-mode={c.viewMode} data-guides={guides.map((g) => g.label).join('|')}>
        <Stack gap="sm">
          <ChartToolbar
            preset={c.preset}
            range={c.range}
            timeZone={org.locale.timezone}
            now={now}
            modes={c.modes}
            dataMode={c.dataMode}
            viewMode={c.viewMode}
            liveModeFeature={org.features.liveMode}
            yZoom={c.yZoom}
            zoomed={c.zoom !== null}
            canExport={exportIdle && status === 'ready'}
            busy={status === 'loading' || status === 'drawing'}
            send={actor.send}
            onExportClick={openExport}
          />
          <ChartBody
            height={height}
            status={status}
            context={c}
            showsProgress={loading}
            progress={progress}
            guides={guides}
            unit={unitOf(c.dataMode, unit)}
            axisLabel={axisLabel(c.dataMode, unit, sensor)}
            decimals={decimalsOf(c.dataMode, unit, sensor)}
            timeZone={shownZone}
            orgTimeZone={org.locale.timezone}
            viewerTimeZone={viewerZone}
            zone={zone}
            display={display}
            canExport={exportIdle && status === 'ready'}
            onExportClick={openExport}
            send={actor.send}
            forecast={forecast}
          />
        </Stack>
        <ExportModal opened={exportOpen} timeZone={org.locale.timezone} range={exportRange} onClose={closeExport} onExport={exportAs} />
      </Paper>
      {/* usage beyond the spec (issue 38), for sensors with a volume or flow conversion */}
      <UsagePane sensor={sensor} org={org} range={c.range} ready={status === 'ready' || status === 'empty'} onUsage={setUsage} />
    </Stack>
  );
}
