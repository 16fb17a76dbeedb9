import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import type { Organisation } from '../../contract/organisation.schema';
import type { CurrentUser } from '../../contract/user.schema';

/** What every organisation settings section receives from the frame. */
export interface SettingsSectionProps {
  org: Organisation;
  user: CurrentUser;
  /** The caller is an admin or owner: the only roles with action controls (organisation-and-routes 6). */
  isManager: boolean;
  /** Below the layout breakpoint (900 px). */
  mobile: boolean;
  /** '/org/{slug}' of the organisation shown. */
  orgPath: string;
  /** Re-reads the user's organisations, so a rename or a unit change shows everywhere at once. */
  refreshOrganisations(): Promise<void>;
}

/** What decides whether a section shows in the menu. */
export interface SettingsContext {
  org: Organisation;
  user: CurrentUser;
  isManager: boolean;
}

export interface OrgSettingsSection {
  /** The path segment: /org/{orgSlug}/settings/{id}. */
  id: string;
  /** The menu entry, and the section's heading unless it has its own. */
  title: string;
  heading?: string;
  icon: ReactNode;
  component: LazyExoticComponent<ComponentType<SettingsSectionProps>>;
  visible(ctx: SettingsContext): boolean;
}
