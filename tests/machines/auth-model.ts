import { assign, setup, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate';
import type { CurrentUser } from '../../src/contract/user.schema';
import { LOGIN_MESSAGES, RESET_MESSAGES } from '../../src/domain/messages';

/**
 * Authentication as the spec describes it (monitoring-client 2.2, 4, 5, 8; organisation-and-routes 8
 * for the reset code request; the security issue's TOTP MFA: "the login view gains the code step", and
 * MFA required by role: "a manager of such an org / a site admin without MFA is made to set it up"),
 * written by hand without looking at the machine's configuration.
 * State names follow the machine's so that the two can be compared; every transition, guard and
 * message here comes from the spec. Events in capitals without a payload are how a call ends.
 */

export const USER: CurrentUser = {
  cognitoIdentityId: 'u-1',
  email: 'owner@demo.test',
  name: 'Olivia Owner',
  mobile: null,
  emailVerified: true,
  pendingEmail: null,
  isSiteAdmin: false,
  displaySettings: { timeDisplay: 'Friendly' },
};
export const REFRESHED: CurrentUser = { ...USER, name: 'Olivia O.' };
export const GOOD_PASSWORD = 'N3w-pass!word';
const POLICY_REFUSAL = 'Password did not conform with policy: Password must have symbol characters';

// The spec's own words (monitoring-client 8), quoted here rather than taken from the code under test.
const SPEC = {
  badCredentials: 'Incorrect email or password.',
  network: 'Login failed. Please check your internet connection and try again.',
  currentUser: 'Login failed. Please check your internet connection and ensure the date and time on your device is correct.',
  other: 'Login failed. Please contact support for more information.',
  passwordChanged: 'Password changed successfully. Please use the new password to login.',
  mustMatch: 'The two passwords must match',
  unknownAccount: 'There are no accounts with that email address',
  resetFailed: 'Change password failed. Please check your internet connection and try again.',
  // the code step of a sign-in with TOTP MFA (the product's own words: the specs predate MFA)
  totpFormat: 'Enter the 6-digit code from your authenticator app.',
  // a lost authenticator: the code step also takes a recovery code (16 letters and digits)
  signInCodeFormat: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  totpWrong: 'That code is not right. Enter the code your authenticator app shows now.',
  totpExpired: 'The sign-in took too long. Please log in again.',
  totpTooMany: 'Too many attempts, please try again later',
};

const named = (name: string, message = name) => ({ name, message });
/** The key of an authenticator the sign-in asks to set up (Cognito's MFA_SETUP), as the login view shows it. */
export const SETUP_KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const SETUP_KEY_SHOWN = 'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP';
const SETUP = { step: 'TOTP_SETUP_REQUIRED', secret: SETUP_KEY, uri: `otpauth://totp/Tidewatch:owner%40demo.test?secret=${SETUP_KEY}&issuer=Tidewatch` } as const;
/** How each call can end: the actor it settles, and with what. */
export const OUTCOMES = {
  SESSION_FOUND: { src: 'checkSession', ok: true, value: true },
  NO_SESSION: { src: 'checkSession', ok: true, value: false },
  SESSION_CHECK_FAILED: { src: 'checkSession', ok: false, value: named('NotAuthorizedException', 'Refresh Token has expired') },
  SIGNED_IN: { src: 'signIn', ok: true, value: 'SIGNED_IN' },
  NEW_PASSWORD_REQUIRED: { src: 'signIn', ok: true, value: 'NEW_PASSWORD_REQUIRED' },
  TOTP_REQUIRED: { src: 'signIn', ok: true, value: 'TOTP_REQUIRED' },
  TOTP_SETUP_REQUIRED: { src: 'signIn', ok: true, value: SETUP },
  SIGN_IN_REFUSED: { src: 'signIn', ok: false, value: named('NotAuthorizedException', 'Incorrect username or password.') },
  SIGN_IN_OFFLINE: { src: 'signIn', ok: false, value: named('NetworkError', 'A network error has occurred.') },
  SIGN_IN_FAILED: { src: 'signIn', ok: false, value: named('InternalErrorException', 'boom') },
  TOTP_ACCEPTED: { src: 'confirmTotp', ok: true, value: undefined },
  TOTP_WRONG: { src: 'confirmTotp', ok: false, value: named('CodeMismatchException', 'Invalid code received for user') },
  TOTP_OFFLINE: { src: 'confirmTotp', ok: false, value: named('NetworkError', 'A network error has occurred.') },
  TOTP_EXPIRED: { src: 'confirmTotp', ok: false, value: named('NotAuthorizedException', 'Invalid session for the user, session is expired.') },
  TOTP_LOCKED: { src: 'confirmTotp', ok: false, value: named('NotAuthorizedException', 'Password attempts exceeded') },
  TOTP_SETUP_ACCEPTED: { src: 'confirmTotpSetup', ok: true, value: undefined },
  TOTP_SETUP_WRONG: { src: 'confirmTotpSetup', ok: false, value: named('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA') },
  TOTP_SETUP_OFFLINE: { src: 'confirmTotpSetup', ok: false, value: named('NetworkError', 'A network error has occurred.') },
  TOTP_SETUP_EXPIRED: { src: 'confirmTotpSetup', ok: false, value: named('NotAuthorizedException', 'Invalid session for the user, session is expired.') },
  PASSWORD_SET: { src: 'completeNewPassword', ok: true, value: undefined },
  PASSWORD_REJECTED: { src: 'completeNewPassword', ok: false, value: named('InvalidPasswordException', POLICY_REFUSAL) },
  USER_LOADED: { src: 'loadCurrentUser', ok: true, value: USER },
  USER_NOT_FOUND: { src: 'loadCurrentUser', ok: false, value: { code: 'USER_NOT_FOUND', message: 'User not found.' } },
  USER_LOOKUP_FAILED: { src: 'loadCurrentUser', ok: false, value: { code: 'NETWORK_ERROR', message: 'Failed to fetch' } },
  SELF_CREATED: { src: 'createSelf', ok: true, value: undefined },
  CREATE_SELF_FAILED: { src: 'createSelf', ok: false, value: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } },
  SIGNED_OUT: { src: 'signOut', ok: true, value: undefined },
  SIGN_OUT_FAILED: { src: 'signOut', ok: false, value: named('NetworkError') },
  CODE_SENT: { src: 'requestReset', ok: true, value: undefined },
  CODE_UNKNOWN_ACCOUNT: { src: 'requestReset', ok: false, value: named('UserNotFoundException') },
  CODE_EMAIL_UNVERIFIED: { src: 'requestReset', ok: false, value: named('InvalidParameterException') },
  CODE_TOO_MANY: { src: 'requestReset', ok: false, value: named('LimitExceededException') },
  CODE_OFFLINE: { src: 'requestReset', ok: false, value: named('NetworkError') },
  RESET_DONE: { src: 'confirmReset', ok: true, value: undefined },
  RESET_CODE_WRONG: { src: 'confirmReset', ok: false, value: named('CodeMismatchException') },
  RESET_OFFLINE: { src: 'confirmReset', ok: false, value: named('NetworkError') },
  INVITE_ACCEPTED: { src: 'acceptInvite', ok: true, value: undefined },
  INVITE_TOTP_SETUP_REQUIRED: { src: 'acceptInvite', ok: true, value: SETUP },
  INVITE_REFUSED: { src: 'acceptInvite', ok: false, value: named('NotAuthorizedException') },
  INVITE_PASSWORD_REJECTED: { src: 'acceptInvite', ok: false, value: named('InvalidPasswordException', POLICY_REFUSAL) },
  USER_REFRESHED: { src: 'loadCurrentUser', ok: true, value: REFRESHED },
  REFRESH_FAILED: { src: 'loadCurrentUser', ok: false, value: { code: 'NETWORK_ERROR', message: 'Failed to fetch' } },
} as const;
export type Outcome = keyof typeof OUTCOMES;

