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
import { mapCode, notificationsCode, organisationsCode, orgLayoutCode, orgSettingsCode, preloadSignedIn, sensorsCode, serviceRoutesCode } from './page-code';
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
const NotificationsPage = notificationsCode.component((m) => m.NotificationsPage);
const ClientErrorsPage = lazy(() => import('../features/client-errors/client-errors-page').then((m) => ({ default: m.ClientErrorsPage })));
const OrgSettingsPage = orgSettingsCode.component((m) => m.OrgSettingsPage);
const ApiDocsPage = lazy(() => import('../features/api-docs/api-docs-page').then((m) => ({ default: m.ApiDocsPage })));
const UserSettingsArea = lazy(() => import('./user-settings-area').then((m) => ({ default: m.UserSettingsArea })));
const UserSettings = lazy(() => import('./user-settings-area').then((m) => ({ default: m.UserSettings })));
const SensorsArea = sensorsCode.component((m) => m.SensorsArea);
const MapArea = mapCode.component((m) => m.MapArea);
const ServiceRoutes = serviceRoutesCode.component((m) => m.ServiceRoutes);
const OrgsGateNow = organisationsCode.component((m) => m.OrgsGate);
const DefaultOrgRedirectNow = organisationsCode.component((m) => m.DefaultOrgRedirect);
const OrgLayoutNow = orgLayoutCode.component((m) => m.OrgLayout);
const DefaultSectionRedirectNow = orgLayoutCode.component((m) => m.DefaultSectionRedirect);
const SectionPageNow = orgLayoutCode.component((m) => m.SectionPage);
const RequireMeterReadingNow = orgLayoutCode.component((m) => m.RequireMeterReading);

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
