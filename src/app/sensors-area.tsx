import { Text } from '@mantine/core';

/** /org/:orgSlug/sensors/* : list, detail tabs, dashboard with chart, measurement errors (being built: see issue 4). */
export function SensorsArea() {
  return <Text>Sensors</Text>;
}
