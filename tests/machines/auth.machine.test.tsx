// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { createActor, type EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { authMachine, authViewMode, type AuthSnapshot } from '../../machines/auth.machine';
import { AcceptPage } from '../../src/features/auth/accept-page';
import { ForgotPasswordPage } from '../../src/features/auth/forgot-password-page';
import { LoginPage } from '../../src/features/auth/login-page';
import { SignupPage } from '../../src/features/signup/signup-page';
// loaded by the login and accept pages through React.lazy when a sign-in reaches the offer: in the module
// cache before the paths run, so the first path that reaches it renders it at once, as later ones do
import '../../src/features/auth/recovery-codes-offer';
import { LOGIN_MESSAGES, RESET_MESSAGES } from '../../src/domain/messages';
import { theme } from '../../src/app/theme';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';
import { OUTCOMES, SETUP_KEY_SHOWN, authModel, authModelEvents, expectedMode, userCanCause, type AuthModelEvent, type AuthModelSnapshot, type Outcome } from './auth-model';

// Monitoring-client 2.2 (login modes LOGIN, RESET, NEW_PASSWORD, LOADING), 4 (authentication states),
// 5 (login and reset rules) and 8 (login and reset messages); organisation-and-routes 8 (reset code request);
// the security issue's TOTP MFA (the code step of the login view) and MFA required by role (the setup step).
// The model (auth-model.ts) is written from the spec; its paths drive the real pages around the real machine.

const ACTORS = ['checkSession', 'signIn', 'confirmTotp', 'confirmTotpSetup', 'completeNewPassword', 'loadCurrentUser', 'createSelf', 'signOut', 'requestReset', 'confirmReset', 'acceptInvite'];

/** The real signed-out pages around a real auth actor whose calls the test settles. */
function mountLoginView(inspect?: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(ACTORS);
  const actor = createActor(authMachine.provide({ actors: ctl.actors as never }), { inspect }).start();
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage auth={actor} /> },
      { path: '/forgot-password', element: <ForgotPasswordPage auth={actor} /> },
      { path: '/accept', element: <AcceptPage auth={actor} /> },
      { path: '/signup', element: <SignupPage auth={actor} supportHref="mailto:help@example.com" /> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <MantineProvider theme={theme}>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { actor, router, ctl };
}
type View = ReturnType<typeof mountLoginView>;

const settle = () => act(() => flush());
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = async (name: string) => {
  fireEvent.click(screen.getByRole('button', { name }));
  await settle();
};
const go = (view: View, to: string) => act(() => view.router.navigate(to));
const path = (view: View) => view.router.state.location.pathname;

/** What the user does in the pages for each model event (frame events go to the actor, as the frame sends them); how a call ends settles it. */
async function perform(view: View, event: AuthModelEvent) {
  const s = view.actor.getSnapshot();
  switch (event.type) {
    case 'LOGIN':
      if (path(view) !== '/login') await go(view, '/login');
      type('Email', event.email);
      type('Password', event.password);
      return press('Log in');
    case 'SUBMIT_NEW_PASSWORD':
      type('New password', event.password);
      type('Confirm new password', event.confirmation);
      return press('Set new password');
    case 'SUBMIT_TOTP':
      type('Authentication code', event.code);
      return press('Verify');
    case 'CONTINUE':
      return press('Continue');
    case 'FORGOT_PASSWORD':
      if (path(view) === '/login' && screen.queryByRole('link', { name: 'Forgot password' })) {
        fireEvent.click(screen.getByRole('link', { name: 'Forgot password' }));
        return settle();
      }
      return go(view, '/forgot-password');
    case 'SHOW_LOGIN':
      if (s.matches({ unauthenticated: 'newPassword' }) || s.matches({ unauthenticated: 'totpCode' }) || s.matches({ unauthenticated: 'totpSetup' })) return press('Back to login');
      if (path(view) === '/forgot-password') {
        fireEvent.click(screen.getByRole('link', { name: /Back to login/ }));
        return settle();
      }
      return go(view, '/login');
    case 'REQUEST_CODE':
      if (screen.queryByRole('button', { name: 'Send code' })) {
        type('Email', event.email);
        return press('Send code');
      }
      return press('Send a new code');
    case 'CONFIRM_RESET':
      type('Code', event.code);
      type('New password', event.password);
      type('Confirm new password', event.confirmation);
      return press('Change password');
    case 'ACCEPT_INVITE':
      if (path(view) !== '/accept') await go(view, `/accept?email=${encodeURIComponent(event.email)}&code=${encodeURIComponent(event.code)}`);
      type('New password', event.password);
      type('Confirm new password', event.confirmation);
      return press('Accept invitation');
    // the sign-up wizard sends it when it opens (src/features/signup/signup-page.tsx)
    case 'SHOW_SIGNUP':
    case 'REFRESH_USER':
    case 'SESSION_EXPIRED':
    case 'LOGOUT':
      view.actor.send(event);
      return settle();
    default: {
      const { src, ok, value } = OUTCOMES[event.type as Outcome];
      const call = view.ctl.take(src);
      if (ok) call.resolve(value);
      else call.reject(value);
      return settle();
    }
  }
}

