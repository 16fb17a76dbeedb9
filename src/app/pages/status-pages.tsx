import { useEffect } from 'react';
import { Button, Group } from '@mantine/core';
import { IconBuildingCommunity, IconLock, IconMapOff, IconMoodSad } from '@tabler/icons-react';
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
