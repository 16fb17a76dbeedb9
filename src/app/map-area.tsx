import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { Center, Loader } from '@mantine/core';
import { MapPage } from '../features/map/map-page';
import { NoSensors, SensorsLoadFailed } from '../features/sensors/sensors-empty';
import { useSensorList } from '../features/sensors/use-sensor-list';
import { useIsMobile } from '../shared/layout';
import { useSession } from '../shared/session';
import { supportHref } from './links';

/**
 * /org/:orgSlug/map/:serial? : the organisation's sensors (kept live by the organisation's MQTT
 * subscription in useSensorList) on the map page; the path's serial is the selection.
 */
export function MapArea() {
  const { org, orgPath, config, user } = useSession();
  const list = useSensorList(org.id);
  const { serial } = useParams();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const mapUrl = `${orgPath}/map`;

  if (list.status === 'loading') {
    return (
      <Center h="60vh">
        <Loader />
      </Center>
    );
  }
  if (list.status === 'error') return <SensorsLoadFailed message={list.message} onReload={() => window.location.reload()} />;
  if (list.sensors.length === 0) return <NoSensors canAdd={false} onAdd={() => {}} supportHref={supportHref(config)} />;
  const selected = serial?.toUpperCase();
  // an unknown serial (another organisation's, or mistyped) shows the map with nothing selected
  if (selected && !list.sensors.some((s) => s.serial === selected)) return <Navigate to={mapUrl} replace />;
  if (serial && serial !== selected) return <Navigate to={`${mapUrl}/${selected}`} replace />;

  return (
    <MapPage
      sensors={list.sensors}
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
