import { useEffect } from 'react';
import { Button, Group } from '@mantine/core';
import { IconBuildingCommunity, IconLock, IconMapOff, IconMoodSad, IconShieldLock } from '@tabler/icons-react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { METER_READER_MESSAGE } from '../../domain/messages';
import { StatusScreen } from './status-screen';
import { supportHref } from '../links';
import { reportClientError } from '../../shared/client-errors';

/** 'Oops! Something went wrong' with Contact Us and Try again (reload): shown by every route's error boundary. */
export function OopsPage({ supportLink = supportHref() }: { supportLink?: string }) {
  return (
    <StatusScreen
      icon={<IconMoodSad size={34} />}
      color="red"
      title="Oops! Something went wrong"
      actions={
        <Group>
          <Button component="a" href={supportLink} variant="default">
            Contact Us
          </Button>
          <Button onClick={() => window.location.reload()}>Try again</Button>
        </Group>
      }
    >
      An unexpected error stopped this page. Try again, and if it keeps happening let us know.
    </StatusScreen>
  );
}

/** A route's error boundary: an unknown path is 'not found', anything thrown is 'Oops'. */
export function RouteErrorPage() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // a failed render is reported (sampled) like an uncaught error (monitoring-client 9)
  useEffect(() => {
    if (!notFound) void reportClientError('render', error);
  }, [error, notFound]);
  if (notFound) return <NotFoundPage />;
  console.error(error);
  return <OopsPage />;
}

export function NotFoundPage() {
  return (
    <StatusScreen
      icon={<IconMapOff size={34} />}
      title="Page Not Found"
      actions={
        <Button component={Link} to="/">
          Go to the app
        </Button>
      }
    >
      The page you are looking for does not exist or has moved.
    </StatusScreen>
  );
}

/** Meter readers are refused the organisation's data pages (monitoring-client 2.1, 6). */
export function MeterReaderPage() {
  return (
    <StatusScreen
      icon={<IconLock size={34} />}
      title="Page Not Found"
      color="orange"
      actions={
        // the reader app is another page of the build: a plain link loads it
        <Button component="a" href="/reader/">
          Open the meter reader app
        </Button>
      }
    >
      {METER_READER_MESSAGE}
    </StatusScreen>
  );
}

/**
 * A manager of an organisation that requires two-factor authentication, without it (a session from
 * before the owner required it): the server refuses the organisation's data (403 MFA_REQUIRED)
 * until it is on, so the page says why and where to set it up.
 */
export function MfaRequiredPage({ orgName, onRetry, onSignOut }: { orgName: string; onRetry: () => void; onSignOut: () => void }) {
  return (
    <StatusScreen
      icon={<IconShieldLock size={34} />}
      title="Two-factor authentication required"
      color="orange"
      actions={
        <Group>
          <Button component={Link} to="/settings/account">
            Set up two-factor authentication
          </Button>
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
          <Button variant="default" onClick={onSignOut}>
            Log out
          </Button>
        </Group>
      }
    >
      {orgName} requires its owners and admins to use two-factor authentication. Set it up in your account settings (Two-factor authentication), then open the organisation again.
    </StatusScreen>
  );
}

/** The user belongs to no organisation (an empty organisation list). */
export function NoOrganisationsPage({ onSignOut, supportLink }: { onSignOut: () => void; supportLink: string }) {
  return (
    <StatusScreen
      icon={<IconBuildingCommunity size={34} />}
      title="No organisations yet"
      actions={
        <Group>
          <Button component="a" href={supportLink} variant="default">
            Contact Us
          </Button>
          <Button onClick={onSignOut}>Log out</Button>
        </Group>
      }
    >
      Your account is not a member of any organisation. Ask your organisation&apos;s admin to invite you, then log in again.
    </StatusScreen>
  );
}
