import { Navigate, useParams } from 'react-router-dom';
import { Paper, Title } from '@mantine/core';
import { IconBell, IconBuildingCommunity, IconClock, IconUserCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useIsMobile } from '../../shared/layout';
import { SettingsLayout } from '../../shared/settings-layout';
import { useSession } from '../../shared/session';
import { AccountSection } from './account-section';
import { DisplaySection } from './display-section';
import { OrganisationsSection } from './organisations-section';
import { NotificationsSection } from './notifications-section';
import { USER_SETTINGS_TITLES as T } from './section-titles';

/** What the app gives the user settings: how to read the signed-in user again after a change. */
export interface UserSettingsProps {
  /** Re-reads the current user, so a new name or time display shows everywhere at once. */
  onUserChanged(): void;
}

const SECTIONS: { id: string; title: string; icon: ReactNode; render: (p: UserSettingsProps) => ReactNode }[] = [
  { id: 'account', title: T.account, icon: <IconUserCircle size={18} />, render: (p) => <AccountSection {...p} /> },
  { id: 'display', title: T.display, icon: <IconClock size={18} />, render: (p) => <DisplaySection {...p} /> },
  { id: 'organisations', title: T.organisations, icon: <IconBuildingCommunity size={18} />, render: () => <OrganisationsSection /> },
  { id: 'notifications', title: T.notifications, icon: <IconBell size={18} />, render: () => <NotificationsSection /> },
];
export const DEFAULT_USER_SETTINGS_SECTION = 'account';

/** /settings/{section} (organisation-and-routes 2.2): account, display, organisations, notifications; anything else goes to account. */
export function UserSettingsPage(props: UserSettingsProps) {
  const { section } = useParams();
  const { user } = useSession();
  const mobile = useIsMobile();
  const current = SECTIONS.find((s) => s.id === section);
  if (!current) return <Navigate to={`/settings/${DEFAULT_USER_SETTINGS_SECTION}`} replace />;

  return (
    <SettingsLayout
      title="User Settings"
      subtitle={user.email}
      navLabel="User settings sections"
      items={SECTIONS.map((s) => ({ id: s.id, title: s.title, icon: s.icon, to: `/settings/${s.id}` }))}
      currentId={current.id}
      mobile={mobile}
      mobileMenu="scroll"
    >
      <Paper withBorder radius="lg" p={mobile ? 'md' : 'lg'} component="section" aria-labelledby="user-settings-title" data-testid={`user-settings-${current.id}`}>
        <Title order={2} size="h4" mb="md" id="user-settings-title">
          {current.title}
        </Title>
        {current.render(props)}
      </Paper>
    </SettingsLayout>
  );
}
