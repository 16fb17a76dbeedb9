import { useEffect, useState } from 'react';
import { Center, Loader, Stack, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router-dom';
import type { AuthSnapshot } from '../../machines/auth.machine';
import { useAuthRef } from './auth-context';
import { BrandMark } from './frame/brand';

/** in: signed in; out: signed out; pending: the session or the user is still being read. */
export type AuthPhase = 'in' | 'out' | 'pending';

export function authPhase(s: AuthSnapshot): AuthPhase {
  if (s.matches('authenticated')) return 'in';
  if (s.matches('loading') || s.matches('loadingUser') || s.matches('creatingSelf') || s.matches('signingOut')) return 'pending';
  return 'out';
}

export const useAuthPhase = () => useSelector(useAuthRef(), authPhase);

/** Only local paths are followed after sign-in (no open redirects). */
export const safeRedirect = (value: string | null) => (value && value.startsWith('/') && !value.startsWith('//') ? value : '/');

export const loginPathFor = (pathname: string, search: string) => `/login?redirect=${encodeURIComponent(pathname + search)}`;

/**
 * The brand mark and a loader while the app finds where to go. With a title it is a page of its own
 * (a main landmark and an h1, issue 16) that waits on the user, not on a load, so it has no loader:
 * the meter reader's landing behind its invitation question.
 */
export function Splash({ title }: { title?: string }) {
  return (
    <Center component={title ? 'main' : 'div'} h="100dvh">
      <Stack align="center" gap="lg">
        <BrandMark size={48} />
        {title && (
          <Title order={1} size="h3">
            {title}
          </Title>
        )}
        {!title && <Loader size="sm" />}
      </Stack>
    </Center>
  );
}

/** The meter reader's app: a second entry of the build, so reached by loading the page, not by the router. */
export const READER_APP_PATH = '/reader/';
export const isReaderAppPath = (path: string) => /^\/reader(?:[/?#]|$)/.test(path);

export function ToReaderApp({ path = READER_APP_PATH }: { path?: string }) {
  useEffect(() => window.location.replace(path), [path]);
  return <Splash />;
}

/**
 * Protected pages: signed-out visitors go to /login?redirect={path}{query}. `onSession` is told the
 * path once a stored session is found, while the user is still being read, so the page's chunks
 * can load alongside that call rather than after it. When it gives back a promise (the code the
 * page needs), the splash stays until that settles: the pages then render at once, with no
 * Suspense fallback shown on the way, and React 19 holds a suspended boundary's reveal until
 * 300 ms after the last fallback it showed (docs/performance.md).
 */
export function RequireAuth({ onSession }: { onSession?: (pathname: string) => Promise<unknown> | void }) {
  const auth = useAuthRef();
  const phase = useAuthPhase();
  const hasSession = useSelector(auth, (s) => s.matches('loadingUser') || s.matches('authenticated'));
  // Log out navigates to /login itself, but on a slow device the sign-out can finish before that
  // navigation's render commits: this page then redirects too, to the same plain /login
  const loggedOut = useSelector(auth, (s) => s.context.loggedOut);
  const { pathname, search } = useLocation();
  const [codeIn, setCodeIn] = useState(!onSession);
  useEffect(() => {
    if (!hasSession) return;
    let live = true;
    const release = () => live && setCodeIn(true);
    const code = onSession?.(pathname);
    // a failed load releases too: the page's own import then shows the failure
    if (code) void code.then(release, release);
    else release();
    return () => {
      live = false;
    };
    // once a session: a later navigation loads its page as it renders
  }, [hasSession]);
  if (phase === 'pending' || (phase === 'in' && !codeIn)) return <Splash />;
  if (phase === 'out') return <Navigate to={loggedOut ? '/login' : loginPathFor(pathname, search)} replace />;
  return <Outlet />;
}

/** /login, /forgot-password, /signup and /accept: a signed-in user goes to ?redirect= or /. */
export function SignedOutOnly() {
  const auth = useAuthRef();
  const checking = useSelector(auth, (s) => s.matches('loading'));
  const phase = useSelector(auth, authPhase);
  const [params] = useSearchParams();
  if (checking) return <Splash />;
  if (phase === 'in') {
    const to = safeRedirect(params.get('redirect'));
    return isReaderAppPath(to) ? <ToReaderApp path={to} /> : <Navigate to={to} replace />;
  }
  return <Outlet />;
}

/** / : the organisation home when signed in, else /login. */
export function Landing() {
  const phase = useAuthPhase();
  if (phase === 'pending') return <Splash />;
  return <Navigate to={phase === 'in' ? '/org' : '/login'} replace />;
}

/** Anything else: to the app when signed in, otherwise to /login?redirect={path}{query}. */
export function CatchAll() {
  const phase = useAuthPhase();
  const { pathname, search } = useLocation();
  if (phase === 'pending') return <Splash />;
  return <Navigate to={phase === 'in' ? '/' : loginPathFor(pathname, search)} replace />;
}
