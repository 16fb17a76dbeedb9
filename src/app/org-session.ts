import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useNavigate } from 'react-router-dom';
import type { Organisation } from '../contract/organisation.schema';
import type { Session } from '../shared/session';
import { useAuthRef } from './auth-context';
import { useConfig } from './config-context';
import { forgetOrganisation, orgPath } from './sections';

/**
 * The Session a frame gives its pages for one organisation (the organisation layout's, and the user
 * settings' default organisation): the signed-in user, the organisations, sign-out. Null until both
 * the organisation and the user are known.
 */
export function useOrgSession(org: Organisation | undefined, organisations: Organisation[], refresh: (options?: { quiet?: boolean }) => Promise<void>): Session | null {
  const auth = useAuthRef();
  const user = useSelector(auth, (s) => s.context.user);
  const config = useConfig();
  const navigate = useNavigate();
  return useMemo<Session | null>(
    () =>
      org && user
        ? {
            user,
            organisations,
            org,
            orgPath: orgPath(org.slug),
            config,
            signOut: () => {
              forgetOrganisation();
              auth.send({ type: 'LOGOUT' });
              navigate('/login', { replace: true });
            },
            refreshOrganisations: refresh,
          }
        : null,
    [org, user, organisations, config, auth, navigate, refresh],
  );
}
