import { useEffect } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { Center, Loader } from '@mantine/core';
import { MapPage } from '../features/map/map-page';
import { NoSensors, SensorsLoadFailed } from '../features/sensors/sensors-empty';
import { useIsMobile } from '../shared/layout';
import { useSession } from '../shared/session';
import { preloadFleetMap } from '../shared/lazy-maps';
import { useFleet } from '../shared/use-fleet';
import { useFleetMapView, useFleetSensor } from '../shared/use-fleet-map';
import { supportHref } from './links';

/**
 * /org/:orgSlug/map/:serial? : the organisation's sensors from the fleet in the data worker (the
 * compact list, kept live by the organisation's MQTT subscription in useFleet) on the map page;
 * the path's serial is the selection.
 */
export function MapArea() {
  const { org, orgPath, config, user } = useSession();
  const fleet = useFleet(org.id);
  const { serial } = useParams();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const mapUrl = `${orgPath}/map`;
  const selected = serial?.toUpperCase();
  const picked = useFleetSensor(fleet, selected);
  const { overview, revision } = useFleetMapView(fleet);
  // the map's code loads beside the list, not after its first page
  useEffect(() => void preloadFleetMap().catch(() => undefined), []);

  if (fleet.state.status === 'loading') {
    return (
      <Center h="60vh">
        <Loader />
      </Center>
    );
  }
  if (fleet.state.status === 'error') return <SensorsLoadFailed message={fleet.state.message} onReload={() => window.location.reload()} />;
  if (fleet.state.total === 0) return <NoSensors canAdd={false} onAdd={() => {}} supportHref={supportHref(config)} />;
  // an unknown serial (another organisation's, or mistyped) shows the map with nothing selected
  if (picked.status === 'missing') return <Navigate to={mapUrl} replace />;
  if (serial && serial !== selected) return <Navigate to={`${mapUrl}/${selected}`} replace />;

  return (
    <MapPage
      fleet={fleet}
      overview={overview}
      revision={revision}
      selected={picked.status === 'found' ? picked.sensor : undefined}
      org={org}
      styles={config.map.styles}
      timeDisplay={user.displaySettings.timeDisplay}
      mobile={mobile}
      selectedSerial={selected}
      onSelect={(s) => navigate(s ? `${mapUrl}/${s}` : mapUrl)}
      dashboardHref={(s) => `${orgPath}/sensors/${s}`}
    />
  );
}
