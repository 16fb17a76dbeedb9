import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { fieldError, inviteFormMachine } from '../../machines/invite-form.machine';
import { INVITE_MESSAGES } from '../../src/domain/invite-form';
import { NETWORK_MESSAGE } from '../../src/domain/messages';
import { controlledActors, coveringPaths, essentialPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The invite modal, modelled from organisation-and-routes 2.1, 5 and 8 (not from the machine):
 * - Email, Name and Role are required; the email must look like a standard address and is
 *   lower-cased before it is sent; Mobile is optional, a number that is not one blocks the invite
 *   ('Please enter a valid phone number'), a doubtful one only warns.
 * - Leaving the email field with a valid email looks the account up; found: the name is the
 *   account's and disabled, the mobile is hidden (and not sent).
 * - An invite error shows in the red alert: ALREADY_A_MEMBER and the already-invited message,
 *   others a failure text; the form keeps what was typed.
 * - Success closes the modal and the list refreshes; closing resets everything.
 * The model abstracts what was typed into kinds; the invite call is only made with a valid form.
 */
type EmailKind = 'empty' | 'bad' | 'new' | 'existing';
type MobileKind = 'empty' | 'bad' | 'doubtful';
interface M {
  email: EmailKind;
  name: boolean;
  mobile: MobileKind;
  found: boolean;
  alert: string | null;
  /** every field's message shows (a SUBMIT of an invalid form) */
  shown: boolean;
  invited: boolean;
  /** SUBMIT pressed while the look-up ran */
  waiting: boolean;
}
type ModelEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'TYPE_EMAIL'; kind: Exclude<EmailKind, 'empty'> }
  | { type: 'TYPE_NAME' }
  | { type: 'CLEAR_NAME' }
  | { type: 'TYPE_MOBILE'; kind: MobileKind }
  | { type: 'LEAVE_EMAIL' }
  | { type: 'SUBMIT' }
  | { type: 'LOOKUP_ANSWERS' }
  | { type: 'LOOKUP_FAILS' }
  | { type: 'INVITED' }
  | { type: 'REFUSED'; code: 'ALREADY_A_MEMBER' | 'ALREADY_INVITED' | 'NETWORK_ERROR' | 'INVALID_ROLE' };

const fresh: M = { email: 'empty', name: false, mobile: 'empty', found: false, alert: null, shown: false, invited: false, waiting: false };
const emailValid = (c: M) => c.email === 'new' || c.email === 'existing';
const formValid = (c: M) => emailValid(c) && (c.name || c.found) && (c.found || c.mobile !== 'bad');
const ALERT: Record<Extract<ModelEvent, { type: 'REFUSED' }>['code'], string> = {
  ALREADY_A_MEMBER: 'This user is already a member of your organisation.',
  ALREADY_INVITED: 'The email already exists or have been invited',
  NETWORK_ERROR: NETWORK_MESSAGE,
  INVALID_ROLE: INVITE_MESSAGES.failed,
};

