import { lazy } from 'react';
import { isTankFamily } from '../../domain/tank-form';
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
  // part 2 adds 'update-rate' here
  { id: 'alarms', title: 'Alarm Settings', component: lazy(() => import('./alarms-section')), visible: () => true },
  { id: 'location', title: 'Location', component: lazy(() => import('./location-section')), visible: () => true },
  // part 2 adds 'remote' and 'radar' here
  { id: 'integration', title: 'Integration Settings', component: lazy(() => import('./integration-section')), visible: ({ isManager, isSiteAdmin }) => isManager || isSiteAdmin },
  { id: 'installation', title: 'Installation Record', component: lazy(() => import('./installation-section')), visible: ({ hasFuelInstall }) => hasFuelInstall },
];
