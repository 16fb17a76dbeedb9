import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { LoginPage } from '../features/auth/login-page';
import { useAuthRef } from './auth-context';
import { useConfig } from './config-context';
import { AuthLayout } from './frame/auth-layout';
import { PlainLayout } from './frame/plain-layout';
import { CatchAll, Landing, RequireAuth, SignedOutOnly } from './guards';
import { supportHref } from './links';
import { PageTitle, titled } from './page-title';
import { RouteErrorPage } from './pages/status-pages';
import { bothOrFirstAndWait, loader } from './lazy-now';
import { startDataWorker } from '../shared/data-worker-start';
import { ORG_SETTINGS_TITLES } from '../features/org-settings/section-titles';
import { USER_SETTINGS_TITLES } from '../features/user-settings/section-titles';

// Every page but the sign-in page loads on first visit (the sign-in page is where a signed-out
// visitor lands, so it comes with the app rather than one round trip later): the sensors area
// carries the chart (uPlot, the data worker), the map area maplibre and deck.gl, the sign-up
// wizard the common-password list; none of it is fetched by a visitor who only signs in.
const AcceptPage = lazy(() => import('../features/auth/accept-page').then((m) => ({ default: m.AcceptPage })));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })));
const SignupPage = lazy(() => import('../features/signup/signup-page').then((m) => ({ default: m.SignupPage })));
const notificationsCode = loader(() => import('../features/notifications/notifications-page'));
const NotificationsPage = notificationsCode.component((m) => m.NotificationsPage);
const ClientErrorsPage = lazy(() => import('../features/client-errors/client-errors-page').then((m) => ({ default: m.ClientErrorsPage })));
const orgSettingsCode = loader(() => import('../features/org-settings/settings-frame'));
const OrgSettingsPage = orgSettingsCode.component((m) => m.OrgSettingsPage);
const ApiDocsPage = lazy(() => import('../features/api-docs/api-docs-page').then((m) => ({ default: m.ApiDocsPage })));
const UserSettingsArea = lazy(() => import('./user-settings-area').then((m) => ({ default: m.UserSettingsArea })));
const UserSettings = lazy(() => import('./user-settings-area').then((m) => ({ default: m.UserSettings })));
const sensorsCode = loader(() => import('./sensors-area'));
const SensorsArea = sensorsCode.component((m) => m.SensorsArea);
const mapCode = loader(() => import('./map-area'));
const MapArea = mapCode.component((m) => m.MapArea);
const serviceRoutesCode = loader(() => import('./service-routes-area'));
const ServiceRoutes = serviceRoutesCode.component((m) => m.ServiceRoutes);
// The signed-in frame (the organisations gate, the app frame with its menus, org switcher and
// dialogs) loads after sign-in too: the sign-in page ships only what it draws.
const organisationsCode = loader(() => import('./organisations'));
const orgLayoutCode = loader(() => import('./org-layout'));
const OrgsGateNow = organisationsCode.component((m) => m.OrgsGate);
const DefaultOrgRedirectNow = organisationsCode.component((m) => m.DefaultOrgRedirect);
const OrgLayoutNow = orgLayoutCode.component((m) => m.OrgLayout);
const DefaultSectionRedirectNow = orgLayoutCode.component((m) => m.DefaultSectionRedirect);
const SectionPageNow = orgLayoutCode.component((m) => m.SectionPage);
const RequireMeterReadingNow = orgLayoutCode.component((m) => m.RequireMeterReading);

/** The section of /org/{slug}/{section}..., whose page's code a signed-in visit fetches beside the frame's. */
const SECTION_CODE: Record<string, () => Promise<unknown>> = {
  sensors: sensorsCode.load,
  map: mapCode.load,
  notifications: notificationsCode.load,
  settings: orgSettingsCode.load,
  'service-routes': serviceRoutesCode.load,
};

/**
 * How long the signed-in splash waits for the section's code once the frame's is in. On loopback
 * and a fast line both come together and the page draws at once; on a slow phone line the frame
 * shows after this, with the section loading inside it.
 */
