/**
 * The user settings sections' ids (their path segments) and titles, in menu order: the menu
 * (user-settings-page.tsx) and the page titles (the app's router) both read them here. Kept apart
 * from the sections' components, which load with the settings page.
 */
export const USER_SETTINGS_TITLES = {
  account: 'Account',
  display: 'Display',
  organisations: 'Organisations',
  notifications: 'Notifications',
} as const satisfies Record<string, string>;
