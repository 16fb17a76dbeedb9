import { lazy, Suspense, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate, Outlet } from 'react-router-dom';
import { AcceptPage } from '../features/auth/accept-page';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { VerifyEmailPage } from '../features/auth/verify-email-page';
import { NotificationsPage } from '../features/notifications/notifications-page';
import { ClientErrorsPage } from '../features/client-errors/client-errors-page';
import { SignupPage } from '../features/signup/signup-page';
import { OrgSettingsPage } from '../features/org-settings/settings-frame';
import { useAuthRef } from './auth-context';
import { useConfig } from './config-context';
import { AuthLayout } from './frame/auth-layout';
import { PlainLayout } from './frame/plain-layout';
import { CatchAll, Landing, RequireAuth, SignedOutOnly } from './guards';
import { supportHref } from './links';
import { DefaultSectionRedirect, OrgLayout, RequireMeterReading, SectionPage } from './org-layout';
import { DefaultOrgRedirect, OrgsGate } from './organisations';
import { RouteErrorPage } from './pages/status-pages';
import { UserSettings, UserSettingsArea } from './user-settings-area';
import { ApiDocsPage } from '../features/api-docs/api-docs-page';

// The sensors area carries the chart (uPlot, the data worker) and the map (maplibre): it loads
// on first visit so the sign-in pages stay small.
const SensorsArea = lazy(() => import('./sensors-area').then((m) => ({ default: m.SensorsArea })));
const MapArea = lazy(() => import('./map-area').then((m) => ({ default: m.MapArea })));
const ServiceRoutes = lazy(() => import('./service-routes-area').then((m) => ({ default: m.ServiceRoutes })));
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
const ForgotPassword = () => <ForgotPasswordPage auth={useAuthRef()} />;
const Accept = () => <AcceptPage auth={useAuthRef()} />;
const Signup = () => <SignupPage auth={useAuthRef()} supportHref={supportHref(useConfig())} />;
function VerifyEmail() {
  const auth = useAuthRef();
  return <VerifyEmailPage onVerified={() => auth.send({ type: 'REFRESH_USER' })} />;
}

const boundary = { errorElement: <RouteErrorPage /> };

/** Monitoring-client 2.1: every top-level route, its guard, and an error boundary on each. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Outlet />,
      ...boundary,
      children: [
        { path: '/', element: <Landing />, ...boundary },
        // the gateway's API documentation (linked from the Integration settings): public, like the document
        { element: <PlainLayout />, ...boundary, children: [{ path: 'api-docs', element: <ApiDocsPage />, ...boundary }] },
        {
          element: <SignedOutOnly />,
          ...boundary,
          children: [
            {
              element: <AuthLayout />,
              ...boundary,
              children: [
                { path: 'login', element: <Login />, ...boundary },
                { path: 'forgot-password', element: <ForgotPassword />, ...boundary },
                { path: 'signup', element: <Signup />, ...boundary },
                { path: 'accept', element: <Accept />, ...boundary },
              ],
            },
          ],
        },
        {
          element: <RequireAuth />,
          ...boundary,
          children: [
            { element: <PlainLayout />, ...boundary, children: [{ path: 'verify-email', element: <VerifyEmail />, ...boundary }] },
            // the signed-in user's settings (organisation-and-routes 2.2), in the default organisation's frame
            {
              path: 'settings',
              element: <OrgsGate />,
              ...boundary,
              children: [
                {
                  element: <UserSettingsArea />,
                  ...boundary,
                  children: [
                    { index: true, element: <Navigate to="account" replace /> },
                    { path: ':section/*', element: <UserSettings />, ...boundary },
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
                    { path: 'sensors/*', element: <SectionPage section="sensors"><Lazy><SensorsArea /></Lazy></SectionPage>, ...boundary },
                    { path: 'map/:serial?', element: <SectionPage section="map"><Lazy><MapArea /></Lazy></SectionPage>, ...boundary },
                    // meter-reading organisations only (organisation-and-routes 2.4); others go to /
                    { path: 'service-routes/*', element: <RequireMeterReading><SectionPage section="service-routes"><Lazy><ServiceRoutes /></Lazy></SectionPage></RequireMeterReading>, ...boundary },
                    { path: 'notifications', element: <SectionPage section="notifications"><NotificationsPage /></SectionPage>, ...boundary },
                    // every role, meter readers included: they see settings without action controls (organisation-and-routes 1, 6)
                    { path: 'settings/*', element: <OrgSettingsPage />, ...boundary },
                    // site admins: client error reports (monitoring-client 9), from the profile menu
                    { path: 'client-errors', element: <ClientErrorsPage />, ...boundary },
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
