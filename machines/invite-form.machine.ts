import { and, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { InviteRequest, InviteResponse } from '../src/contract/invitation.schema';
import { checkInvite, emailLooksValid, emptyInvite, inviteFailure, type InviteErrors, type InviteField, type InviteValues } from '../src/domain/invite-form';

/**
 * The invite modal (organisation-and-routes 2.1, 5, 8). Opening starts a fresh form; leaving the
 * email field with a valid email looks the account up (found: the name is the account's and
 * disabled, the mobile hidden); SUBMIT checks every rule and sends only a valid form; an invite
 * error shows in the red alert and keeps what was typed; success closes the modal (the member
 * list refreshes). Closing resets everything. Closing is refused while the invite is on its way.
 */

export interface InviteFormContext {
  meterReading: boolean;
  values: InviteValues;
  /** Fields whose message shows: touched by the user, or all after a SUBMIT. */
  shown: Partial<Record<InviteField, true>>;
  errors: InviteErrors;
  /** The looked-up account for the current email: its name, or null when none was found. */
  found: { name: string } | null;
  /** The invite call's error, shown in the red alert. */
  alert: string | null;
  /** SUBMIT came while the look-up ran: send once it answers (if the form is valid then). */
  submitAfterLookup: boolean;
  /** Successful invites so far: the list reloads when it changes. */
  invited: number;
  lastInvited: InviteResponse | null;
}

export type InviteFormEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'EDIT'; field: InviteField | 'country'; value: string | number | null }
  | { type: 'BLUR'; field: InviteField }
  | { type: 'SUBMIT' };

const fresh = (meterReading: boolean, invited: number, lastInvited: InviteResponse | null): InviteFormContext => ({
  meterReading,
  values: emptyInvite(),
  shown: {},
  errors: {},
  found: null,
  alert: null,
  submitAfterLookup: false,
  invited,
  lastInvited,
});

const recheck = (c: Pick<InviteFormContext, 'values' | 'meterReading' | 'found'>) => checkInvite(c.values, c.meterReading, !!c.found).errors;

type LookupAnswer = { found: boolean; name?: string };
/** The form after the look-up: a found account's own name replaces the typed one (unless it has none) and its mobile is dropped. */
function withAnswer(c: InviteFormContext, answer: LookupAnswer): [InviteValues, boolean, { name: string } | null] {
  if (!answer.found) return [c.values, c.meterReading, null];
  const found = { name: answer.name ?? '' };
  return [{ ...c.values, name: found.name || c.values.name, mobile: '' }, c.meterReading, found];
}

