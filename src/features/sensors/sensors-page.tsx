import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ActionIcon, Box, Button, Divider, Group, Paper, Text, Title, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconDownload, IconPlus } from '@tabler/icons-react';
import type { Sensor } from '../../contract/sensor.schema';
import type { Organisation } from '../../contract/organisation.schema';
import { sensorsCsvName } from '../../domain/sensor-csv';
import { useIsMobile } from '../../shared/layout';
import { AddSensorModal } from './add-sensor-modal';
import { SensorList } from './sensor-list';
import type { FleetHandle } from '../../shared/use-fleet';


interface SensorsPageProps {
  org: Organisation;
  fleet: FleetHandle;
  sensorsUrl: string;
  selectedSerial?: string;
  canAdd: boolean;
  onAdded(sensor: Sensor): void;
  /** The selected sensor's detail; without one the list alone shows. */
  detail?: ReactNode;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Sensors page (monitoring-client 2.4): list left, detail right; below 900 px one or the other. */
export function SensorsPage({ org, fleet, sensorsUrl, selectedSerial, canAdd, onAdded, detail }: SensorsPageProps) {
  const mobile = useIsMobile();
  const [adding, setAdding] = useState(false);
  const showList = !mobile || !detail;
  const total = fleet.state.status === 'ready' ? fleet.state.total : undefined;
  // the CSV of the whole fleet is built in the data worker
  const downloadCsv = async () => download(sensorsCsvName(org.name, Date.now(), org.locale.timezone), await fleet.csv());

  const list = (
    <Paper withBorder radius="lg" h="100%" style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
      <Group justify="space-between" px="sm" pt="sm" wrap="nowrap">
        <Box>
          {/* the page's h1 when the list stands alone; beside a sensor (whose name is the h1) an h2 */}
          <Title order={detail ? 2 : 1} size="h4">
            Sensors
          </Title>
          {/* a dashboard opened by link draws before the list has come */}
          <Text size="xs" c="dimmed">
            {total === undefined ? '\u00a0' : `${total.toLocaleString('en-NZ')} ${total === 1 ? 'sensor' : 'sensors'}`}
          </Text>
        </Box>
        <Group gap={6} wrap="nowrap">
          <Tooltip label="Download sensors CSV" withArrow>
            <ActionIcon variant="default" size="lg" aria-label="Download sensors CSV" onClick={() => void downloadCsv()}>
              <IconDownload size={18} />
            </ActionIcon>
          </Tooltip>
          {canAdd && (
            <Button size="sm" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add Sensor
            </Button>
          )}
        </Group>
      </Group>
      <Divider mt="sm" />
      <Box style={{ flex: 1, minHeight: 0 }}>
        <SensorList fleet={fleet} selectedSerial={selectedSerial} sensorsUrl={sensorsUrl} unit={org.measurementUnit} />
      </Box>
    </Paper>
  );

  return (
    <>
      {/* one tree at every width: crossing the breakpoint (a window resized, a tablet turned) restyles
          the two slots but never remounts the detail, whose forms may hold unsaved edits */}
      <Box style={mobile ? { height: '100%' } : { display: 'grid', gridTemplateColumns: 'minmax(280px, 340px) minmax(0, 1fr)', gap: 'var(--mantine-spacing-md)', height: '100%', alignItems: 'start' }}>
        {showList && <Box style={mobile ? { height: '100%' } : { position: 'sticky', top: 0, height: 'calc(100dvh - 60px - 2 * var(--mantine-spacing-md))' }}>{list}</Box>}
        {detail && (
          <Box miw={0}>
            {mobile && (
              <Button component={Link} to={sensorsUrl} variant="subtle" leftSection={<IconChevronLeft size={16} />} mb="xs" px={4}>
                All Sensors
              </Button>
            )}
            {detail}
          </Box>
        )}
      </Box>
      {canAdd && <AddSensorModal orgId={org.id} opened={adding} onClose={() => setAdding(false)} onAdded={onAdded} />}
    </>
  );
}

