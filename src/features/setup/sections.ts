import { lazy } from 'react';
import { isTankFamily } from '../../domain/tank-form';
import { moduleOf } from '../../domain/sensor-types';
import { hasVolumeConversion } from '../../domain/forecast-alarm';
import type { SetupSection } from './section-types';

/**
 * The setup sections, in menu order (sensor-setup 2). A section is added by adding its entry
 * here: an id, a title, a lazy component taking SectionProps, and its visibility rule. Sections
 * that are not built yet are simply absent, so the menu never offers them and their paths
 * redirect to the sensor's default section.
 */
export const SETUP_SECTIONS: SetupSection[] = [
  { id: 'tank', title: 'Tank Settings', component: lazy(() => import('./tank-section')), visible: ({ sensor }) => isTankFamily(sensor.sensorType) },
  { id: 'display', title: 'Display Settings', component: lazy(() => import('./display-section')), visible: () => true },
  { id: 'update-rate', title: 'Update Rate', component: lazy(() => import('./update-rate/update-rate-section')), visible: () => true },
  { id: 'alarms', title: 'Alarm Settings', component: lazy(() => import('./alarms-section')), visible: () => true },
  // beyond the spec: the forecast alarm of a tank with a volume conversion (src/domain/forecast-alarm.ts)
  { id: 'forecast', title: 'Forecast Alarm', component: lazy(() => import('./forecast-section')), visible: ({ sensor }) => hasVolumeConversion(sensor) },
  { id: 'location', title: 'Location', component: lazy(() => import('./location-section')), visible: () => true },
  { id: 'remote', title: 'Remote Tasks', component: lazy(() => import('./remote-section')), visible: () => true },
  { id: 'radar', title: 'Radar Config', component: lazy(() => import('./radar/radar-section')), visible: ({ sensor, isSiteAdmin, production }) => isSiteAdmin && !production && moduleOf(sensor.sensorType) === 'radar' },
  { id: 'integration', title: 'Integration Settings', component: lazy(() => import('./integration-section')), visible: ({ isManager, isSiteAdmin }) => isManager || isSiteAdmin },
  { id: 'installation', title: 'Installation Record', component: lazy(() => import('./installation-section')), visible: ({ hasFuelInstall }) => hasFuelInstall },
];
