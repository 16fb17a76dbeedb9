import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CurrentUser } from '../src/contract/user.schema';
import { isSignInCode } from '../src/domain/totp-key';
import { LOGIN_MESSAGES, MFA_MESSAGES, RESET_MESSAGES, loginErrorMessage, mfaCodeError, resetCodeErrorMessage, resetConfirmErrorMessage } from '../src/domain/messages';

/**
 * Authentication (monitoring-client 2.2 and 4): loading, then authenticated or not; login in
 * progress, ok, failed, new-password-required, waiting for the authenticator code (TOTP MFA) or
 * for the first code of an authenticator being set up (a user who must have MFA and has none), then
 * offering recovery codes for it before the app opens; a failed token check un-authenticates; logout
 * resets everything. Every call to the identity service or gateway is a named actor supplied at
 * the app edge with .provide() (Amplify + gateway) and replaced in tests.
 */

/**
 * The sign-in asks for an authenticator to be set up first (Cognito's MFA_SETUP: a site admin, or a
 * manager of an organisation that requires it, without MFA): the key to show as a QR code and text.
 */
export interface TotpSetupRequired {
  step: 'TOTP_SETUP_REQUIRED';
  secret: string;
  /** otpauth:// URI of the key, for the QR code. */
  uri: string;
}
export type SignInResult = 'SIGNED_IN' | 'NEW_PASSWORD_REQUIRED' | 'TOTP_REQUIRED' | TotpSetupRequired;

const totpSetupOf = (output: unknown): TotpSetupRequired | null =>
  typeof output === 'object' && output !== null && (output as TotpSetupRequired).step === 'TOTP_SETUP_REQUIRED' ? (output as TotpSetupRequired) : null;
export interface Credentials {
  email: string;
  password: string;
}
export interface ResetConfirmation {
  email: string;
  code: string;
  password: string;
}

export interface AuthContext {
  /** Lower-cased email of the last sign-in or reset attempt (kept to refill the form). */
  email: string;
  user: CurrentUser | null;
  /** The spec's message for what just failed, shown by the current form. */
  error: string | null;
  /** A success note shown on the login form (password changed). */
  notice: string | null;
  /** create-self has been tried once in this sign-in; a second USER_NOT_FOUND is a failure. */
  createdSelf: boolean;
  /** The authenticator key of a setup the sign-in asked for (shown until its first code is accepted). */
  totpSetup: TotpSetupRequired | null;
  /**
   * The last sign-out was the user's own Log out, not an expired session: the guards then send them
   * to a plain /login, not back to the page they left (whoever signs in next starts at their home).
   */
  loggedOut: boolean;
}

export type AuthEvent =
  | { type: 'LOGIN'; email: string; password: string }
  | { type: 'SUBMIT_NEW_PASSWORD'; password: string; confirmation: string }
  | { type: 'SUBMIT_TOTP'; code: string }
  /** Past the recovery-codes offer that follows an authenticator set up at sign-in: into the app. */
  | { type: 'CONTINUE' }
  | { type: 'FORGOT_PASSWORD' }
  | { type: 'REQUEST_CODE'; email: string }
  | { type: 'CONFIRM_RESET'; code: string; password: string; confirmation: string }
  | { type: 'ACCEPT_INVITE'; email: string; code: string; password: string; confirmation: string }
  | { type: 'SHOW_LOGIN' }
  /** The sign-up wizard opened: a clean login state (no earlier attempt's message) for its LOGIN. */
  | { type: 'SHOW_SIGNUP' }
  | { type: 'REFRESH_USER' }
  | { type: 'SESSION_EXPIRED' }
  | { type: 'LOGOUT' };

const initialContext: AuthContext = { email: '', user: null, error: null, notice: null, createdSelf: false, totpSetup: null, loggedOut: false };
const outputOf = (event: unknown) => (event as { output?: unknown }).output;
const errorCode = (error: unknown) => (error as { code?: string } | null)?.code;
const errorText = (error: unknown) => (error as { message?: string } | null)?.message;

