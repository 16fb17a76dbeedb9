import { useCallback, useState } from 'react';
import { Navigate, Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Box, Center, Loader } from '@mantine/core';
import { ROLES } from '../contract/organisation.schema';
import type { Sensor } from '../contract/sensor.schema';
import { parseDateQuery } from '../domain/date-presets';
import { useIsMobile } from '../shared/layout';
import { useSession } from '../shared/session';
import { useTitlePart } from '../shared/page-title';
import { supportHref } from './links';
import { ChartPane } from '../features/chart/chart-pane';
import { Dashboard } from '../features/dashboard/dashboard';
import { MeasurementErrorsPage } from '../features/errors/measurement-errors-page';
import { SetupArea } from '../features/setup/setup-area';
import { AddSensorModal } from '../features/sensors/add-sensor-modal';
import { SensorDetailFrame, type DetailTab } from '../features/sensors/sensor-detail-frame';
import { SensorsPage } from '../features/sensors/sensors-page';
import { NoOrganisation, NoSensors, SensorsLoadFailed } from '../features/sensors/sensors-empty';
import { SENSORS_LOAD_FAILED } from '../domain/messages';
import { useFleet, type FleetHandle } from '../shared/use-fleet';
import { useSensorRecord } from '../features/sensors/use-sensor-record';
import { LoadFailedPanel } from '../shared/load-failed';
import { radioFlagStale } from '../domain/org-settings';

/** /org/:orgSlug/sensors/* : the list, the detail tabs by role, the dashboard with its chart, and measurement errors. */
export function SensorsArea() {
  const session = useSession();
  return <Box p="md">{session.org ? <OrgSensors /> : <NoOrganisation />}</Box>;
}

function OrgSensors() {
  const { org, orgPath, config, refreshOrganisations } = useSession();
  const sensorsUrl = `${orgPath}/sensors`;
  const fleet = useFleet(org.id);
  const list = fleet.state;
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const [adding, setAdding] = useState(false);
  const canAdd = org.role === ROLES.ADMIN || org.role === ROLES.OWNER;
  const onAdded = async (sensor: Sensor) => {
    // the organisation's first Sigfox or Myriota sensor: the record re-read shows Integration's radio callbacks
    if (radioFlagStale(org, sensor)) void refreshOrganisations({ quiet: true });
    await fleet.reload();
    navigate(`${sensorsUrl}/${sensor.serial}`);
  };

  if (list.status === 'error') return <SensorsLoadFailed message={list.message} onReload={() => window.location.reload()} />;
  if (list.status === 'ready' && list.total === 0) {
    return (
      <>
        <NoSensors canAdd={canAdd} onAdd={() => setAdding(true)} supportHref={supportHref(config)} />
        {canAdd && <AddSensorModal orgId={org.id} opened={adding} onClose={() => setAdding(false)} onAdded={onAdded} />}
      </>
    );
  }
  const page = (selectedSerial?: string, detail?: React.ReactNode) => (
    <SensorsPage org={org} fleet={fleet} sensorsUrl={sensorsUrl} selectedSerial={selectedSerial} canAdd={canAdd} onAdded={onAdded} detail={detail} />
  );
  return (
    <Routes>
      {/* the bare route opens the first sensor; on a phone it is where the list lives */}
      <Route
        index
        element={
          list.status === 'loading' ? (
            <Center h="60vh">
              <Loader />
            </Center>
          ) : mobile || !list.first ? (
            page()
          ) : (
            <Navigate to={`${sensorsUrl}/${list.first.serial}`} replace />
          )
        }
      />
      {/* a sensor opened by link draws from its own record while the list is still loading */}
      <Route path=":serial/*" element={<SelectedSensor fleet={fleet} sensorsUrl={sensorsUrl} mobile={mobile} render={page} />} />
    </Routes>
  );
}