export type AuthModelEvent =
  | { type: 'LOGIN'; email: string; password: string }
  | { type: 'SUBMIT_NEW_PASSWORD'; password: string; confirmation: string }
  | { type: 'SUBMIT_TOTP'; code: string }
  | { type: 'FORGOT_PASSWORD' | 'SHOW_LOGIN' | 'SHOW_SIGNUP' | 'REFRESH_USER' | 'SESSION_EXPIRED' | 'LOGOUT' | 'CONTINUE' }
  | { type: 'REQUEST_CODE'; email: string }
  | { type: 'CONFIRM_RESET'; code: string; password: string; confirmation: string }
  | { type: 'ACCEPT_INVITE'; email: string; code: string; password: string; confirmation: string }
  | { type: Outcome };

export const userEvents: AuthModelEvent[] = [
  { type: 'LOGIN', email: ' Owner@Demo.test ', password: 'Demo-pass-2026!' },
  { type: 'LOGIN', email: '', password: '' },
  { type: 'LOGIN', email: 'owner@demo.test', password: '' },
  { type: 'SUBMIT_NEW_PASSWORD', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'SUBMIT_NEW_PASSWORD', password: GOOD_PASSWORD, confirmation: 'something else' },
  // the app's code, as people type it (with a space in the middle), and one digit short
  { type: 'SUBMIT_TOTP', code: '123 456' },
  { type: 'SUBMIT_TOTP', code: '12345' },
  // a recovery code as copied from paper, for a lost authenticator
  { type: 'SUBMIT_TOTP', code: 'WDT7-PSSG-QAZ3-5VTE' },
  // past the recovery-codes offer that follows an authenticator set up at sign-in
  { type: 'CONTINUE' },
  { type: 'FORGOT_PASSWORD' },
  { type: 'SHOW_LOGIN' },
  { type: 'SHOW_SIGNUP' },
  { type: 'REQUEST_CODE', email: 'Owner@demo.test' },
  { type: 'CONFIRM_RESET', code: ' 123456 ', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'CONFIRM_RESET', code: '12ab', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'CONFIRM_RESET', code: '123456', password: GOOD_PASSWORD, confirmation: 'something else' },
  { type: 'ACCEPT_INVITE', email: 'Invited@demo.test', code: 'Temp-1234!', password: GOOD_PASSWORD, confirmation: GOOD_PASSWORD },
  { type: 'ACCEPT_INVITE', email: 'invited@demo.test', code: 'Temp-1234!', password: GOOD_PASSWORD, confirmation: 'something else' },
  { type: 'REFRESH_USER' },
  { type: 'SESSION_EXPIRED' },
  { type: 'LOGOUT' },
];
export const authModelEvents: AuthModelEvent[] = [...userEvents, ...(Object.keys(OUTCOMES) as Outcome[]).map((type) => ({ type }))];

