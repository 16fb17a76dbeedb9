import { Paper, Text } from '@mantine/core';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';

export interface ChartPaneProps {
  sensor: Sensor;
  org: Organisation;
  height?: number;
}

/** The sensor's chart (being built: see issue 5). */
export function ChartPane({ height = 335 }: ChartPaneProps) {
  return (
    <Paper withBorder p="md" h={height}>
      <Text c="dimmed">Chart</Text>
    </Paper>
  );
}
