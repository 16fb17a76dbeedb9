import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { busyLabel, claimFormMachine, type ClaimFormMode } from '../../machines/claim-form.machine';
import { NETWORK_MESSAGE } from '../../src/domain/messages';
import { SIGN_UP_MESSAGES } from '../../src/domain/sign-up-rules';
import { controlledActors, coveringPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

// Monitoring-client 4 (claim form: idle, validating, then success or error; editing a field clears
// that field's error; the modal resets when reopened) and 5 (serial and claim code rules; a failed
// claim shows the 'invalid' claim-code message), for sign-up ('claim') and Add Sensor ('add').

type Kind = 'empty' | 'valid' | 'bad';
type Field = 'serial' | 'claimCode';
/** What the form shows: nothing, one field's message, or a message for the whole form. */
type Shown = { field: Field | 'form'; message: string } | null;

const TYPED: Record<Field, Record<Exclude<Kind, 'empty'>, string>> = {
  serial: { valid: ' c0ffee01 ', bad: 'XYZ' },
  claimCode: { valid: ' C0FFEE01-0000-4000-8000-000000000001 ', bad: 'c0ffee01-0000' },
};
const SENT = { serial: 'C0FFEE01', claimCode: 'c0ffee01-0000-4000-8000-000000000001' };
const ADDED = { id: 'sensor-1', serial: 'C0FFEE01' };
const REFUSED = { code: 'ALREADY_CLAIMED', status: 409, message: 'This sensor already belongs to an organisation.' };

type ModelEvent =
  | { type: 'TYPE'; field: Field; kind: Exclude<Kind, 'empty'> }
  | { type: 'SUBMIT' }
  | { type: 'RESET' }
  // how the submit call ends
  | { type: 'ADDED' }
  | { type: 'CODE_REFUSED' }
  | { type: 'OFFLINE' }
  | { type: 'OTHER_REFUSAL' };

/** The spec's rule order: the serial is checked before the claim code; the first failure is shown. */
function firstFailure(c: { serial: Kind; claimCode: Kind }): Shown {
  if (c.serial === 'empty') return { field: 'serial', message: SIGN_UP_MESSAGES.serialRequired };
  if (c.serial === 'bad') return { field: 'serial', message: SIGN_UP_MESSAGES.serialInvalid };
  if (c.claimCode === 'empty') return { field: 'claimCode', message: SIGN_UP_MESSAGES.claimCodeRequired };
  if (c.claimCode === 'bad') return { field: 'claimCode', message: SIGN_UP_MESSAGES.claimCodeInvalid };
  return null;
}

/** The claim form as the spec describes it, written without looking at the machine's configuration. */
function claimFormModel(mode: ClaimFormMode) {
  const invalidCode: Shown = { field: 'claimCode', message: SIGN_UP_MESSAGES.claimCodeInvalid };
  // typedWhileBusy only makes typing into the disabled inputs a distinct model state, so that a path takes it
  const blank = { serial: 'empty' as Kind, claimCode: 'empty' as Kind, shown: null as Shown, typedWhileBusy: false };
  return setup({
    types: { context: {} as typeof blank, events: {} as ModelEvent },
    guards: {
      inputFails: ({ context }) => firstFailure(context) !== null,
      // editing a field clears that field's error (a form-wide message goes with any edit)
      errorStays: ({ context, event }) => event.type === 'TYPE' && context.shown !== null && context.shown.field !== 'form' && context.shown.field !== event.field,
    },
    actions: {
      type: assign(({ context, event }) => {
        const { field, kind } = event as Extract<ModelEvent, { type: 'TYPE' }>;
        const cleared = context.shown && (context.shown.field === field || context.shown.field === 'form');
        return { [field]: kind, shown: cleared ? null : context.shown };
      }),
      showFirstFailure: assign({ shown: ({ context }) => firstFailure(context) }),
    },
  }).createMachine({
    id: 'claimFormModel',
    context: blank,
    initial: 'idle',
    on: { RESET: { target: '.idle', actions: assign(() => blank) } },
    states: {
      idle: {
        on: {
          TYPE: { actions: 'type' },
          SUBMIT: [{ guard: 'inputFails', target: 'error', actions: 'showFirstFailure' }, { target: 'validating' }],
        },
      },
      // inputs disabled: nothing typed reaches the form
      validating: {
        on: {
          TYPE: { actions: assign({ typedWhileBusy: true }) },
          ADDED: 'success',
          CODE_REFUSED: { target: 'error', actions: assign({ shown: invalidCode }) },
          OFFLINE: { target: 'error', actions: assign({ shown: { field: 'form', message: NETWORK_MESSAGE } }) },
          // a failed claim at sign-up always reads as the invalid claim code; adding says what the server said
          OTHER_REFUSAL: { target: 'error', actions: assign({ shown: mode === 'claim' ? invalidCode : { field: 'form', message: REFUSED.message } }) },
        },
      },
      error: {
        on: {
          TYPE: [{ guard: 'errorStays', actions: 'type' }, { target: 'idle', actions: 'type' }],
          SUBMIT: [{ guard: 'inputFails', actions: 'showFirstFailure' }, { target: 'validating', actions: assign({ shown: null }) }],
        },
      },
      success: {},
    },
  });
}
type ModelSnap = SnapshotFrom<ReturnType<typeof claimFormModel>>;

const events: ModelEvent[] = [
  { type: 'TYPE', field: 'serial', kind: 'valid' },
  { type: 'TYPE', field: 'serial', kind: 'bad' },
  { type: 'TYPE', field: 'claimCode', kind: 'valid' },
  { type: 'TYPE', field: 'claimCode', kind: 'bad' },
  { type: 'SUBMIT' },
  { type: 'RESET' },
  { type: 'ADDED' },
  { type: 'CODE_REFUSED' },
  { type: 'OFFLINE' },
  { type: 'OTHER_REFUSAL' },
];

function startForm(mode: ClaimFormMode, inspect: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['submit']);
  const actor = createActor(claimFormMachine.provide({ actors: ctl.actors }), { input: { mode }, inspect }).start();
  return { ctl, actor };
}
type Form = ReturnType<typeof startForm>;

