import type { ReactNode } from 'react';
import { Box, Stack } from '@mantine/core';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import type { TimeDisplay } from '../../domain/time-format';
import { PaneBoundary } from './error-boundary';
import { HighlightPane } from './highlight-pane';
import { SensorInfoTable } from './sensor-info-table';
import { SensorMap } from '../../shared/lazy-maps';
import { StatusAlerts } from './status-alerts';
import { useAfterPaint } from '../../shared/after-paint';

interface DashboardProps {
  sensor: Sensor;
  org: Organisation;
  isSiteAdmin: boolean;
  timeDisplay: TimeDisplay;
  mapStyleUrl: string;
  /** The chart pane, composed by the app (features do not import each other). */
  chart: ReactNode;
}

/** The sensor dashboard (monitoring-client 2.5): status alerts, highlight, chart, map and info table. */
export function Dashboard({ sensor, org, isSiteAdmin, timeDisplay, mapStyleUrl, chart }: DashboardProps) {
  const tz = org.locale.timezone;
  // the alerts and the latest measurement are drawn first, the rest in the task after their paint
  // (after-paint.ts); nothing is drawn above what is already on screen, so nothing moves
  const rest = useAfterPaint();
  // the chart comes right after the latest measurement, on the first screen of a laptop and right
  // after the measurement on a phone; the information table and the mini-map follow it, the map
  // loading its renderer only when scrolled to (docs/performance.md, What a page loads)
  return (
    <Stack gap="md">
      <StatusAlerts sensor={sensor} orgId={org.id} unit={org.measurementUnit} timeDisplay={timeDisplay} timeZone={tz} />
      <HighlightPane sensor={sensor} unit={org.measurementUnit} timeDisplay={timeDisplay} timeZone={tz} />
      {rest && (
        <>
          <Box>
            <PaneBoundary name="chart">{chart}</PaneBoundary>
          </Box>
          <SensorInfoTable sensor={sensor} isSiteAdmin={isSiteAdmin} timeDisplay={timeDisplay} timeZone={tz} />
          <PaneBoundary name="map">
            <SensorMap latitude={sensor.latitude} longitude={sensor.longitude} name={sensor.name} styleUrl={mapStyleUrl} height={280} whenOnScreen />
          </PaneBoundary>
        </>
      )}
    </Stack>
  );
}
