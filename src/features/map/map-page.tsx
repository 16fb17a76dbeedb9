import { useEffect, useState } from 'react';
import { Alert, Box, Paper, Text, VisuallyHidden } from '@mantine/core';
import { Segmented } from '../../shared/segmented';
import { IconZoomIn } from '@tabler/icons-react';
import type { Organisation } from '../../contract/organisation.schema';
import { needsZoomIn } from '../../domain/map-view';
import type { SensorSummary } from '../../domain/sensor-summary';
import type { TimeDisplay } from '../../domain/time-format';
import { FleetMap } from '../../shared/lazy-maps';
import type { FleetMapOverview } from '../../../workers/fleet-map';
import type { ClientConfig } from '../../shared/session';
import type { FleetHandle } from '../../shared/use-fleet';
import { MapSensorList } from './map-sensor-list';
import { SensorCard } from './sensor-card';

export type MapType = keyof ClientConfig['map']['styles'];
// the switcher's order (monitoring-client 2.8); it offers the types the deployment has a style for
const MAP_TYPES: { value: MapType; label: string }[] = [
  { value: 'hybrid', label: 'Hybrid' },
  { value: 'roadmap', label: 'Roadmap' },
  { value: 'satellite', label: 'Satellite' },
  { value: 'terrain', label: 'Terrain' },
];
export const ZOOM_IN_BANNER = 'Zoom in to project level to see each sensor on its own.';

interface MapPageProps {
  /** The organisation's sensors, held by the data worker (the list beside the map reads its rows). */
  fleet: FleetHandle;
  /** How many sensors have a position and the view that fits them (undefined while they are read; with `loading` while only the list's first page is). */
  overview: FleetMapOverview | undefined;
  /** Changes when the mapped sensors' statuses do. */
  revision: number;
  /** The selected sensor's summary, when found. */
  selected?: SensorSummary;
  org: Pick<Organisation, 'measurementUnit' | 'locale'>;
  styles: ClientConfig['map']['styles'];
  timeDisplay: TimeDisplay;
  mobile: boolean;
  selectedSerial?: string;
  /** Puts the serial in the path (undefined: the bare map path). */
  onSelect(serial: string | undefined): void;
  dashboardHref(serial: string): string;
}

// the fleet's map calls are stable for the life of the tab
const mapSource = (fleet: FleetHandle) => ({ items: fleet.mapItems, expansionZoom: fleet.mapExpansion });

function useNow(everyMs: number) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

/** /org/:orgSlug/map/:serial? (monitoring-client 2.8): the sensors on a map and in a list, one selection for both. */
export function MapPage({ fleet, overview, revision, selected, org, styles, timeDisplay, mobile, selectedSerial, onSelect, dashboardHref }: MapPageProps) {
  const [type, setType] = useState<MapType>('roadmap');
  const [zoom, setZoom] = useState(14);
  const [bannerClosed, setBannerClosed] = useState(false);
  const [cardOpen, setCardOpen] = useState(true);
  const now = useNow(30_000);
  useEffect(() => setCardOpen(true), [selectedSerial]);
  const select = (serial: string) => {
    setCardOpen(true);
    onSelect(serial);
  };

  const types = MAP_TYPES.filter((t) => styles[t.value]);
  const map = (
    <Box pos="relative" h="100%" style={{ flex: 1, minWidth: 0 }}>
      <FleetMap
        source={mapSource(fleet)}
        overview={overview}
        revision={revision}
        styleUrl={styles[type] ?? styles.roadmap}
        selectedSerial={selectedSerial}
        selected={selected}
        onSelect={select}
        onZoom={setZoom}
      />
      {types.length > 1 && (
        <Paper pos="absolute" top={10} left={10} shadow="sm" p={4} radius="md">
          <Segmented<MapType> aria-label="Map type" value={type} onChange={setType} data={types} />
        </Paper>
      )}
      {needsZoomIn(zoom) && !bannerClosed && (overview?.count ?? 0) > 0 && (
        <Alert
          pos="absolute"
          top={56}
          left="50%"
          style={{ transform: 'translateX(-50%)', maxWidth: 'calc(100% - 120px)', boxShadow: 'var(--mantine-shadow-sm)', zIndex: 2 }}
          color="tide"
          variant="white"
          icon={<IconZoomIn size={18} />}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setBannerClosed(true)}
          py={6}
          role="status"
        >
          <Text size="sm">{ZOOM_IN_BANNER}</Text>
        </Alert>
      )}
      {overview?.loading && (
        <Paper pos="absolute" bottom={mobile ? 12 : 24} right={12} shadow="sm" px="sm" py={6} radius="md" style={{ zIndex: 2 }} role="status" data-testid="map-loading">
          {/* no spinner: under software WebGL each animated frame over the map costs a read back of the map */}
          <Text size="sm">
            Loading sensors: {overview.loading.held.toLocaleString()} of {overview.loading.total.toLocaleString()} so far
          </Text>
        </Paper>
      )}
      {selected && cardOpen && (
        <Box pos="absolute" bottom={mobile ? 12 : 24} left={12} style={{ zIndex: 2 }}>
          <SensorCard
            sensor={selected}
            unit={org.measurementUnit}
            timeDisplay={timeDisplay}
            timeZone={org.locale.timezone}
            dashboardHref={dashboardHref(selected.serial)}
            now={now}
            onHide={() => setCardOpen(false)}
          />
        </Box>
      )}
    </Box>
  );
  const list = <MapSensorList fleet={fleet} selectedSerial={selectedSerial} onSelect={select} />;

  // the page's h1, for screen readers: the map and its list say the rest
  const heading = <VisuallyHidden component="h1">Sensor map</VisuallyHidden>;
  return mobile ? (
    <Box style={{ display: 'flex', flexDirection: 'column' }} h="calc(100dvh - 60px)">
      {heading}
      <Box h="58%">{map}</Box>
      <Box h="42%" bg="var(--tw-surface)" style={{ borderTop: '1px solid var(--tw-border)' }}>
        {list}
      </Box>
    </Box>
  ) : (
    <Box style={{ display: 'flex' }} h="calc(100dvh - 60px)">
      {heading}
      <Box w={320} bg="var(--tw-surface)" style={{ borderRight: '1px solid var(--tw-border)', flexShrink: 0 }}>
        {list}
      </Box>
      {map}
    </Box>
  );
}