export const inviteFormMachine = setup({
  types: { context: {} as InviteFormContext, events: {} as InviteFormEvent, input: {} as { meterReading: boolean } },
  actors: {
    /** GET /users?email= : whether an account exists, and its name. */
    lookup: fromPromise<LookupAnswer, string>(async () => {
      throw new Error('lookup not provided');
    }),
    /** POST /organisations/{orgId}/invite */
    invite: fromPromise<InviteResponse, InviteRequest>(async () => {
      throw new Error('invite not provided');
    }),
  },
  guards: {
    leavingValidEmail: ({ context, event }) => event.type === 'BLUR' && event.field === 'email' && emailLooksValid(context.values.email),
    submitWaiting: ({ context }) => context.submitAfterLookup,
    formValid: ({ context }) => checkInvite(context.values, context.meterReading, !!context.found).request !== null,
    /** The form is valid once the look-up's answer is taken in. */
    validWithAnswer: ({ context, event }) => {
      const [values, meterReading, found] = withAnswer(context, (event as unknown as { output: LookupAnswer }).output);
      return checkInvite(values, meterReading, !!found).request !== null;
    },
    isEmailEdit: ({ event }) => event.type === 'EDIT' && event.field === 'email',
  },
  actions: {
    takeAnswer: assign(({ context, event }) => {
      const [values, , found] = withAnswer(context, (event as unknown as { output: LookupAnswer }).output);
      return { values, found, errors: recheck({ ...context, values, found }) };
    }),
    reset: assign(({ context }) => fresh(context.meterReading, context.invited, context.lastInvited)),
    edit: assign(({ context, event }) => {
      if (event.type !== 'EDIT') return {};
      // a found account's name is disabled and its mobile hidden
      // (an account without a name of its own keeps the name field open)
      if (context.found && (event.field === 'mobile' || event.field === 'country' || (event.field === 'name' && context.found.name))) return {};
      const values = { ...context.values, [event.field]: event.value } as InviteValues;
      // another email is another person: forget the account found for the old one
      const found = event.field === 'email' && event.value !== context.values.email ? null : context.found;
      const next = { ...context, values, found };
      return { values, found, errors: recheck(next), shown: event.field === 'country' ? { ...context.shown } : { ...context.shown, [event.field]: true } };
    }),
    // leaving a field shows its message once something was typed in it (an empty field waits for SUBMIT:
    // a message appearing under the first field would move the button the user is pressing)
    blur: assign(({ context, event }) =>
      event.type === 'BLUR' && String(context.values[event.field] ?? '').trim() ? { shown: { ...context.shown, [event.field]: true }, errors: recheck(context) } : {},
    ),
    showAll: assign(({ context }) => ({ shown: { email: true, name: true, role: true, mobile: true } as InviteFormContext['shown'], errors: recheck(context) })),
  },
}).createMachine({
  id: 'inviteForm',
  context: ({ input }) => fresh(input.meterReading, 0, null),
  initial: 'closed',
  states: {
    closed: { on: { OPEN: { target: 'open', actions: 'reset' } } },
    open: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            EDIT: { actions: 'edit' },
            BLUR: [
              { guard: 'leavingValidEmail', target: 'lookingUp', actions: 'blur' },
              { actions: 'blur' },
            ],
            SUBMIT: [{ guard: 'formValid', target: 'submitting', actions: assign({ alert: null }) }, { actions: 'showAll' }],
            CLOSE: { target: '#inviteForm.closed', actions: 'reset' },
          },
        },
        lookingUp: {
          invoke: {
            src: 'lookup',
            input: ({ context }) => context.values.email.trim().toLowerCase(),
            onDone: [
              { guard: and(['submitWaiting', 'validWithAnswer']), target: 'submitting', actions: ['takeAnswer', assign({ alert: null, submitAfterLookup: false })] },
              { target: 'editing', actions: ['takeAnswer', assign({ submitAfterLookup: false })] },
            ],
            // a failed look-up (rate limit, network) leaves the form as it is: the invite still works
            onError: [
              { guard: and(['submitWaiting', 'formValid']), target: 'submitting', actions: assign({ alert: null, submitAfterLookup: false }) },
              { target: 'editing', actions: assign({ submitAfterLookup: false }) },
            ],
          },
          on: {
            // a changed email cancels the look-up of the old one
            EDIT: [{ guard: 'isEmailEdit', target: 'editing', actions: ['edit', assign({ submitAfterLookup: false })] }, { actions: 'edit' }],
            BLUR: { actions: 'blur' },
            SUBMIT: { actions: ['showAll', assign({ submitAfterLookup: true })] },
            CLOSE: { target: '#inviteForm.closed', actions: 'reset' },
          },
        },
        submitting: {
          invoke: {
            src: 'invite',
            input: ({ context }) => checkInvite(context.values, context.meterReading, !!context.found).request!,
            onDone: {
              target: '#inviteForm.closed',
              actions: [assign(({ context, event }) => ({ invited: context.invited + 1, lastInvited: event.output })), 'reset'],
            },
            onError: { target: 'editing', actions: assign(({ event }) => ({ alert: inviteFailure(event.error) })) },
          },
        },
      },
    },
  },
});

export type InviteFormSnapshot = SnapshotFrom<typeof inviteFormMachine>;
/** A field's message as the form shows it. */
export const fieldError = (s: InviteFormSnapshot, field: InviteField) => (s.context.shown[field] ? s.context.errors[field] : undefined);
