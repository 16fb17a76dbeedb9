import { Outlet } from 'react-router-dom';
import { SessionContext } from '../shared/session';
import { UserSettingsPage } from '../features/user-settings/user-settings-page';
import { useAuthRef } from './auth-context';
import { AppFrame } from './frame/app-frame';
import { useOrgSession } from './org-session';
import { useOrgs } from './organisations';
import { defaultOrganisation } from './sections';

/**
 * /settings : the user's own settings inside the usual frame, whose navigation is the default
 * organisation's. After leaving that organisation the organisations are read again and the
 * frame moves to the next one (or, with none left, to the no-organisations page).
 */
export function UserSettingsArea() {
  const { organisations, refresh } = useOrgs();
  const org = defaultOrganisation(organisations);
  const session = useOrgSession(org, organisations, refresh);
  if (!session) return null;
  return (
    <SessionContext.Provider value={session}>
      <AppFrame>
        <Outlet />
      </AppFrame>
    </SessionContext.Provider>
  );
}

/** The settings page, told how to read the user again after a change. */
export function UserSettings() {
  const auth = useAuthRef();
  return <UserSettingsPage onUserChanged={() => auth.send({ type: 'REFRESH_USER' })} />;
}
