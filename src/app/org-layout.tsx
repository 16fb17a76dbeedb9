import { useEffect, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { SessionContext, useSession } from '../shared/session';
import { useTitlePart } from '../shared/page-title';
import { AppFrame } from './frame/app-frame';
import { useOrgs } from './organisations';
import { useOrgSession } from './org-session';
import { MeterReaderPage, MfaRequiredPage } from './pages/status-pages';
import { PendingInvitationsPrompt } from './pending-invitations';
import { defaultOrganisation, defaultSection, isMeterReader, isSection, orgPath, rememberOrganisation, resolveOrgSlug, type OrgSection } from './sections';

/**
 * /org/:orgSlug : resolves the organisation, provides the Session to its pages and draws the frame.
 * A slug the organisation had before a rename goes to its current slug, an unknown slug to the
 * default organisation; either keeps the rest of the path.
 */
export function OrgLayout() {
  const { orgSlug } = useParams();
  const { pathname, search } = useLocation();
  const { organisations, refresh } = useOrgs();
  const org = organisations.find((o) => o.slug === orgSlug);

  useEffect(() => {
    if (org) rememberOrganisation(org);
  }, [org]);

  const session = useOrgSession(org, organisations, refresh);
  useTitlePart('org', org?.name);

  if (!org) {
    // an old slug (the organisation was renamed) resolves through that organisation's id; only
    // a slug no organisation of the user ever had goes to the default organisation
    const target = resolveOrgSlug(organisations, orgSlug) ?? defaultOrganisation(organisations)!;
    const rest = pathname.split('/').slice(3).join('/');
    return <Navigate to={`${orgPath(target.slug)}/${rest || defaultSection(target)}${search}`} replace />;
  }
  if (!session) return null;
  if (org.mfaSetupNeeded) return <MfaRequiredPage orgName={org.name} onRetry={() => void refresh()} onSignOut={session.signOut} />;
  return (
    <SessionContext.Provider value={session}>
      <AppFrame>
        <Outlet />
      </AppFrame>
      <PendingInvitationsPrompt onJoined={refresh} />
    </SessionContext.Provider>
  );
}

/** The organisation's default section (also where unknown and unbuilt sections go). */
export function DefaultSectionRedirect() {
  const { org, orgPath: base } = useSession();
  return <Navigate to={`${base}/${defaultSection(org)}`} replace />;
}

/** A data page: only where the organisation has that section, and never for meter readers. */
export function SectionPage({ section, children }: { section: OrgSection; children: ReactNode }) {
  const { org } = useSession();
  if (!isSection(org, section)) return <DefaultSectionRedirect />;
  if (isMeterReader(org)) return <MeterReaderPage />;
  return <>{children}</>;
}

/** Service routes need the organisation's meterReading feature; without it the user goes to / (organisation-and-routes 2.4). */
export function RequireMeterReading({ children }: { children: ReactNode }) {
  const { org } = useSession();
  if (!org.features.meterReading) return <Navigate to="/" replace />;
  return <>{children}</>;
}