const inviteModel = setup({
  types: { context: {} as M, events: {} as ModelEvent },
  guards: {
    leavesValidEmail: ({ context }) => emailValid(context),
    valid: ({ context }) => formValid(context),
    validAfterLookup: ({ context }) => context.waiting && formValid({ ...context, found: context.email === 'existing' }),
  },
  actions: {
    // another email is another person: the account found for the old one is forgotten (the same email typed again keeps it)
    typeEmail: assign(({ context, event }) => (event.type === 'TYPE_EMAIL' ? { email: event.kind, found: context.found && event.kind === context.email, waiting: false } : {})),
  },
}).createMachine({
  id: 'invite',
  context: { ...fresh },
  initial: 'closed',
  states: {
    closed: { on: { OPEN: { target: 'editing', actions: assign(({ context }) => ({ ...fresh, invited: context.invited })) } } },
    editing: {
      on: {
        TYPE_EMAIL: { actions: 'typeEmail' },
        TYPE_NAME: { actions: assign({ name: true }) },
        TYPE_MOBILE: { guard: ({ context }) => !context.found, actions: assign(({ event }) => ({ mobile: event.kind })) },
        LEAVE_EMAIL: { guard: 'leavesValidEmail', target: 'lookingUp' },
        SUBMIT: [{ guard: 'valid', target: 'submitting', actions: assign({ alert: null }) }, { actions: assign({ shown: true }) }],
        CLOSE: { target: 'closed', actions: assign(({ context }) => ({ ...fresh, invited: context.invited })) },
      },
    },
    lookingUp: {
      on: {
        TYPE_EMAIL: { target: 'editing', actions: 'typeEmail' },
        TYPE_NAME: { actions: assign({ name: true }) },
        TYPE_MOBILE: { guard: ({ context }) => !context.found, actions: assign(({ event }) => ({ mobile: event.kind })) },
        // leaving the field again while its look-up runs starts no second one
        LEAVE_EMAIL: { actions: assign({}) },
        SUBMIT: { actions: assign({ waiting: true, shown: true }) },
        // the answer: an account exists for 'existing' emails only; its name fills the form
        LOOKUP_ANSWERS: [
          {
            guard: 'validAfterLookup',
            target: 'submitting',
            actions: assign(({ context }) => (context.email === 'existing' ? { found: true, name: true, mobile: 'empty' as const, waiting: false, alert: null } : { waiting: false, alert: null })),
          },
          { target: 'editing', actions: assign(({ context }) => (context.email === 'existing' ? { found: true, name: true, mobile: 'empty' as const, waiting: false } : { waiting: false })) },
        ],
        LOOKUP_FAILS: [
          { guard: ({ context }) => context.waiting && formValid(context), target: 'submitting', actions: assign({ waiting: false, alert: null }) },
          { target: 'editing', actions: assign({ waiting: false }) },
        ],
        CLOSE: { target: 'closed', actions: assign(({ context }) => ({ ...fresh, invited: context.invited })) },
      },
    },
    submitting: {
      on: {
        INVITED: { target: 'closed', actions: assign({ ...fresh, invited: true }) },
        REFUSED: { target: 'editing', actions: assign(({ event }) => ({ alert: ALERT[event.code] })) },
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof inviteModel>;

const TYPED = { bad: 'Someone@', new: 'New.Person@Example.COM', existing: 'Member@Demo.test' } as const;
const MOBILE = { empty: '', bad: 'abc', doubtful: '01 000 0000' } as const;
const ACCOUNT_NAME = 'Manu Member';

const events: ModelEvent[] = [
  { type: 'OPEN' },
  { type: 'CLOSE' },
  { type: 'TYPE_EMAIL', kind: 'bad' },
  { type: 'TYPE_EMAIL', kind: 'new' },
  { type: 'TYPE_EMAIL', kind: 'existing' },
  { type: 'TYPE_NAME' },
  { type: 'TYPE_MOBILE', kind: 'bad' },
  { type: 'TYPE_MOBILE', kind: 'doubtful' },
  { type: 'LEAVE_EMAIL' },
  { type: 'SUBMIT' },
  { type: 'LOOKUP_ANSWERS' },
  { type: 'LOOKUP_FAILS' },
  { type: 'INVITED' },
  { type: 'REFUSED', code: 'ALREADY_A_MEMBER' },
  { type: 'REFUSED', code: 'ALREADY_INVITED' },
  { type: 'REFUSED', code: 'INVALID_ROLE' },
];

function startForm(inspect?: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['lookup', 'invite']);
  const actor = createActor(inviteFormMachine.provide({ actors: ctl.actors }), { input: { meterReading: false }, inspect }).start();
  return { ctl, actor, typedEmail: '' };
}
type Form = ReturnType<typeof startForm>;

async function drive(form: Form, event: ModelEvent) {
  const { ctl, actor } = form;
  switch (event.type) {
    case 'TYPE_EMAIL': actor.send({ type: 'EDIT', field: 'email', value: TYPED[event.kind] }); break;
    case 'TYPE_NAME': actor.send({ type: 'EDIT', field: 'name', value: '  Nia New  ' }); break;
    case 'CLEAR_NAME': actor.send({ type: 'EDIT', field: 'name', value: '   ' }); break;
    case 'TYPE_MOBILE': actor.send({ type: 'EDIT', field: 'mobile', value: MOBILE[event.kind] }); break;
    case 'LEAVE_EMAIL': actor.send({ type: 'BLUR', field: 'email' }); break;
    case 'LOOKUP_ANSWERS': {
      const call = ctl.peek('lookup');
      if (call) ctl.take('lookup').resolve(call.input === 'member@demo.test' ? { found: true, name: ACCOUNT_NAME } : { found: false });
      break;
    }
    case 'LOOKUP_FAILS':
      if (ctl.peek('lookup')) ctl.take('lookup').reject({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too many look-ups' });
      break;
    case 'INVITED': {
      const call = ctl.peek('invite');
      if (call) ctl.take('invite').resolve({ email: (call.input as { email: string }).email, status: 'Invited', inviteId: 'i-1', lastInviteAt: 1 });
      break;
    }
    case 'REFUSED':
      if (ctl.peek('invite'))
        ctl.take('invite').reject({ status: event.code === 'NETWORK_ERROR' ? 0 : 400, code: event.code, message: event.code === 'NETWORK_ERROR' ? 'Failed to fetch' : event.code });
      break;
    default: actor.send(event as never);
  }
  await flush();
  // a call whose state was left is abandoned (its answer would be ignored)
  const s = actor.getSnapshot();
  const live = ctl.calls.filter((c) => (c.src === 'lookup' && s.matches({ open: 'lookingUp' })) || (c.src === 'invite' && s.matches({ open: 'submitting' })));
  ctl.calls.splice(0, ctl.calls.length, ...live);
}

const where = (s: ModelSnap) => String(s.value);

/** What the user sees in the state the model says the form is in, and what was sent. */
function check({ ctl, actor }: Form, expected: ModelSnap) {
  const real = actor.getSnapshot();
  const m = expected.context;
  const at = where(expected);
  expect(real.matches('closed'), `${at}: modal closed`).toBe(at === 'closed');
  expect(real.matches({ open: 'lookingUp' }), `${at}: looking up`).toBe(at === 'lookingUp');
  expect(real.matches({ open: 'submitting' }), `${at}: sending`).toBe(at === 'submitting');
  const c = real.context;
  expect(c.invited > 0, 'the list refreshed after an invite').toBe(m.invited);
  expect(c.alert, 'red alert').toBe(m.alert);
  expect(!!c.found, 'account found: name disabled, mobile hidden').toBe(m.found);
  expect(c.values.email, 'email field').toBe(m.email === 'empty' ? '' : TYPED[m.email]);
  expect(c.values.name.trim() !== '', 'name filled').toBe(m.name);
  if (m.found) expect(c.values.name).toBe(ACCOUNT_NAME);
  expect(c.values.mobile, 'mobile field').toBe(m.found ? '' : MOBILE[m.mobile]);
  if (at === 'closed') expect(c.values, 'a closed modal is reset').toEqual({ email: '', name: '', role: 1, mobile: '', country: 'NZ' });
  if (m.shown && at !== 'closed') {
    expect(fieldError(real, 'email')).toBe(m.email === 'empty' ? INVITE_MESSAGES.emailRequired : m.email === 'bad' ? INVITE_MESSAGES.emailFormat : undefined);
    expect(fieldError(real, 'name')).toBe(m.name ? undefined : INVITE_MESSAGES.nameRequired);
    expect(fieldError(real, 'mobile')).toBe(!m.found && m.mobile === 'bad' ? INVITE_MESSAGES.mobileInvalid : undefined);
  }
  const pending = ctl.calls.map((x) => x.src);
  expect(pending, 'calls in flight').toEqual(at === 'lookingUp' ? ['lookup'] : at === 'submitting' ? ['invite'] : []);
  if (at === 'lookingUp') expect(ctl.calls[0].input, 'the email looked up, lower-cased').toBe(TYPED[m.email as 'new' | 'existing'].toLowerCase());
  if (at === 'submitting') {
    const sent = ctl.calls[0].input as { email: string; name: string; role: number; mobile: string | null };
    expect(sent.email, 'the email is lower-cased before sending').toBe(TYPED[m.email as 'new' | 'existing'].toLowerCase());
    expect(sent.name, 'the name is trimmed').toBe(sent.name.trim());
    expect(sent.role).toBe(1);
    expect(sent.mobile, 'a found account sends no mobile').toBe(!m.found && m.mobile === 'doubtful' ? '+6410000000' : null);
  }
}

describe('invite form machine against its model (organisation-and-routes 2.1, 5, 8)', () => {
  const paths = documentedPaths('invite-form', essentialPaths(inviteModel, coveringPaths(createTestModel(inviteModel, { events }))));
  const coverage = machineCoverage(inviteFormMachine);

  it('the paths reach every state and take every transition of the model', () => {
    expect(modelUncovered(inviteModel, paths)).toEqual({ states: [], transitions: [] });
  });

  it(`every path (${paths.length}) agrees with the model`, async () => {
    const failures: string[] = [];
    for (const path of paths) {
      const form = startForm(coverage.inspect);
      const exec = ({ event }: { event: EventObject }) => drive(form, event as ModelEvent);
      try {
        await path.test({
          events: Object.fromEntries(events.map((e) => [e.type, exec])) as never,
          states: { '*': (s) => check(form, s as ModelSnap) },
        });
      } catch (err) {
        failures.push(`${path.description}\n  ${(err as Error).message.split('\n')[0]}`);
      }
      form.actor.stop();
    }
    expect(failures.length, failures.slice(0, 5).join('\n')).toBe(0);
  }, 600_000);

  it('the paths exercised every state and transition of the real machine', () => {
    expect(coverage.uncovered(), JSON.stringify(coverage.uncovered())).toEqual({ states: [], transitions: [] });
  });

  it('roles: meter reader is offered only with meter reading; a role outside the offer is refused', () => {
    const actor = createActor(inviteFormMachine.provide({ actors: controlledActors(['lookup', 'invite']).actors }), { input: { meterReading: false } }).start();
    actor.send({ type: 'OPEN' });
    actor.send({ type: 'EDIT', field: 'role', value: 4 });
    actor.send({ type: 'SUBMIT' });
    expect(fieldError(actor.getSnapshot(), 'role')).toBe(INVITE_MESSAGES.roleRequired);
  });
});
