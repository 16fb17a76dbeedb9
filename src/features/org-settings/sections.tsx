import { lazy } from 'react';
import { IconBell, IconBuilding, IconPlugConnected, IconUsers, IconWebhook } from '@tabler/icons-react';
import { integrationParts } from '../../domain/org-settings';
import type { OrgSettingsSection } from './section-types';
import { ORG_SETTINGS_TITLES as T } from './section-titles';

/**
 * The organisation settings sections, in menu order (organisation-and-routes 2.1). A section is
 * added by adding its entry here: an id (the path segment), a title, an icon, a lazy component
 * taking SettingsSectionProps and its visibility rule. Sections not built yet are simply absent,
 * so the menu never offers them and their paths redirect to details.
 *
 * Integration (managers, when the organisation has a REST API or a Sigfox or Myriota sensor) and
 * webhooks (managers) go after notifications.
 */
export const ORG_SETTINGS_SECTIONS: OrgSettingsSection[] = [
  { id: 'details', title: T.details, icon: <IconBuilding size={18} />, component: lazy(() => import('./details/details-section')), visible: () => true },
  { id: 'members', title: T.members, heading: 'Organisation Members', icon: <IconUsers size={18} />, component: lazy(() => import('./members/members-section')), visible: () => true },
  { id: 'notifications', title: T.notifications, icon: <IconBell size={18} />, component: lazy(() => import('./notifications/notifications-section')), visible: () => true },
  // managers, when the organisation has a REST API (organisation-and-routes 2.1, 6) or radio callbacks to set up (docs/decisions.md); managers
  { id: 'integration', title: T.integration, icon: <IconPlugConnected size={18} />, component: lazy(() => import('./integration/integration-section')), visible: ({ isManager, org }) => integrationParts(isManager, org) !== null },
  { id: 'webhooks', title: T.webhooks, icon: <IconWebhook size={18} />, component: lazy(() => import('./webhooks/webhooks-section')), visible: ({ isManager }) => isManager },
];

/** No section, or one that is unknown or hidden: the default settings route. */
export const DEFAULT_SETTINGS_SECTION = 'details';