/** The call the machine must be waiting on in each busy state of the model, with the spec's normalised input. */
function expectedCall(m: AuthModelSnapshot): [string, unknown] | null {
  const { email } = m.context;
  if (m.matches({ unauthenticated: 'signingIn' })) return ['signIn', { email, password: 'Demo-pass-2026!' }];
  if (m.matches({ unauthenticated: 'confirmingTotp' })) return ['confirmTotp', { code: m.context.code }];
  if (m.matches({ unauthenticated: 'confirmingTotpSetup' })) return ['confirmTotpSetup', { code: m.context.code }];
  if (m.matches({ unauthenticated: 'settingPassword' })) return ['completeNewPassword', { password: 'N3w-pass!word' }];
  if (m.matches({ unauthenticated: { reset: 'sendingCode' } })) return ['requestReset', { email }];
  if (m.matches({ unauthenticated: { reset: 'confirming' } })) return ['confirmReset', { email, code: '123456', password: 'N3w-pass!word' }];
  if (m.matches({ unauthenticated: { accepting: 'working' } })) return ['acceptInvite', { email, code: 'Temp-1234!', password: 'N3w-pass!word' }];
  if (m.matches('loadingUser') && email) return ['loadCurrentUser', { email }];
  if (m.matches('creatingSelf')) return ['createSelf', { email }];
  return null;
}

