import { ServiceRoutesArea } from '../features/routes/service-routes-area';
import { useSession } from '../shared/session';

/** /org/:orgSlug/service-routes/* : the meter-reading screens of the session's organisation. */
export function ServiceRoutes() {
  const { org, orgPath, user } = useSession();
  return <ServiceRoutesArea org={org} orgPath={orgPath} timeDisplay={user.displaySettings.timeDisplay} />;
}
