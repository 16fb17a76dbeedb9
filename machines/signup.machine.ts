import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_MESSAGE, NETWORK_MESSAGE, isNetworkError } from '../src/domain/messages';
import { SIGN_UP_MESSAGES, checkAccountStep, checkClaimStep, type SignUpErrorCode as SignupErrorCodeLike } from '../src/domain/sign-up-rules';
import { checkCredentialsStep } from '../src/domain/sign-up-password';
import { claimFailure, type ClaimInput } from './claim-form.machine';

/**
 * The three-step sign-up wizard (monitoring-client 2.3, 5 and 8): ClaimSensor, AccountSetup,
 * Signup, then Ok or Failed. Each step's checks run in order and the first failure is shown under
 * its field; the server's answer to POST /signup is mapped back to the field (and step) it is about.
 * Signing in afterwards is the auth machine's job: the view sends it LOGIN when this one is Ok.
 */

export type SignupField = 'serial' | 'claimCode' | 'name' | 'organisationName' | 'email' | 'confirmEmail' | 'password' | 'confirmPassword';
export type SignupValues = Record<SignupField, string>;
export interface SignupRequestBody {
  serial: string;
  claimCode: string;
  name: string;
  organisationName: string;
  email: string;
  password: string;
}

export interface SignupContext {
  values: SignupValues;
  errors: Partial<Record<SignupField, string>>;
  /** Why sign-up failed (the Failed step), or a step-wide message. */
  failure: string | null;
  /** The new organisation's slug from POST /signup. */
  organisationSlug: string | null;
}

export type SignupEvent =
  | { type: 'CHANGE'; field: SignupField; value: string }
  | { type: 'NEXT' }
  | { type: 'BACK' }
  | { type: 'RETRY' };

const FIELD_OF: Record<SignupErrorCodeLike, SignupField | null> = {
  INVALID_SERIAL: 'serial',
  INVALID_CLAIM_CODE: 'claimCode',
  INVALID_NAME: 'name',
  INVALID_ORG_NAME: 'organisationName',
  INVALID_EMAIL: 'email',
  INVALID_EMAIL_CONFIRMATION: 'confirmEmail',
  INVALID_PASSWORD: 'password',
  INVALID_PASSWORD_CONFIRMATION: 'confirmPassword',
  UNKNOWN_ERROR: null,
};

const emptyValues: SignupValues = { serial: '', claimCode: '', name: '', organisationName: '', email: '', confirmEmail: '', password: '', confirmPassword: '' };

const serverError = (error: unknown) => (error ?? {}) as { code?: string; message?: string };
const serverField = (error: unknown): SignupField | null => FIELD_OF[serverError(error).code as SignupErrorCodeLike] ?? null;

/** The server's message for a field, with the spec's wording for an existing account. */
function serverFieldMessage(error: unknown, field: SignupField): string {
  const { message } = serverError(error);
  if (field === 'email' && /exist/i.test(message ?? '')) return SIGN_UP_MESSAGES.emailExists;
  if (field === 'claimCode' || field === 'serial') return claimFailure(error, 'claim').errors[field] ?? SIGN_UP_MESSAGES.claimCodeInvalid;
  return message || DEFAULT_MESSAGE;
}

const fieldIs =
  (...fields: SignupField[]) =>
  ({ event }: { event: unknown }) =>
    fields.includes(serverField((event as unknown as { error: unknown }).error) as SignupField);

const firstFailure = (checked: { ok: true } | { ok: false; error: { code: SignupErrorCodeLike; message: string } }) =>
  checked.ok ? {} : { [FIELD_OF[checked.error.code] ?? 'email']: checked.error.message };