const SECTION_WAIT_MS = 500;

/**
 * A signed-in visit to an organisation's page: the frame's chunks, the page's own (its section's)
 * and, for the sensors and the map, the data worker (which fetches the fleet) start together while
 * the user is read, not one after another as each lazy level renders; on slow 4G each of those
 * steps is a round trip and more. Without it a section's code was asked for only once the frame
 * had loaded and drawn (the notifications page's about 0.3 s after the frame's, benchmark 22).
 */
function preloadSignedIn(pathname: string): Promise<unknown> | undefined {
  if (!/^\/org(?:\/|$)/.test(pathname)) return undefined;
  const section = /^\/org\/[^/]+\/([^/]+)/.exec(pathname)?.[1];
  // the fleet's pages: the worker's script first, then its client's code, ahead of the pages' chunks
  // in the browser's queue (six requests at a time over HTTP/1.1), so the fleet's first page is
  // asked for as soon as the organisations are in (src/shared/early-reads.ts)
  if (section === 'sensors' || section === 'map') {
    startDataWorker();
    void import('../shared/data-worker').then((m) => m.dataWorker());
  }
  const frame = Promise.all([organisationsCode.load(), orgLayoutCode.load()]);
  const code = section !== undefined && Object.hasOwn(SECTION_CODE, section) ? SECTION_CODE[section] : undefined;
  // a failure settles it too: the page's own import reports it when it renders
  return bothOrFirstAndWait(frame, code ? code() : Promise.resolve(), SECTION_WAIT_MS);
}
const Lazy = ({ children }: { children: ReactNode }) => (
  <Suspense
    fallback={
      <Center h="60vh">
        <Loader aria-label="Loading" />
      </Center>
    }
  >
    {children}
  </Suspense>
);

// The pages take the auth machine as a prop: features do not import the app.
const Login = () => <LoginPage auth={useAuthRef()} />;
const ForgotPassword = () => <Lazy><ForgotPasswordPage auth={useAuthRef()} preventUserExistenceErrors={useConfig().auth.preventUserExistenceErrors !== false} /></Lazy>;
const Accept = () => <Lazy><AcceptPage auth={useAuthRef()} /></Lazy>;
const Signup = () => <Lazy><SignupPage auth={useAuthRef()} supportHref={supportHref(useConfig())} /></Lazy>;
function VerifyEmail() {
  const auth = useAuthRef();
  return <Lazy><VerifyEmailPage onVerified={() => auth.send({ type: 'REFRESH_USER' })} /></Lazy>;
}

const OrgsGate = () => <Lazy><OrgsGateNow /></Lazy>;
const DefaultOrgRedirect = () => <Lazy><DefaultOrgRedirectNow /></Lazy>;
const OrgLayout = () => <Lazy><OrgLayoutNow /></Lazy>;
const DefaultSectionRedirect = () => <Lazy><DefaultSectionRedirectNow /></Lazy>;
const SectionPage = (p: ComponentProps<typeof SectionPageNow>) => <Lazy><SectionPageNow {...p} /></Lazy>;
const RequireMeterReading = (p: ComponentProps<typeof RequireMeterReadingNow>) => <Lazy><RequireMeterReadingNow {...p} /></Lazy>;

const boundary = { errorElement: <RouteErrorPage /> };

const section = (labels: Record<string, string>, path: string | undefined) => {
  const id = (path ?? '').split('/')[0];
  return Object.hasOwn(labels, id) ? labels[id] : undefined;
};
/** The sensors area's screens (monitoring-client 2.4, 2.5): its routes are its own, under sensors/*. */
const sensorsTitle = (params: { '*'?: string }, sensor: string | undefined) => {
  const [serial, tab] = (params['*'] ?? '').split('/');
  if (!serial) return ['Sensors'];
  const screen = tab === 'setup' ? 'Sensor Setup' : tab === 'admin-tools' || tab === 'errors' ? 'Measurement Errors' : undefined;
  return [screen, sensor ?? serial.toUpperCase(), 'Sensors'];
};
/** The task list, or one task's readings (organisation-and-routes 2.4). */
const serviceRoutesTitle = (params: { '*'?: string }) => {
  const task = /^\d+/.exec(params['*'] ?? '')?.[0];
  return [task && `Task ${task}`, 'Service Routes'];
};

