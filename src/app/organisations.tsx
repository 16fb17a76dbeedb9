import { createContext, startTransition, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { Button } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { Navigate, Outlet } from 'react-router-dom';
import { organisationListSchema, type Organisation } from '../contract/organisation.schema';
import { pendingInvitationListSchema, type PendingInvitation } from '../contract/pending-invitation.schema';
import { messageForError } from '../domain/messages';
import { normaliseTimeZone } from '../domain/time-zone';
import { ApiError, api } from '../shared/api';
import { readEarly } from '../shared/early-reads';
import { useAuthRef } from './auth-context';
import { useConfig } from './config-context';
import { Splash, ToReaderApp } from './guards';
import { supportHref } from './links';
import { NoOrganisationsPage } from './pages/status-pages';
import { StatusScreen } from './pages/status-screen';
import { defaultOrganisation, orgPath, defaultSection, isMeterReader } from './sections';
import { PendingInvitationsPrompt } from './pending-invitations';
import { READER_NAME } from '../shared/page-title';

/** quiet: a background re-read whose failure keeps the list shown (a sign-in that has expired still signs out). */
export interface RefreshOptions {
  quiet?: boolean;
}

interface Orgs {
  organisations: Organisation[];
  refresh(options?: RefreshOptions): Promise<void>;
}

const OrgsContext = createContext<Orgs | null>(null);

export function useOrgs(): Orgs {
  const orgs = useContext(OrgsContext);
  if (!orgs) throw new Error('useOrgs outside OrgsGate');
  return orgs;
}

type Load = { status: 'loading' } | { status: 'ready'; organisations: Organisation[] } | { status: 'failed'; message: string };

/** GET /organisations for the signed-in user; /org pages render once it is known. */
export function OrgsGate() {
  const auth = useAuthRef();
  const config = useConfig();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const shown = useRef(false);

  const refresh = useCallback(async (options?: RefreshOptions) => {
    try {
      // the first read was begun beside the user's (src/shared/early-reads.ts)
      const { organisations } = await readEarly('/organisations', organisationListSchema);
      // a legacy zone name (NZST) would throw in every formatter: each page gets an IANA zone
      const ready: Load = { status: 'ready', organisations: organisations.map((o) => ({ ...o, locale: { ...o.locale, timezone: normaliseTimeZone(o.locale.timezone) } })) };
      // the first list draws the whole frame and its page: a transition, rendered in slices that
      // yield to the browser (docs/performance.md); a refresh, which callers await before they
      // navigate, is committed at once
      if (shown.current) setLoad(ready);
      else startTransition(() => setLoad(ready));
      shown.current = true;
    } catch (err) {
      // A rejected token is a failed token check: sign out and come back here after login.
      if (err instanceof ApiError && (err.status === 401 || err.code === 'NOT_LOGGED_IN')) auth.send({ type: 'SESSION_EXPIRED' });
      else {
        const failed: Load = { status: 'failed', message: messageForError(err) };
        setLoad((prev) => (options?.quiet && prev.status === 'ready' ? prev : failed));
      }
    }
  }, [auth]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (load.status === 'loading') return <Splash />;
  if (load.status === 'failed') {
    return (
      <StatusScreen icon={<IconCloudOff size={34} />} color="orange" title="Your organisations could not be loaded" actions={<Button onClick={() => { setLoad({ status: 'loading' }); void refresh(); }}>Try again</Button>}>
        {load.message}
      </StatusScreen>
    );
  }
  if (load.organisations.length === 0)
    return (
      <>
        <NoOrganisationsPage onSignOut={() => auth.send({ type: 'LOGOUT' })} supportLink={supportHref(config)} />
        {/* an account with no organisation yet may have been invited to one */}
        <PendingInvitationsPrompt onJoined={refresh} />
      </>
    );
  return (
    <OrgsContext.Provider value={{ organisations: load.organisations, refresh }}>
      <Outlet />
    </OrgsContext.Provider>
  );
}

/** /org : the default organisation's default section. */
export function DefaultOrgRedirect() {
  const { organisations } = useOrgs();
  const org = defaultOrganisation(organisations)!;
  // a meter reader lands in the reader app (issue 33): the organisation's data pages are not for them
  if (isMeterReader(org)) return <MeterReaderLanding />;
  return <Navigate to={`${orgPath(org.slug)}/${defaultSection(org)}`} replace />;
}

/**
 * A meter reader goes on to the reader app, but is first asked about any invitation waiting for them
 * (an invitation to join as a member is answered here, in the organisation app; accepting one opens
 * that organisation).
 */
function MeterReaderLanding() {
  const { refresh } = useOrgs();
  const [pending, setPending] = useState<PendingInvitation[] | null>(null);
  const [toReader, setToReader] = useState(false);
  useEffect(() => {
    const ctl = new AbortController();
    api
      .get('/invitations', { schema: pendingInvitationListSchema, signal: ctl.signal })
      .then((r) => (r.invitations.length ? setPending(r.invitations) : setToReader(true)))
      .catch(() => {
        if (!ctl.signal.aborted) setToReader(true); // the question comes back on the next sign-in
      });
    return () => ctl.abort();
  }, []);
  if (toReader) return <ToReaderApp />;
  if (!pending) return <Splash />;
  return (
    <>
      <Splash title={READER_NAME} />
      <PendingInvitationsPrompt invitations={pending} onJoined={refresh} onNoneLeft={() => setToReader(true)} />
    </>
  );
}