/** The opened sensor: its full record read by id (the list holds summaries), kept live. */
function SelectedSensor({ fleet, sensorsUrl, mobile, render }: { fleet: FleetHandle; sensorsUrl: string; mobile: boolean; render(serial: string, detail: React.ReactNode): React.ReactNode }) {
  const { org } = useSession();
  const serial = (useParams().serial ?? '').toUpperCase();
  const record = useSensorRecord(org.id, serial);
  useTitlePart('subject', record.status === 'ready' ? record.sensor.name : undefined);
  const { replace } = record;
  const { settings } = fleet;
  const onSaved = useCallback(
    (sensor: Sensor) => {
      replace(sensor);
      settings(sensor);
    },
    [replace, settings],
  );
  if (record.status === 'missing') return <Navigate to={sensorsUrl} replace />;
  const detail =
    record.status === 'ready' ? (
      <SensorDetail sensor={record.sensor} sensorsUrl={sensorsUrl} mobile={mobile} onSaved={onSaved} />
    ) : record.status === 'error' ? (
      <LoadFailedPanel title={SENSORS_LOAD_FAILED} message={record.message} onRetry={() => window.location.reload()} />
    ) : (
      <Center h="40vh">
        <Loader />
      </Center>
    );
  return render(serial, detail);
}

/** The detail routes of monitoring-client 2.5; unknown sub-paths go to the default sensors route. */
function SensorDetail({ sensor, sensorsUrl, mobile, onSaved }: { sensor: Sensor; sensorsUrl: string; mobile: boolean; onSaved(sensor: Sensor): void }) {
  const { org, user, config } = useSession();
  const sub = (useParams()['*'] ?? '').replace(/\/+$/, '');
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const base = `${sensorsUrl}/${sensor.serial}`;
  const errorsPath = mobile ? `${base}/errors` : `${base}/admin-tools/errors`;

  // Sensor Setup: admins and owners, and site admins whatever their role (DESIGN.md "Sensor setup")
  const canSetup = org.role === ROLES.ADMIN || org.role === ROLES.OWNER || user.isSiteAdmin;
  const setupBase = `${base}/setup`;

  let tab: DetailTab;
  if (sub === '') tab = 'dashboard';
  else if (sub === 'setup' || sub.startsWith('setup/')) {
    // a setup link followed by someone who may not use setup lands on this sensor's dashboard, not another's
    if (!canSetup) return <Navigate to={base} replace />;
    tab = 'setup';
  }
  else if (user.isSiteAdmin && (sub === 'admin-tools/errors' || sub === 'errors')) {
    if (`${base}/${sub}` !== errorsPath) return <Navigate to={errorsPath} replace />;
    tab = 'errors';
  } else return <Navigate to={sensorsUrl} replace />;

  return (
    <SensorDetailFrame
      sensor={sensor}
      tab={tab}
      isSiteAdmin={user.isSiteAdmin}
      canSetup={canSetup}
      mobile={mobile}
      onTab={(t) => navigate(t === 'dashboard' ? base : t === 'setup' ? setupBase : errorsPath)}
    >
      {tab === 'setup' ? (
        <SetupArea
          base={setupBase}
          section={sub === 'setup' ? undefined : sub.slice('setup/'.length)}
          sensor={sensor}
          org={org}
          isSiteAdmin={user.isSiteAdmin}
          mobile={mobile}
          mapStyles={config.map.styles}
          production={config.stage !== 'development'}
          onSaved={onSaved}
        />
      ) : tab === 'dashboard' ? (
        <Dashboard
          sensor={sensor}
          org={org}
          isSiteAdmin={user.isSiteAdmin}
          timeDisplay={user.displaySettings.timeDisplay}
          mapStyleUrl={config.map.styles.roadmap}
          chart={<ChartPane sensor={sensor} org={org} height={335} />}
        />
      ) : (
        <MeasurementErrorsPage
          key={sensor.id}
          sensor={sensor}
          timeDisplay={user.displaySettings.timeDisplay}
          timeZone={org.locale.timezone}
          initialRange={parseDateQuery(query.get('start'), query.get('end'), Date.now(), org.locale.timezone) ?? undefined}
        />
      )}
    </SensorDetailFrame>
  );
}