/** Monitoring-client 2.1: every top-level route, its guard, and an error boundary on each. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <PageTitle />,
      ...boundary,
      children: [
        { path: '/', element: <Landing />, ...boundary },
        // the gateway's API documentation (linked from the Integration settings): public, like the document
        { element: <PlainLayout />, ...boundary, children: [{ path: 'api-docs', element: <Lazy><ApiDocsPage /></Lazy>, ...titled('API Documentation'), ...boundary }] },
        {
          element: <SignedOutOnly />,
          ...boundary,
          children: [
            {
              element: <AuthLayout />,
              ...boundary,
              children: [
                { path: 'login', element: <Login />, ...titled('Sign in'), ...boundary },
                { path: 'forgot-password', element: <ForgotPassword />, ...titled('Reset password'), ...boundary },
                { path: 'signup', element: <Signup />, ...titled('Sign up'), ...boundary },
                { path: 'accept', element: <Accept />, ...titled('Accept invitation'), ...boundary },
              ],
            },
          ],
        },
        {
          element: <RequireAuth onSession={preloadSignedIn} />,
          ...boundary,
          children: [
            { element: <PlainLayout />, ...boundary, children: [{ path: 'verify-email', element: <VerifyEmail />, ...titled('Verify email'), ...boundary }] },
            // the signed-in user's settings (organisation-and-routes 2.2), in the default organisation's frame
            {
              path: 'settings',
              element: <OrgsGate />,
              ...boundary,
              children: [
                {
                  element: <Lazy><UserSettingsArea /></Lazy>,
                  ...boundary,
                  children: [
                    { index: true, element: <Navigate to="account" replace /> },
                    { path: ':section/*', element: <Lazy><UserSettings /></Lazy>, ...titled((p) => [section(USER_SETTINGS_TITLES, p.section), 'Settings']), ...boundary },
                  ],
                },
              ],
            },
            {
              path: 'org',
              element: <OrgsGate />,
              ...boundary,
              children: [
                { index: true, element: <DefaultOrgRedirect /> },
                {
                  path: ':orgSlug',
                  element: <OrgLayout />,
                  ...boundary,
                  children: [
                    { index: true, element: <DefaultSectionRedirect /> },
                    { path: 'sensors/*', element: <SectionPage section="sensors"><Lazy><SensorsArea /></Lazy></SectionPage>, ...titled(sensorsTitle), ...boundary },
                    { path: 'map/:serial?', element: <SectionPage section="map"><Lazy><MapArea /></Lazy></SectionPage>, ...titled('Map'), ...boundary },
                    // meter-reading organisations only (organisation-and-routes 2.4); others go to /
                    { path: 'service-routes/*', element: <RequireMeterReading><SectionPage section="service-routes"><Lazy><ServiceRoutes /></Lazy></SectionPage></RequireMeterReading>, ...titled(serviceRoutesTitle), ...boundary },
                    { path: 'notifications', element: <SectionPage section="notifications"><Lazy><NotificationsPage /></Lazy></SectionPage>, ...titled('Notifications'), ...boundary },
                    // every role, meter readers included: they see settings without action controls (organisation-and-routes 1, 6)
                    { path: 'settings/*', element: <Lazy><OrgSettingsPage /></Lazy>, ...titled((p) => [section(ORG_SETTINGS_TITLES, p['*']), 'Organisation Settings']), ...boundary },
                    // site admins: client error reports (monitoring-client 9), from the profile menu
                    { path: 'client-errors', element: <Lazy><ClientErrorsPage /></Lazy>, ...titled('Client Errors'), ...boundary },
                    // anything unknown: the default section.
                    { path: '*', element: <DefaultSectionRedirect /> },
                  ],
                },
              ],
            },
          ],
        },
        { path: '*', element: <CatchAll /> },
      ],
    },
  ]);
}
