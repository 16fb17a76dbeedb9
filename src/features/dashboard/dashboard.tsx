import type { ReactNode } from 'react';
import { Box, SimpleGrid, Stack } from '@mantine/core';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import type { TimeDisplay } from '../../domain/time-format';
import { PaneBoundary } from './error-boundary';
import { HighlightPane } from './highlight-pane';
import { SensorInfoTable } from './sensor-info-table';
import { SensorMap } from '../../shared/lazy-maps';
import { StatusAlerts } from './status-alerts';

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
  return (
    <Stack gap="md">
      <StatusAlerts sensor={sensor} orgId={org.id} unit={org.measurementUnit} timeDisplay={timeDisplay} timeZone={tz} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <HighlightPane sensor={sensor} unit={org.measurementUnit} timeDisplay={timeDisplay} timeZone={tz} />
        <PaneBoundary name="map">
          <SensorMap latitude={sensor.latitude} longitude={sensor.longitude} name={sensor.name} styleUrl={mapStyleUrl} />
        </PaneBoundary>
      </SimpleGrid>
      <Box>
        <PaneBoundary name="chart">{chart}</PaneBoundary>
      </Box>
      <SensorInfoTable sensor={sensor} isSiteAdmin={isSiteAdmin} timeDisplay={timeDisplay} timeZone={tz} />
    </Stack>
  );
}
