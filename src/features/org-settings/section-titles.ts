/**
 * The organisation settings sections' ids (their path segments) and titles, in menu order: the
 * menu (sections.tsx) and the page titles (the app's router) both read them here, so a section
 * renamed is renamed in both. Kept apart from the sections' components and icons, which load with
 * the settings page.
 */
export const ORG_SETTINGS_TITLES = {
  details: 'Details',
  members: 'Members',
  notifications: 'Notifications',
  integration: 'Integration',
  webhooks: 'Webhooks',
} as const satisfies Record<string, string>;
