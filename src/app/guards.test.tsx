// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useSearchParams } from 'react-router-dom';
import { AuthContext, type AuthRef } from './auth-context';
import { RequireAuth } from './guards';

afterEach(cleanup);

/** An auth actor as the guards read it: a snapshot with matches(), and subscribers told of each change. */
function authIn(state: string, context = { loggedOut: false }) {
  let snapshot = { matches: (s: string) => s === state, context };
  const listeners = new Set<() => void>();
  const ref = {
    getSnapshot: () => snapshot,
    subscribe: (o: (() => void) | { next: () => void }) => {
      const f = typeof o === 'function' ? o : () => o.next();
      listeners.add(f);
      return { unsubscribe: () => listeners.delete(f) };
    },
  } as unknown as AuthRef;
  const to = (next: string, nextContext = context) => {
    snapshot = { matches: (s: string) => s === next, context: nextContext };
    listeners.forEach((f) => f());
  };
  return { ref, to };
}

/** The login route, saying where it would go back to. */
function SignIn() {
  const [params] = useSearchParams();
  return <p>sign in{params.has('redirect') ? `, then back to ${params.get('redirect')}` : ''}</p>;
}

function renderGuarded(auth: AuthRef, onSession: (pathname: string) => Promise<unknown> | void) {
  render(
    <MantineProvider>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/org/acme/notifications']}>
          <Routes>
            <Route element={<RequireAuth onSession={onSession} />}>
              <Route path="/org/*" element={<p>the page</p>} />
            </Route>
            <Route path="/login" element={<SignIn />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </MantineProvider>,
  );
}

const deferred = () => {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('RequireAuth: the splash stays until the code the session preloads is in', () => {
  it('keeps the splash once signed in while the page code loads, then draws the page; the preload is told the path once', async () => {
    const auth = authIn('loadingUser');
    const code = deferred();
    const asked: string[] = [];
    renderGuarded(auth.ref, (path) => {
      asked.push(path);
      return code.promise;
    });
    act(() => auth.to('authenticated'));
    expect(screen.queryByText('the page')).toBeNull();
    await act(async () => code.resolve());
    expect(screen.getByText('the page')).toBeTruthy();
    expect(asked).toEqual(['/org/acme/notifications']);
  });

  it('draws the page when the code load fails (its own import then reports it)', async () => {
    const auth = authIn('loadingUser');
    const code = deferred();
    renderGuarded(auth.ref, () => code.promise);
    act(() => auth.to('authenticated'));
    await act(async () => code.reject(new Error('Failed to fetch')));
    expect(screen.getByText('the page')).toBeTruthy();
  });

  it('draws the page at once when there is nothing to preload', async () => {
    const auth = authIn('authenticated');
    renderGuarded(auth.ref, () => undefined);
    await act(async () => undefined);
    expect(screen.getByText('the page')).toBeTruthy();
  });

  it('sends a signed-out visitor to sign in, whatever is loading', async () => {
    const auth = authIn('signedOut');
    renderGuarded(auth.ref, () => new Promise(() => undefined));
    await act(async () => undefined);
    expect(screen.getByText('sign in, then back to /org/acme/notifications')).toBeTruthy();
  });

  it('sends a user whose session ended on this page by their own Log out to a plain sign-in, with no way back', async () => {
    const auth = authIn('authenticated');
    renderGuarded(auth.ref, () => undefined);
    await act(async () => undefined);
    act(() => auth.to('signingOut', { loggedOut: true }));
    act(() => auth.to('unauthenticated', { loggedOut: true }));
    expect(screen.getByText('sign in')).toBeTruthy();
  });
});
