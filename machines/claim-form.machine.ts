import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { NETWORK_MESSAGE, DEFAULT_MESSAGE, isNetworkError } from '../src/domain/messages';
import { SIGN_UP_MESSAGES, checkClaimStep } from '../src/domain/sign-up-rules';

/**
 * The claim form (monitoring-client 4): idle, validating (the button reads 'Validating...' or
 * 'Adding...' and the inputs are disabled), then success or error. Editing a field clears that
 * field's error; RESET (the modal reopening) starts afresh. Used by sign-up step 1 ('claim') and
 * the Add a New Sensor modal ('add'), each supplying its own `submit` actor with .provide().
 */

export type ClaimFormMode = 'claim' | 'add';
export type ClaimField = 'serial' | 'claimCode';
export interface ClaimInput {
  serial: string;
  claimCode: string;
}

export interface ClaimFormContext {
  mode: ClaimFormMode;
  serial: string;
  claimCode: string;
  errors: Partial<Record<ClaimField, string>>;
  /** A failure that belongs to no field (network, server). */
  formError: string | null;
  /** What the submit actor answered (the claimed or added sensor). */
  result: unknown;
}

export type ClaimFormEvent = { type: 'CHANGE'; field: ClaimField; value: string } | { type: 'SUBMIT' } | { type: 'RESET' };

interface FailureLike {
  code?: string;
  status?: number;
  message?: string;
}

/** A rejected submit -> where and what to show (a failed claim shows the 'invalid' claim-code message). */
export function claimFailure(error: unknown, mode: ClaimFormMode): Pick<ClaimFormContext, 'errors' | 'formError'> {
  const e = (error ?? {}) as FailureLike;
  if (isNetworkError(e)) return { errors: {}, formError: NETWORK_MESSAGE };
  if (e.code === 'TOO_MANY_REQUESTS' || e.status === 429) return { errors: {}, formError: TOO_MANY_ATTEMPTS };
  if (e.code === 'INVALID_SERIAL') return { errors: { serial: SIGN_UP_MESSAGES.serialInvalid }, formError: null };
  if (e.code === 'INVALID_CLAIM_CODE' || mode === 'claim') return { errors: { claimCode: SIGN_UP_MESSAGES.claimCodeInvalid }, formError: null };
  // Adding to an organisation can fail for reasons of its own (already there, no permission): the server's text says which.
  const serverSaid = e.status !== undefined && e.status >= 400 && e.status < 500 && e.message;
  return { errors: {}, formError: serverSaid || DEFAULT_MESSAGE };
}

const TOO_MANY_ATTEMPTS = 'Too many attempts, please try again later';

const blank = (mode: ClaimFormMode): ClaimFormContext => ({ mode, serial: '', claimCode: '', errors: {}, formError: null, result: null });

export const claimFormMachine = setup({
  types: { context: {} as ClaimFormContext, events: {} as ClaimFormEvent, input: {} as { mode: ClaimFormMode } },
  actors: {
    /** POST /claim-sensor or POST /organisations/{orgId}/add-sensor with the normalised values. */
    submit: fromPromise<unknown, ClaimInput>(async () => {
      throw new Error('submit not provided');
    }),
  },
  guards: {
    invalidInput: ({ context }) => !checkClaimStep(context).ok,
    /** The edit leaves another field's error on screen: the form is still in error. */
    otherFieldErrorStays: ({ context, event }) => event.type === 'CHANGE' && Object.keys(context.errors).some((field) => field !== event.field),
  },
  actions: {
    edit: assign(({ context, event }) => {
      if (event.type !== 'CHANGE') return {};
      const errors = { ...context.errors };
      delete errors[event.field];
      return { [event.field]: event.value, errors, formError: null };
    }),
    showFirstFailure: assign(({ context }) => {
      const checked = checkClaimStep(context);
      if (checked.ok) return {};
      const field: ClaimField = checked.error.code === 'INVALID_SERIAL' ? 'serial' : 'claimCode';
      return { errors: { [field]: checked.error.message }, formError: null };
    }),
  },
}).createMachine({
  id: 'claimForm',
  context: ({ input }) => blank(input.mode),
  initial: 'idle',
  on: { RESET: { target: '.idle', actions: assign(({ context }) => blank(context.mode)) } },
  states: {
    idle: {
      on: {
        CHANGE: { actions: 'edit' },
        SUBMIT: [{ guard: 'invalidInput', target: 'error', actions: 'showFirstFailure' }, { target: 'validating' }],
      },
    },
    validating: {
      // the answer replaces what an earlier attempt said
      entry: assign({ errors: {}, formError: null }),
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => {
          const checked = checkClaimStep(context);
          return checked.ok ? checked.value : { serial: context.serial, claimCode: context.claimCode };
        },
        onDone: { target: 'success', actions: assign({ result: ({ event }) => event.output }) },
        onError: { target: 'error', actions: assign(({ context, event }) => claimFailure(event.error, context.mode)) },
      },
    },
    error: {
      on: {
        CHANGE: [{ guard: 'otherFieldErrorStays', actions: 'edit' }, { target: 'idle', actions: 'edit' }],
        SUBMIT: [{ guard: 'invalidInput', actions: 'showFirstFailure' }, { target: 'validating' }],
      },
    },
    success: {},
  },
});

export type ClaimFormSnapshot = SnapshotFrom<typeof claimFormMachine>;

/** The submit button's text while a claim is being checked. */
export const busyLabel = (mode: ClaimFormMode) => (mode === 'claim' ? 'Validating...' : 'Adding...');