/** What the user must see in the state the model is in: the right form, busy while something is pending, and the message of the moment. */
function expectView(view: View, expected: AuthModelSnapshot) {
  const real = view.actor.getSnapshot() as AuthSnapshot;
  expect(real.value).toEqual(expected.value);
  const { error, notice, user } = expected.context;
  expect({ error: real.context.error, notice: real.context.notice, user: real.context.user }).toEqual({ error, notice, user });
  const mode = expectedMode(expected);
  expect(authViewMode(real)).toBe(mode);
  const call = expectedCall(expected);
  if (call) expect(view.ctl.peek(call[0])?.input, `${call[0]} input`).toEqual(call[1]);
  const where = path(view);
  if ((where === '/login' || where === '/accept') && mode === 'RECOVERY_CODES') {
    // the offer Account settings makes, before the app opens
    expect(screen.getByRole('heading', { name: 'Two-factor authentication is on' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Make recovery codes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    return;
  }
  if ((where === '/login' || where === '/accept') && (mode === 'TOTP_SETUP' || expected.matches({ unauthenticated: 'confirmingTotpSetup' }))) {
    // the key, as text to type (the QR code is drawn from the same key), and the code field
    expect(screen.getByRole('heading', { name: 'Set up two-factor authentication' })).toBeTruthy();
    expect(screen.getByTestId('totp-setup-secret').textContent).toBe(SETUP_KEY_SHOWN);
    expect(screen.getByRole('button', { name: 'Verify' }).hasAttribute('data-loading')).toBe(mode === 'LOADING');
    if (error) expect(screen.getByText(error)).toBeTruthy();
    return;
  }
  if (where === '/login') {
    if (mode === 'TOTP' || expected.matches({ unauthenticated: 'confirmingTotp' })) {
      expect(screen.getByRole('heading', { name: 'Enter your authentication code' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Verify' }).hasAttribute('data-loading')).toBe(mode === 'LOADING');
    } else if (mode === 'NEW_PASSWORD' || expected.matches({ unauthenticated: 'settingPassword' })) {
      expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Set new password' }).hasAttribute('data-loading')).toBe(mode === 'LOADING');
    } else {
      expect(screen.getByRole('button', { name: 'Log in' }).hasAttribute('data-loading')).toBe(mode === 'LOADING');
      if (notice) expect(screen.getByText(notice)).toBeTruthy();
    }
    if (error) expect(screen.getByText(error)).toBeTruthy();
  }
  if (where === '/forgot-password' && mode === 'RESET') {
    const codeStep = expected.matches({ unauthenticated: { reset: 'enterCode' } }) || expected.matches({ unauthenticated: { reset: 'confirming' } });
    expect(screen.getByRole('heading', { name: codeStep ? 'Check your email' : 'Reset your password' })).toBeTruthy();
    if (error) expect(screen.getByText(error)).toBeTruthy();
  }
  if (where === '/accept' && expected.matches({ unauthenticated: 'accepting' }) && error) expect(screen.getByText(error)).toBeTruthy();
}

describe('auth machine against its model (monitoring-client 2.2, 4, 5, 8)', () => {
  afterEach(cleanup);
  const model = createTestModel(authModel, { events: authModelEvents, filterEvents: userCanCause as never });
  const paths = documentedPaths('auth', essentialPaths(authModel, coveringPaths(model)));
  const coverage = machineCoverage(authMachine);

  it('the paths reach every state and take every transition of the model', () => {
    expect(modelUncovered(authModel, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('drives the login view: %s', async (_d, path) => {
    const view = mountLoginView(coverage.inspect);
    await settle();
    const exec = ({ event }: { event: EventObject }) => perform(view, event as AuthModelEvent);
    await path.test({
      events: Object.fromEntries(authModelEvents.map((e) => [e.type, exec])) as never,
      states: { '*': (s) => expectView(view, s as AuthModelSnapshot) },
    });
    view.actor.stop();
  });

  // runs after the paths (tests run in order): they went through all of the real machine
  it('the paths exercised every state and transition of the real machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});

describe('auth rules seen in the login view (monitoring-client 5, 8)', () => {
  afterEach(cleanup);
  const start = async () => {
    const view = mountLoginView();
    await settle();
    view.ctl.take('checkSession').resolve(false);
    await settle();
    return view;
  };

  it('lower-cases the email before sign-in and maps a refused sign-in to the spec message', async () => {
    const view = await start();
    await perform(view, { type: 'LOGIN', email: ' Member@Demo.TEST ', password: 'nope' });
    const call = view.ctl.take('signIn');
    expect(call.input).toEqual({ email: 'member@demo.test', password: 'nope' });
    call.reject({ name: 'UserNotFoundException', message: 'User does not exist.' });
    await settle();
    expect(screen.getByText('Incorrect email or password.')).toBeTruthy();
  });

  it("issue 9 gap 4: 'Incorrect email or password.' is gone after going to sign-up and pressing Cancel", async () => {
    const view = await start();
    await perform(view, { type: 'LOGIN', email: 'member@demo.test', password: 'wrong' });
    view.ctl.take('signIn').reject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await settle();
    expect(screen.getByText(LOGIN_MESSAGES.badCredentials)).toBeTruthy();
    await go(view, '/signup');
    await settle();
    await press('Cancel');
    expect(path(view)).toBe('/login');
    expect(screen.queryByText(LOGIN_MESSAGES.badCredentials)).toBeNull();
  });

  it('issue 9 gap 8: the wizard opened from the reset form still signs the new user in (its LOGIN is heard)', async () => {
    const view = await start();
    await perform(view, { type: 'FORGOT_PASSWORD' });
    expect(view.actor.getSnapshot().matches({ unauthenticated: 'reset' })).toBe(true);
    await go(view, '/signup');
    await settle();
    // what the wizard sends when sign-up is Ok
    view.actor.send({ type: 'LOGIN', email: 'New@Example.com', password: 'First-pass-2026!' });
    await settle();
    expect(view.ctl.take('signIn').input).toEqual({ email: 'new@example.com', password: 'First-pass-2026!' });
  });

  it('a failed current-user lookup shows the date-and-time message and clears the session', async () => {
    const view = await start();
    await perform(view, { type: 'LOGIN', email: 'member@demo.test', password: 'x' });
    view.ctl.take('signIn').resolve('SIGNED_IN');
    await settle();
    view.ctl.take('loadCurrentUser').reject({ code: 'NETWORK_ERROR', message: 'Failed to fetch' });
    await settle();
    view.ctl.take('signOut').resolve(undefined);
    await settle();
    expect(screen.getByText(LOGIN_MESSAGES.currentUser)).toBeTruthy();
    expect(view.actor.getSnapshot().context.user).toBeNull();
  });

  it('USER_NOT_FOUND creates the profile once and retries', async () => {
    const view = await start();
    await perform(view, { type: 'LOGIN', email: 'new@demo.test', password: 'x' });
    view.ctl.take('signIn').resolve('SIGNED_IN');
    await settle();
    view.ctl.take('loadCurrentUser').reject({ code: 'USER_NOT_FOUND' });
    await settle();
    expect(view.ctl.take('createSelf').input).toEqual({ email: 'new@demo.test' });
  });

  it('the reset code request maps unknown account, unverified email and too many attempts', async () => {
    for (const [name, message] of [
      ['UserNotFoundException', RESET_MESSAGES.unknownUser],
      ['InvalidParameterException', RESET_MESSAGES.emailNotVerified],
      ['LimitExceededException', RESET_MESSAGES.tooManyAttempts],
      ['NetworkError', RESET_MESSAGES.changeFailed],
    ]) {
      const view = await start();
      await perform(view, { type: 'FORGOT_PASSWORD' });
      await perform(view, { type: 'REQUEST_CODE', email: 'member@demo.test' });
      view.ctl.take('requestReset').reject({ name, message: 'x' });
      await settle();
      expect(screen.getByText(message)).toBeTruthy();
      cleanup();
    }
  });

  it('after the forced new password the login form says the password changed', async () => {
    const view = await start();
    await perform(view, { type: 'LOGIN', email: 'invited@demo.test', password: 'Temp-1234!' });
    view.ctl.take('signIn').resolve('NEW_PASSWORD_REQUIRED');
    await settle();
    await perform(view, { type: 'SUBMIT_NEW_PASSWORD', password: 'a', confirmation: 'b' });
    expect(screen.getByText('The two passwords must match')).toBeTruthy();
    await perform(view, { type: 'SUBMIT_NEW_PASSWORD', password: 'N3w-pass!', confirmation: 'N3w-pass!' });
    view.ctl.take('completeNewPassword').resolve(undefined);
    await settle();
    expect(screen.getByText('Password changed successfully. Please use the new password to login.')).toBeTruthy();
  });

  it('logs in by itself from ?email=&code= and takes the code out of the address', async () => {
    const ctl = controlledActors(ACTORS);
    const actor = createActor(authMachine.provide({ actors: ctl.actors as never })).start();
    ctl.take('checkSession').resolve(false);
    await flush();
    const router = createMemoryRouter([{ path: '/login', element: <LoginPage auth={actor} /> }], { initialEntries: ['/login?email=Invited%40demo.test&code=Temp-1234!'] });
    render(
      <MantineProvider theme={theme}>
        <RouterProvider router={router} />
      </MantineProvider>,
    );
    await settle();
    expect(ctl.take('signIn').input).toEqual({ email: 'invited@demo.test', password: 'Temp-1234!' });
    expect(router.state.location.search).toBe('');
  });
});