export const signupMachine = setup({
  types: { context: {} as SignupContext, events: {} as SignupEvent },
  actors: {
    /** POST /claim-sensor (unsigned). */
    claimSensor: fromPromise<unknown, ClaimInput>(async () => undefined),
    /** POST /signup (unsigned); answers the new organisation's slug when it has one. */
    signup: fromPromise<{ organisationSlug: string | null }, SignupRequestBody>(async () => ({ organisationSlug: null })),
  },
  guards: {
    claimInvalid: ({ context }) => !checkClaimStep(context.values).ok,
    accountInvalid: ({ context }) => !checkAccountStep(context.values).ok,
    credentialsInvalid: ({ context }) => !checkCredentialsStep(context.values).ok,
    claimProblem: fieldIs('serial', 'claimCode'),
    accountProblem: fieldIs('name', 'organisationName'),
    credentialsProblem: fieldIs('email', 'confirmEmail', 'password', 'confirmPassword'),
    offline: ({ event }) => isNetworkError((event as unknown as { error: unknown }).error),
  },
  actions: {
    edit: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const errors = { ...context.errors };
      delete errors[event.field];
      return { values: { ...context.values, [event.field]: event.value }, errors, failure: null };
    }),
    showClaimFailure: assign({ errors: ({ context }) => firstFailure(checkClaimStep(context.values)) }),
    showAccountFailure: assign({ errors: ({ context }) => firstFailure(checkAccountStep(context.values)) }),
    showCredentialsFailure: assign({ errors: ({ context }) => firstFailure(checkCredentialsStep(context.values)) }),
    showServerFieldError: assign({
      errors: ({ event }) => {
        const error = (event as unknown as { error: unknown }).error;
        const field = serverField(error);
        return field ? { [field]: serverFieldMessage(error, field) } : {};
      },
    }),
    clearErrors: assign({ errors: {}, failure: null }),
  },
}).createMachine({
  id: 'signup',
  context: { values: emptyValues, errors: {}, failure: null, organisationSlug: null },
  initial: 'ClaimSensor',
  on: { CHANGE: { actions: 'edit' } },
  states: {
    ClaimSensor: {
      initial: 'editing',
      states: {
        editing: {
          on: { NEXT: [{ guard: 'claimInvalid', actions: 'showClaimFailure' }, { target: 'validating', actions: 'clearErrors' }] },
        },
        validating: {
          // Inputs are disabled while the claim is checked; edits would be lost.
          on: { CHANGE: {} },
          invoke: {
            id: 'claimSensor',
            src: 'claimSensor',
            input: ({ context }) => {
              const checked = checkClaimStep(context.values);
              return checked.ok ? checked.value : { serial: context.values.serial, claimCode: context.values.claimCode };
            },
            onDone: { target: '#signup.AccountSetup' },
            onError: { target: 'editing', actions: assign(({ event }) => ({ errors: claimFailure(event.error, 'claim').errors, failure: claimFailure(event.error, 'claim').formError })) },
          },
        },
      },
    },
    AccountSetup: {
      on: {
        NEXT: [{ guard: 'accountInvalid', actions: 'showAccountFailure' }, { target: 'Signup', actions: 'clearErrors' }],
        BACK: { target: 'ClaimSensor', actions: 'clearErrors' },
      },
    },
    Signup: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            NEXT: [{ guard: 'credentialsInvalid', actions: 'showCredentialsFailure' }, { target: 'submitting', actions: 'clearErrors' }],
            BACK: { target: '#signup.AccountSetup', actions: 'clearErrors' },
          },
        },
        submitting: {
          on: { CHANGE: {} },
          invoke: {
            id: 'signup',
            src: 'signup',
            input: ({ context }) => {
              const v = context.values;
              const claim = checkClaimStep(v);
              return {
                serial: claim.ok ? claim.value.serial : v.serial,
                claimCode: claim.ok ? claim.value.claimCode : v.claimCode,
                name: v.name.trim(),
                organisationName: v.organisationName.trim(),
                email: v.email.trim().toLowerCase(),
                password: v.password,
              };
            },
            onDone: { target: '#signup.Ok', actions: assign({ organisationSlug: ({ event }) => event.output.organisationSlug }) },
            onError: [
              { guard: 'claimProblem', target: '#signup.ClaimSensor', actions: 'showServerFieldError' },
              { guard: 'accountProblem', target: '#signup.AccountSetup', actions: 'showServerFieldError' },
              { guard: 'credentialsProblem', target: 'editing', actions: 'showServerFieldError' },
              { guard: 'offline', target: '#signup.Failed', actions: assign({ failure: NETWORK_MESSAGE }) },
              // UNKNOWN_ERROR: the sign-up-failed handler shows the raw message.
              { target: '#signup.Failed', actions: assign({ failure: ({ event }) => serverError(event.error).message || DEFAULT_MESSAGE }) },
            ],
          },
        },
      },
    },
    // No inputs on these steps: stray edits must not wipe the outcome.
    Ok: { on: { CHANGE: {} } },
    Failed: {
      on: { CHANGE: {}, RETRY: { target: 'Signup', actions: 'clearErrors' } },
    },
  },
});

export type SignupSnapshot = SnapshotFrom<typeof signupMachine>;
export type SignupStep = 'ClaimSensor' | 'AccountSetup' | 'Signup' | 'Ok' | 'Failed';

/** Which wizard step the snapshot is on. */
export function signupStep(s: SignupSnapshot): SignupStep {
  const value = s.value;
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as SignupStep;
}
