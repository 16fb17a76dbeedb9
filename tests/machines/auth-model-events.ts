import type { AnyMachineSnapshot } from 'xstate';
import type { CurrentUser } from '../../src/contract/user.schema';
import type { ModelEvent } from './auth-model-kit';

/** The events of the auth model: what a user does in the signed-out pages and the frame, and how each call can end. */

export const USER: CurrentUser = {
  cognitoIdentityId: 'u-1',
  email: 'owner@demo.test',
  name: 'Olivia Owner',
  mobile: null,
  emailVerified: true,
  isSiteAdmin: false,
  displaySettings: { timeDisplay: 'Friendly' },
};

const named = (name: string, message = name) => ({ name, message });
const done = (id: string, output?: unknown): ModelEvent => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): ModelEvent => ({ type: `xstate.error.actor.${id}`, error });

export const GOOD_PASSWORD = 'N3w-pass!word';

const userEvents: ModelEvent[] = [
  { type: 'LOGIN', email: ' Owner@Demo.test ', password: 'Demo-pass-2026!' },
  { type: 'LOGIN', email: '', password: '' },
  { type: 'SUBMIT_NEW_PASSWORD', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'SUBMIT_NEW_PASSWORD', password: GOOD_PASSWORD, confirmation: 'something else' },
  { type: 'FORGOT_PASSWORD' },
  { type: 'SHOW_LOGIN' },
  { type: 'SHOW_SIGNUP' },
  { type: 'REQUEST_CODE', email: 'Owner@demo.test' },
  { type: 'CONFIRM_RESET', code: '123456', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'CONFIRM_RESET', code: '12ab', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'CONFIRM_RESET', code: '123456', password: GOOD_PASSWORD, confirmation: 'something else' },
  { type: 'ACCEPT_INVITE', email: 'invited@demo.test', code: 'Temp-1234!', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'ACCEPT_INVITE', email: 'invited@demo.test', code: 'Temp-1234!', password: GOOD_PASSWORD, confirmation: 'something else' },
  { type: 'REFRESH_USER' },
  { type: 'SESSION_EXPIRED' },
  { type: 'LOGOUT' },
];

const settlements: ModelEvent[] = [
  done('checkSession', true),
  done('checkSession', false),
  fail('checkSession', named('NotAuthorizedException', 'Refresh Token has expired')),
  done('signIn', 'SIGNED_IN'),
  done('signIn', 'NEW_PASSWORD_REQUIRED'),
  fail('signIn', named('NotAuthorizedException', 'Incorrect username or password.')),
  fail('signIn', named('NetworkError', 'A network error has occurred.')),
  fail('signIn', named('InternalErrorException', 'boom')),
  done('completeNewPassword'),
  fail('completeNewPassword', named('InvalidPasswordException', 'Password did not conform with policy: Password must have symbol characters')),
  done('loadCurrentUser', USER),
  fail('loadCurrentUser', { code: 'USER_NOT_FOUND', message: 'User not found.' }),
  fail('loadCurrentUser', { code: 'NETWORK_ERROR', message: 'Failed to fetch' }),
  done('createSelf'),
  fail('createSelf', { code: 'INTERNAL_ERROR', message: 'Something went wrong.' }),
  done('signOut'),
  fail('signOut', named('NetworkError')),
  done('requestReset'),
  fail('requestReset', named('UserNotFoundException')),
  fail('requestReset', named('InvalidParameterException')),
  fail('requestReset', named('LimitExceededException')),
  done('confirmReset'),
  fail('confirmReset', named('CodeMismatchException')),
  done('acceptInvite'),
  fail('acceptInvite', named('NotAuthorizedException')),
  done('refreshUser', { ...USER, emailVerified: true, name: 'Olivia O.' }),
  fail('refreshUser', { code: 'NETWORK_ERROR', message: 'Failed to fetch' }),
];

/**
 * The events offered in a state. Some can only come from a page that is not on screen in that
 * state, so a user cannot cause them there: asking for a reset while already resetting, and an
 * invitation accepted from anywhere but the login or accept page.
 */
export function userCanCause(s: AnyMachineSnapshot, e: ModelEvent): boolean {
  if (e.type === 'FORGOT_PASSWORD') return !s.matches({ unauthenticated: 'reset' });
  if (e.type === 'ACCEPT_INVITE') return s.matches({ unauthenticated: 'login' }) || s.matches({ unauthenticated: { accepting: 'form' } });
  return true;
}

export const authEvents: ModelEvent[] = [...userEvents, ...settlements];

/** The invoke ids whose actor has another name. */
export const srcOf = (id: string) => (id === 'refreshUser' ? 'loadCurrentUser' : id);