/** Makes the real form take the model's step: what the user typed or pressed, or how the call ended. */
async function drive({ ctl, actor }: Form, event: ModelEvent) {
  switch (event.type) {
    case 'TYPE': actor.send({ type: 'CHANGE', field: event.field, value: TYPED[event.field][event.kind] }); break;
    case 'ADDED': ctl.take('submit').resolve(ADDED); break;
    case 'CODE_REFUSED': ctl.take('submit').reject({ code: 'INVALID_CLAIM_CODE', status: 400, message: 'Invalid claim code' }); break;
    case 'OFFLINE': ctl.take('submit').reject({ code: 'NETWORK_ERROR', status: 0, message: 'Failed to fetch' }); break;
    case 'OTHER_REFUSAL': ctl.take('submit').reject(REFUSED); break;
    case 'RESET':
      actor.send(event);
      ctl.calls.length = 0; // a call in flight is abandoned with the form
      break;
    default: actor.send(event);
  }
  await flush();
}

/** What the user sees in the state the model says the form is in, and what was sent. */
function check({ ctl, actor }: Form, expected: ModelSnap, mode: ClaimFormMode) {
  const real = actor.getSnapshot();
  expect(real.value).toBe(expected.value);
  const c = expected.context;
  for (const field of ['serial', 'claimCode'] as const) expect(real.context[field], field).toBe(c[field] === 'empty' ? '' : TYPED[field][c[field]]);
  const shown = { serial: real.context.errors.serial, claimCode: real.context.errors.claimCode, form: real.context.formError ?? undefined };
  expect(shown).toEqual({ serial: undefined, claimCode: undefined, form: undefined, ...(c.shown ? { [c.shown.field]: c.shown.message } : {}) });
  if (expected.matches('validating')) {
    // trimmed and normalised before they are sent; the button reads the busy label
    expect(ctl.peek('submit')?.input).toEqual(SENT);
    expect(busyLabel(mode)).toBe(mode === 'claim' ? 'Validating...' : 'Adding...');
  } else expect(ctl.calls, 'no call left pending').toEqual([]);
  if (expected.matches('success')) expect(real.context.result).toEqual(ADDED);
}

describe.each<ClaimFormMode>(['claim', 'add'])('claim form machine against its model, mode %s (monitoring-client 4, 5)', (mode) => {
  const model = claimFormModel(mode);
  const paths = documentedPaths(`claim-form (${mode})`, coveringPaths(createTestModel(model, { events })));
  const coverage = machineCoverage(claimFormMachine);

  it('the paths reach every state and take every transition of the model', () => {
    expect(modelUncovered(model, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const form = startForm(mode, coverage.inspect);
    const exec = ({ event }: { event: EventObject }) => drive(form, event as ModelEvent);
    await path.test({
      events: Object.fromEntries(events.map((e) => [e.type, exec])) as never,
      states: { '*': (s) => check(form, s as ModelSnap, mode) },
    });
    form.actor.stop();
  });

  // runs after the paths (tests run in order): they went through all of the real machine
  it('the paths exercised every state and transition of the real machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});