export interface AuthModelContext {
  /** The account being signed in or reset (what the calls are made for). */
  email: string;
  user: CurrentUser | null;
  error: string | null;
  notice: string | null;
  /** The profile was created once in this sign-in; a second USER_NOT_FOUND is a failure. */
  createdSelf: boolean;
  /** The code last sent at the code step (spaces dropped). */
  code: string;
}
const signedOut: AuthModelContext = { email: '', user: null, error: null, notice: null, createdSelf: false, code: '' };
const normalised = (email: string) => email.trim().toLowerCase();

export const authModel = setup({
  types: { context: {} as AuthModelContext, events: {} as AuthModelEvent },
  guards: {
    // Login: email and password required (monitoring-client 5)
    noEmail: ({ event }) => event.type === 'LOGIN' && !event.email.trim(),
    noPassword: ({ event }) => event.type === 'LOGIN' && !event.password,
    // the confirmation must equal the new password; the reset code is numeric
    mismatch: ({ event }) => 'confirmation' in event && event.password !== event.confirmation,
    codeNotNumeric: ({ event }) => event.type === 'CONFIRM_RESET' && !/^\d+$/.test(event.code.trim()),
    // an authenticator code is six digits (spaces ignored)
    totpNotSixDigits: ({ event }) => event.type === 'SUBMIT_TOTP' && !/^[0-9]{6}$/.test(event.code.replace(/ /g, '')),
    // at sign-in, a recovery code too: 16 letters and digits, hyphens and case not counted
    notASignInCode: ({ event }) =>
      event.type === 'SUBMIT_TOTP' && !/^[0-9]{6}$/.test(event.code.replace(/ /g, '')) && !/^[a-z0-9]{16}$/i.test(event.code.replace(/[ -]/g, '')),
    profileAlreadyCreated: ({ context }) => context.createdSelf,
  },
  actions: {
    /** Shows a message in place of whatever the form said before. */
    say: assign((_, params: { error: string }) => ({ error: params.error, notice: null })),
    quiet: assign({ error: null, notice: null }),
    sendCode: assign(({ event }) => ({ error: null, notice: null, code: event.type === 'SUBMIT_TOTP' ? event.code.replace(/ /g, '') : '' })),
    startSignIn: assign(({ event }) => ({ email: normalised((event as { email: string }).email), error: null, notice: null, createdSelf: false })),
    passwordChanged: assign({ error: null, notice: SPEC.passwordChanged }),
    // a failed current-user lookup shows its message and the session is cleared
    lookupFailed: assign({ error: SPEC.currentUser, user: null }),
  },
}).createMachine({
  id: 'authModel',
  context: signedOut,
  initial: 'loading',
  states: {
    loading: {
      on: {
        SESSION_FOUND: 'loadingUser',
        NO_SESSION: 'unauthenticated',
        // a failed token check un-authenticates
        SESSION_CHECK_FAILED: 'unauthenticated',
      },
    },
    loadingUser: {
      on: {
        USER_LOADED: { target: 'authenticated', actions: assign({ user: USER, email: USER.email, error: null }) },
        // USER_NOT_FOUND means the profile is not created yet: create it once
        USER_NOT_FOUND: [{ guard: 'profileAlreadyCreated', target: 'clearingSession', actions: 'lookupFailed' }, { target: 'creatingSelf', actions: assign({ createdSelf: true }) }],
        USER_LOOKUP_FAILED: { target: 'clearingSession', actions: 'lookupFailed' },
      },
    },
    creatingSelf: { on: { SELF_CREATED: 'loadingUser', CREATE_SELF_FAILED: { target: 'clearingSession', actions: 'lookupFailed' } } },
    clearingSession: {
      on: {
        SIGNED_OUT: { target: 'unauthenticated.login', actions: assign({ createdSelf: false }) },
        SIGN_OUT_FAILED: { target: 'unauthenticated.login', actions: assign({ createdSelf: false }) },
      },
    },
    authenticated: {
      initial: 'idle',
      on: { LOGOUT: 'signingOut', SESSION_EXPIRED: 'signingOut' },
      states: {
        idle: { on: { REFRESH_USER: 'refreshing' } },
        refreshing: { on: { USER_REFRESHED: { target: 'idle', actions: assign({ user: REFRESHED }) }, REFRESH_FAILED: 'idle' } },
      },
    },
    // "a QR code and recovery": the user who just set up an authenticator at sign-in is offered
    // recovery codes for it (as Account settings offers them) and goes on into the app when ready
    recoveryCodesOffer: {
      on: { CONTINUE: 'loadingUser', SESSION_EXPIRED: 'signingOut' },
    },
    // logout resets all state
    signingOut: {
      entry: assign(() => signedOut),
      on: { SIGNED_OUT: 'unauthenticated', SIGN_OUT_FAILED: 'unauthenticated' },
    },
    unauthenticated: {
      initial: 'login',
      on: {
        FORGOT_PASSWORD: { target: '.reset', actions: 'quiet' },
        // the sign-up wizard opens on a clean login state, whatever signed-out form was left behind
        // (issue 9: the wizard signs the new user in with LOGIN; no earlier message greets them back)
        SHOW_SIGNUP: { target: '.login', actions: 'quiet' },
      },
      states: {
        login: {
          on: {
            LOGIN: [
              { guard: 'noEmail', actions: { type: 'say', params: { error: LOGIN_MESSAGES.emailRequired } } },
              { guard: 'noPassword', actions: { type: 'say', params: { error: LOGIN_MESSAGES.passwordRequired } } },
              { target: 'signingIn', actions: 'startSignIn' },
            ],
            ACCEPT_INVITE: [{ guard: 'mismatch', target: 'accepting', actions: { type: 'say', params: { error: SPEC.mustMatch } } }, { target: 'accepting.working', actions: 'startSignIn' }],
          },
        },
        signingIn: {
          on: {
            SIGNED_IN: '#authModel.loadingUser',
            NEW_PASSWORD_REQUIRED: 'newPassword',
            // MFA on: the password was right, the authenticator code comes next
            TOTP_REQUIRED: 'totpCode',
            // MFA required of this account (a site admin, or a manager where the owner requires it) and none set up
            TOTP_SETUP_REQUIRED: 'totpSetup',
            SIGN_IN_REFUSED: { target: 'login', actions: { type: 'say', params: { error: SPEC.badCredentials } } },
            SIGN_IN_OFFLINE: { target: 'login', actions: { type: 'say', params: { error: SPEC.network } } },
            SIGN_IN_FAILED: { target: 'login', actions: { type: 'say', params: { error: SPEC.other } } },
          },
        },
        newPassword: {
          on: {
            SUBMIT_NEW_PASSWORD: [{ guard: 'mismatch', actions: { type: 'say', params: { error: SPEC.mustMatch } } }, { target: 'settingPassword', actions: 'quiet' }],
            SHOW_LOGIN: { target: 'login', actions: 'quiet' },
          },
        },
        totpCode: {
          on: {
            SUBMIT_TOTP: [{ guard: 'notASignInCode', actions: { type: 'say', params: { error: SPEC.signInCodeFormat } } }, { target: 'confirmingTotp', actions: 'sendCode' }],
            SHOW_LOGIN: { target: 'login', actions: 'quiet' },
          },
        },
        confirmingTotp: {
          // the code belongs to this call only
          exit: assign({ code: '' }),
          on: {
            TOTP_ACCEPTED: '#authModel.loadingUser',
            // a wrong code (or no network) leaves the user at the code to try again
            TOTP_WRONG: { target: 'totpCode', actions: { type: 'say', params: { error: SPEC.totpWrong } } },
            TOTP_OFFLINE: { target: 'totpCode', actions: { type: 'say', params: { error: SPEC.network } } },
            // the sign-in is over: too slow (the session lasts 3 minutes) or locked out by wrong codes
            TOTP_EXPIRED: { target: 'login', actions: { type: 'say', params: { error: SPEC.totpExpired } } },
            TOTP_LOCKED: { target: 'login', actions: { type: 'say', params: { error: SPEC.totpTooMany } } },
          },
        },
        // the authenticator's key is shown; its first code turns MFA on and finishes the sign-in
        totpSetup: {
          on: {
            SUBMIT_TOTP: [{ guard: 'totpNotSixDigits', actions: { type: 'say', params: { error: SPEC.totpFormat } } }, { target: 'confirmingTotpSetup', actions: 'sendCode' }],
            SHOW_LOGIN: { target: 'login', actions: 'quiet' },
          },
        },
        confirmingTotpSetup: {
          // the code belongs to this call only
          exit: assign({ code: '' }),
          on: {
            // MFA is on and the sign-in done; recovery codes are offered before the app opens
            TOTP_SETUP_ACCEPTED: '#authModel.recoveryCodesOffer',
            TOTP_SETUP_WRONG: { target: 'totpSetup', actions: { type: 'say', params: { error: SPEC.totpWrong } } },
            TOTP_SETUP_OFFLINE: { target: 'totpSetup', actions: { type: 'say', params: { error: SPEC.network } } },
            TOTP_SETUP_EXPIRED: { target: 'login', actions: { type: 'say', params: { error: SPEC.totpExpired } } },
          },
        },
        settingPassword: {
          on: {
            // after it is set, the login form says so
            PASSWORD_SET: { target: 'login', actions: 'passwordChanged' },
            // the service's own words about the password
            PASSWORD_REJECTED: { target: 'newPassword', actions: { type: 'say', params: { error: POLICY_REFUSAL } } },
          },
        },
        reset: {
          initial: 'requestCode',
          on: { SHOW_LOGIN: { target: 'login', actions: 'quiet' } },
          states: {
            requestCode: { on: { REQUEST_CODE: { target: 'sendingCode', actions: assign(({ event }) => ({ email: normalised((event as { email: string }).email), error: null })) } } },
            sendingCode: {
              on: {
                CODE_SENT: 'enterCode',
                CODE_UNKNOWN_ACCOUNT: { target: 'requestCode', actions: { type: 'say', params: { error: SPEC.unknownAccount } } },
                CODE_EMAIL_UNVERIFIED: { target: 'requestCode', actions: { type: 'say', params: { error: RESET_MESSAGES.emailNotVerified } } },
                CODE_TOO_MANY: { target: 'requestCode', actions: { type: 'say', params: { error: RESET_MESSAGES.tooManyAttempts } } },
                CODE_OFFLINE: { target: 'requestCode', actions: { type: 'say', params: { error: SPEC.resetFailed } } },
              },
            },
            enterCode: {
              on: {
                CONFIRM_RESET: [
                  { guard: 'codeNotNumeric', actions: { type: 'say', params: { error: RESET_MESSAGES.codeNumeric } } },
                  { guard: 'mismatch', actions: { type: 'say', params: { error: SPEC.mustMatch } } },
                  { target: 'confirming', actions: 'quiet' },
                ],
                // send a new code
                REQUEST_CODE: { target: 'sendingCode', actions: 'quiet' },
              },
            },
            confirming: {
              on: {
                RESET_DONE: { target: '#authModel.unauthenticated.login', actions: 'passwordChanged' },
                // the code error is shown; otherwise the reset failure message
                RESET_CODE_WRONG: { target: 'enterCode', actions: { type: 'say', params: { error: RESET_MESSAGES.codeMismatch } } },
                RESET_OFFLINE: { target: 'enterCode', actions: { type: 'say', params: { error: SPEC.resetFailed } } },
              },
            },
          },
        },
        // /accept: an invitation signs in with the emailed code and sets a password at once
        accepting: {
          initial: 'form',
          on: { SHOW_LOGIN: { target: 'login', actions: 'quiet' } },
          states: {
            form: {
              on: { ACCEPT_INVITE: [{ guard: 'mismatch', actions: { type: 'say', params: { error: SPEC.mustMatch } } }, { target: 'working', actions: 'startSignIn' }] },
            },
            working: {
              on: {
                INVITE_ACCEPTED: '#authModel.loadingUser',
                // an invitation to manage an organisation that requires MFA: the authenticator next
                INVITE_TOTP_SETUP_REQUIRED: '#authModel.unauthenticated.totpSetup',
                INVITE_REFUSED: { target: 'form', actions: { type: 'say', params: { error: SPEC.badCredentials } } },
                INVITE_PASSWORD_REJECTED: { target: 'form', actions: { type: 'say', params: { error: POLICY_REFUSAL } } },
              },
            },
          },
        },
      },
    },
  },
});
export type AuthModelSnapshot = SnapshotFrom<typeof authModel>;

/** The login view's mode the spec names (2.2) for a model state. */
export function expectedMode(s: AnyMachineSnapshot): 'LOGIN' | 'RESET' | 'NEW_PASSWORD' | 'TOTP' | 'TOTP_SETUP' | 'RECOVERY_CODES' | 'LOADING' {
  if (s.matches('recoveryCodesOffer')) return 'RECOVERY_CODES';
  if (s.matches({ unauthenticated: 'reset' })) return 'RESET';
  if (s.matches({ unauthenticated: 'totpCode' })) return 'TOTP';
  if (s.matches({ unauthenticated: 'totpSetup' })) return 'TOTP_SETUP';
  if (s.matches({ unauthenticated: 'newPassword' })) return 'NEW_PASSWORD';
  if (s.matches({ unauthenticated: 'login' }) || s.matches({ unauthenticated: { accepting: 'form' } }) || s.matches('authenticated')) return 'LOGIN';
  return 'LOADING';
}

/** Events a user cannot cause in a state: asking for a reset from the reset page itself. */
export const userCanCause = (s: AnyMachineSnapshot, e: AuthModelEvent) => !(e.type === 'FORGOT_PASSWORD' && s.matches({ unauthenticated: 'reset' }));