export const authMachine = setup({
  types: { context: {} as AuthContext, events: {} as AuthEvent },
  actors: {
    /** Is there a stored session whose tokens still refresh? */
    checkSession: fromPromise<boolean>(async () => false),
    signIn: fromPromise<SignInResult, Credentials>(async () => 'SIGNED_IN'),
    /** Answers the NEW_PASSWORD_REQUIRED challenge of the sign-in in progress. */
    completeNewPassword: fromPromise<void, { password: string }>(async () => undefined),
    /** Answers the SOFTWARE_TOKEN_MFA challenge of the sign-in in progress with the app's code. */
    confirmTotp: fromPromise<void, { code: string }>(async () => undefined),
    /** Answers MFA_SETUP with the first code of the new authenticator (which turns MFA on and signs in). */
    confirmTotpSetup: fromPromise<void, { code: string }>(async () => undefined),
    /** GET /users/current-v2?email= ; rejects with code USER_NOT_FOUND before create-self. */
    loadCurrentUser: fromPromise<CurrentUser, { email: string }>(async () => {
      throw new Error('loadCurrentUser not provided');
    }),
    createSelf: fromPromise<void, { email: string }>(async () => undefined),
    signOut: fromPromise<void>(async () => undefined),
    requestReset: fromPromise<void, { email: string }>(async () => undefined),
    confirmReset: fromPromise<void, ResetConfirmation>(async () => undefined),
    /** Invitation: sign in with the temporary code and answer the new-password challenge. */
    acceptInvite: fromPromise<SignInResult, ResetConfirmation>(async () => 'SIGNED_IN'),
  },
  guards: {
    hasSession: ({ event }) => (event as unknown as { output: boolean }).output === true,
    needsNewPassword: ({ event }) => (event as unknown as { output: SignInResult }).output === 'NEW_PASSWORD_REQUIRED',
    needsTotp: ({ event }) => (event as unknown as { output: SignInResult }).output === 'TOTP_REQUIRED',
    needsTotpSetup: ({ event }) => totpSetupOf(outputOf(event)) !== null,
    totpCodeMalformed: ({ event }) => event.type === 'SUBMIT_TOTP' && !/^\d{6}$/.test(event.code.replace(/\s/g, '')),
    // the sign-in's code step: the app's code, or a recovery code when the authenticator is lost
    signInCodeMalformed: ({ event }) => event.type === 'SUBMIT_TOTP' && !isSignInCode(event.code),
    totpBackToLogin: ({ event }) => mfaCodeError((event as unknown as { error: unknown }).error).backToLogin,
    userNotFoundFirstTime: ({ context, event }) => errorCode((event as unknown as { error: unknown }).error) === 'USER_NOT_FOUND' && !context.createdSelf,
    credentialsMissing: ({ event }) => event.type === 'LOGIN' && (!event.email.trim() || !event.password),
    passwordsDiffer: ({ event }) =>
      (event.type === 'SUBMIT_NEW_PASSWORD' || event.type === 'CONFIRM_RESET' || event.type === 'ACCEPT_INVITE') && event.password !== event.confirmation,
    codeNotNumeric: ({ event }) => event.type === 'CONFIRM_RESET' && !/^\d+$/.test(event.code.trim()),
  },
  actions: {
    clearMessages: assign({ error: null, notice: null }),
    resetAll: assign(({ event }) => ({ ...initialContext, loggedOut: event.type === 'LOGOUT' })),
  },
}).createMachine({
  id: 'auth',
  context: initialContext,
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'checkSession',
        src: 'checkSession',
        onDone: [{ guard: 'hasSession', target: 'loadingUser' }, { target: 'unauthenticated' }],
        // A failed token check un-authenticates.
        onError: { target: 'unauthenticated' },
      },
    },
    loadingUser: {
      invoke: {
        id: 'loadCurrentUser',
        src: 'loadCurrentUser',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'authenticated', actions: assign({ user: ({ event }) => event.output, email: ({ event }) => event.output.email, error: null }) },
        onError: [
          { guard: 'userNotFoundFirstTime', target: 'creatingSelf' },
          { target: 'clearingSession', actions: assign({ error: LOGIN_MESSAGES.currentUser }) },
        ],
      },
    },
    creatingSelf: {
      entry: assign({ createdSelf: true }),
      invoke: {
        id: 'createSelf',
        src: 'createSelf',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'loadingUser' },
        onError: { target: 'clearingSession', actions: assign({ error: LOGIN_MESSAGES.currentUser }) },
      },
    },
    // The current-user lookup failed: the session is cleared and the message kept.
    clearingSession: {
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'unauthenticated.login', actions: assign({ user: null, createdSelf: false }) },
        onError: { target: 'unauthenticated.login', actions: assign({ user: null, createdSelf: false }) },
      },
    },
    authenticated: {
      initial: 'idle',
      states: {
        idle: { on: { REFRESH_USER: 'refreshing' } },
        refreshing: {
          invoke: {
            id: 'refreshUser',
            src: 'loadCurrentUser',
            input: ({ context }) => ({ email: context.email }),
            onDone: { target: 'idle', actions: assign({ user: ({ event }) => event.output }) },
            onError: { target: 'idle' },
          },
        },
      },
      on: {
        LOGOUT: 'signingOut',
        SESSION_EXPIRED: 'signingOut',
      },
    },
    // An authenticator set up at sign-in is on and the sign-in is complete (its tokens are stored),
    // but the account has no recovery codes yet: the login view offers them, as Account settings
    // does, before the app opens. Not 'authenticated', so the signed-out pages keep the view.
    recoveryCodesOffer: {
      on: {
        CONTINUE: 'loadingUser',
        SESSION_EXPIRED: 'signingOut',
      },
    },
    signingOut: {
      entry: 'resetAll',
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'unauthenticated' },
        onError: { target: 'unauthenticated' },
      },
    },
    unauthenticated: {
      initial: 'login',
      on: {
        FORGOT_PASSWORD: { target: '.reset', actions: 'clearMessages' },
        // from any signed-out form (reset, new password, invitation): the wizard's LOGIN is only
        // heard in login, and the message of an attempt left behind must not greet the user back
        SHOW_SIGNUP: { target: '.login', actions: 'clearMessages' },
        ACCEPT_INVITE: [
          { guard: 'passwordsDiffer', target: '.accepting.form', actions: assign({ error: LOGIN_MESSAGES.passwordsMustMatch, notice: null }) },
          { target: '.accepting.working', actions: assign({ email: ({ event }) => event.email.trim().toLowerCase(), error: null, notice: null }) },
        ],
      },
      states: {
        login: {
          on: {
            LOGIN: [
              { guard: 'credentialsMissing', actions: assign({ error: ({ event }) => (event.email.trim() ? LOGIN_MESSAGES.passwordRequired : LOGIN_MESSAGES.emailRequired), notice: null }) },
              { target: 'signingIn', actions: assign({ email: ({ event }) => event.email.trim().toLowerCase(), error: null, notice: null, createdSelf: false }) },
            ],
          },
        },
        signingIn: {
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event, context }) => ({ email: context.email, password: event.type === 'LOGIN' ? event.password : '' }),
            onDone: [
              { guard: 'needsNewPassword', target: 'newPassword' },
              { guard: 'needsTotp', target: 'totpCode' },
              { guard: 'needsTotpSetup', target: 'totpSetup', actions: assign({ totpSetup: ({ event }) => totpSetupOf(event.output) }) },
              { target: '#auth.loadingUser' },
            ],
            onError: { target: 'login', actions: assign({ error: ({ event }) => loginErrorMessage(event.error) }) },
          },
        },
        newPassword: {
          on: {
            SUBMIT_NEW_PASSWORD: [
              { guard: 'passwordsDiffer', actions: assign({ error: LOGIN_MESSAGES.passwordsMustMatch }) },
              { target: 'settingPassword', actions: 'clearMessages' },
            ],
            SHOW_LOGIN: { target: 'login', actions: 'clearMessages' },
          },
        },
        // the second step of a sign-in with TOTP MFA on: the authenticator app's current code
        totpCode: {
          on: {
            SUBMIT_TOTP: [
              { guard: 'signInCodeMalformed', actions: assign({ error: MFA_MESSAGES.signInCodeFormat }) },
              { target: 'confirmingTotp', actions: 'clearMessages' },
            ],
            SHOW_LOGIN: { target: 'login', actions: 'clearMessages' },
          },
        },
        confirmingTotp: {
          invoke: {
            id: 'confirmTotp',
            src: 'confirmTotp',
            input: ({ event }) => ({ code: event.type === 'SUBMIT_TOTP' ? event.code.replace(/\s/g, '') : '' }),
            onDone: { target: '#auth.loadingUser' },
            onError: [
              { guard: 'totpBackToLogin', target: 'login', actions: assign({ error: ({ event }) => mfaCodeError(event.error).message }) },
              { target: 'totpCode', actions: assign({ error: ({ event }) => mfaCodeError(event.error).message }) },
            ],
          },
        },
        // a user who must have MFA and has none: the new authenticator's key, then its first code
        totpSetup: {
          on: {
            SUBMIT_TOTP: [
              { guard: 'totpCodeMalformed', actions: assign({ error: MFA_MESSAGES.codeFormat }) },
              { target: 'confirmingTotpSetup', actions: 'clearMessages' },
            ],
            SHOW_LOGIN: { target: 'login', actions: assign({ error: null, notice: null, totpSetup: null }) },
          },
        },
        confirmingTotpSetup: {
          invoke: {
            id: 'confirmTotpSetup',
            src: 'confirmTotpSetup',
            input: ({ event }) => ({ code: event.type === 'SUBMIT_TOTP' ? event.code.replace(/\s/g, '') : '' }),
            onDone: { target: '#auth.recoveryCodesOffer', actions: assign({ totpSetup: null }) },
            onError: [
              { guard: 'totpBackToLogin', target: 'login', actions: assign({ error: ({ event }) => mfaCodeError(event.error).message, totpSetup: null }) },
              { target: 'totpSetup', actions: assign({ error: ({ event }) => mfaCodeError(event.error).message }) },
            ],
          },
        },
        settingPassword: {
          invoke: {
            id: 'completeNewPassword',
            src: 'completeNewPassword',
            input: ({ event }) => ({ password: event.type === 'SUBMIT_NEW_PASSWORD' ? event.password : '' }),
            onDone: { target: 'login', actions: assign({ notice: LOGIN_MESSAGES.passwordChanged, error: null }) },
            onError: { target: 'newPassword', actions: assign({ error: ({ event }) => errorText(event.error) ?? LOGIN_MESSAGES.other }) },
          },
        },
        reset: {
          initial: 'requestCode',
          on: { SHOW_LOGIN: { target: 'login', actions: 'clearMessages' } },
          states: {
            requestCode: {
              on: { REQUEST_CODE: { target: 'sendingCode', actions: assign({ email: ({ event }) => event.email.trim().toLowerCase(), error: null }) } },
            },
            sendingCode: {
              invoke: {
                id: 'requestReset',
                src: 'requestReset',
                input: ({ context }) => ({ email: context.email }),
                onDone: { target: 'enterCode' },
                onError: { target: 'requestCode', actions: assign({ error: ({ event }) => resetCodeErrorMessage(event.error) }) },
              },
            },
            enterCode: {
              on: {
                CONFIRM_RESET: [
                  { guard: 'codeNotNumeric', actions: assign({ error: RESET_MESSAGES.codeNumeric }) },
                  { guard: 'passwordsDiffer', actions: assign({ error: LOGIN_MESSAGES.passwordsMustMatch }) },
                  { target: 'confirming', actions: assign({ error: null }) },
                ],
                REQUEST_CODE: { target: 'sendingCode', actions: assign({ error: null }) },
              },
            },
            confirming: {
              invoke: {
                id: 'confirmReset',
                src: 'confirmReset',
                input: ({ context, event }) =>
                  event.type === 'CONFIRM_RESET' ? { email: context.email, code: event.code.trim(), password: event.password } : { email: context.email, code: '', password: '' },
                onDone: { target: '#auth.unauthenticated.login', actions: assign({ notice: LOGIN_MESSAGES.passwordChanged, error: null }) },
                onError: { target: 'enterCode', actions: assign({ error: ({ event }) => resetConfirmErrorMessage(event.error) }) },
              },
            },
          },
        },
        accepting: {
          initial: 'form',
          on: { SHOW_LOGIN: { target: 'login', actions: 'clearMessages' } },
          states: {
            form: {},
            working: {
              invoke: {
                id: 'acceptInvite',
                src: 'acceptInvite',
                input: ({ event }) => (event.type === 'ACCEPT_INVITE' ? { email: event.email.trim().toLowerCase(), code: event.code.trim(), password: event.password } : { email: '', code: '', password: '' }),
                onDone: [
                  // the invitation made the user a manager of an organisation that requires MFA
                  { guard: 'needsTotpSetup', target: '#auth.unauthenticated.totpSetup', actions: assign({ createdSelf: false, totpSetup: ({ event }) => totpSetupOf(event.output) }) },
                  { target: '#auth.loadingUser', actions: assign({ createdSelf: false }) },
                ],
                onError: { target: 'form', actions: assign({ error: ({ event }) => errorText(event.error) && (event.error as { name?: string }).name === 'InvalidPasswordException' ? errorText(event.error)! : loginErrorMessage(event.error) }) },
              },
            },
          },
        },
      },
    },
  },
});

export type AuthSnapshot = SnapshotFrom<typeof authMachine>;
export type AuthViewMode = 'LOGIN' | 'RESET' | 'NEW_PASSWORD' | 'TOTP' | 'TOTP_SETUP' | 'RECOVERY_CODES' | 'LOADING';

/**
 * The login view's mode (monitoring-client 2.2): LOGIN, RESET, NEW_PASSWORD, TOTP (the authenticator
 * code), TOTP_SETUP (an authenticator to set up first), RECOVERY_CODES (offered once it is on) or LOADING.
 */
export function authViewMode(s: AuthSnapshot): AuthViewMode {
  if (s.matches('recoveryCodesOffer')) return 'RECOVERY_CODES';
  if (s.matches({ unauthenticated: 'reset' })) return 'RESET';
  if (s.matches({ unauthenticated: 'totpCode' })) return 'TOTP';
  if (s.matches({ unauthenticated: 'totpSetup' })) return 'TOTP_SETUP';
  if (s.matches({ unauthenticated: 'newPassword' })) return 'NEW_PASSWORD';
  if (s.matches({ unauthenticated: 'login' }) || s.matches({ unauthenticated: { accepting: 'form' } }) || s.matches('authenticated')) return 'LOGIN';
  return 'LOADING';
}
