import { describe, expect, it } from 'vitest';
import { createActor, type EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { busyLabel, claimFormMachine, type ClaimFormMode, type ClaimFormSnapshot } from '../../machines/claim-form.machine';
import { NETWORK_MESSAGE } from '../../src/domain/messages';
import { SIGN_UP_MESSAGES } from '../../src/domain/sign-up-rules';
import { controlledActors, coveringPaths, modelMachine, replay, uncovered, type ModelEvent } from './auth-model-kit';

// Monitoring-client 4 (claim form) and 5 (serial and claim code rules), for sign-up ('claim') and Add Sensor ('add').
const VALID_SERIAL = ' c0ffee01 ';
const VALID_CODE = ' C0FFEE01-0000-4000-8000-000000000001 ';

const events: ModelEvent[] = [
  { type: 'CHANGE', field: 'serial', value: VALID_SERIAL },
  { type: 'CHANGE', field: 'serial', value: 'XYZ' },
  { type: 'CHANGE', field: 'claimCode', value: VALID_CODE },
  { type: 'SUBMIT' },
  { type: 'RESET' },
  { type: 'xstate.done.actor.submit', output: { id: 'sensor-1' } },
  { type: 'xstate.error.actor.submit', error: { code: 'INVALID_CLAIM_CODE', status: 400, message: 'Invalid claim code' } },
  { type: 'xstate.error.actor.submit', error: { code: 'NETWORK_ERROR', status: 0, message: 'Failed to fetch' } },
  { type: 'xstate.error.actor.submit', error: { code: 'ALREADY_CLAIMED', status: 409, message: 'This sensor already belongs to an organisation.' } },
];

describe.each<ClaimFormMode>(['claim', 'add'])('claim form machine, mode %s (monitoring-client 4)', (mode) => {
  const machine = modelMachine(claimFormMachine);
  const model = createTestModel(machine, { events: events as never, input: { mode } });
  const paths = coveringPaths(model);

  it('has paths that reach every state and take every transition', () => {
    expect(uncovered(machine, paths)).toEqual({ states: [], transitions: [] });
    expect(uncovered(machine, paths.slice(0, 2)).transitions.length).toBeGreaterThan(0);
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const { actors, take, calls } = controlledActors(['submit']);
    const actor = createActor(claimFormMachine.provide({ actors }), { input: { mode } }).start();
    let submitted: unknown = null;
    await path.test({
      events: Object.fromEntries(
        events.map((e) => [
          e.type,
          ({ event }: { event: EventObject }) => replay(actor, take, event),
        ]),
      ),
      states: {
        '*': (expected) => {
          const real = actor.getSnapshot() as ClaimFormSnapshot;
          expect(real.value).toEqual(expected.value);
          expect(real.context).toEqual(expected.context);
        },
        validating: () => {
          // The values are trimmed and normalised before they are sent; the button reads the busy label.
          const pending = calls.find((c) => c.src === 'submit');
          submitted = pending?.input;
          expect(submitted).toEqual({ serial: 'C0FFEE01', claimCode: 'c0ffee01-0000-4000-8000-000000000001' });
          expect(busyLabel(mode)).toBe(mode === 'claim' ? 'Validating...' : 'Adding...');
        },
        error: (s) => {
          const { errors, formError } = (s as ClaimFormSnapshot).context;
          // The first failure is shown, under its field; a failed claim shows the 'invalid' claim-code message.
          const shown = [errors.serial, errors.claimCode, formError].filter(Boolean);
          expect(shown).toHaveLength(1);
          expect([
            SIGN_UP_MESSAGES.serialRequired,
            SIGN_UP_MESSAGES.serialInvalid,
            SIGN_UP_MESSAGES.claimCodeRequired,
            SIGN_UP_MESSAGES.claimCodeInvalid,
            NETWORK_MESSAGE,
            'This sensor already belongs to an organisation.',
          ]).toContain(shown[0]);
          if (mode === 'claim') expect(formError === null || formError === NETWORK_MESSAGE).toBe(true);
        },
      },
    });
    actor.stop();
  });
});

describe('claim form rules (monitoring-client 4, 5)', () => {
  const start = (mode: ClaimFormMode) => createActor(claimFormMachine, { input: { mode } }).start();

  it('checks the serial before the claim code and shows only the first failure', () => {
    const a = start('claim');
    a.send({ type: 'SUBMIT' });
    expect(a.getSnapshot().context.errors).toEqual({ serial: SIGN_UP_MESSAGES.serialRequired });
    a.send({ type: 'CHANGE', field: 'serial', value: 'A3B4C5' });
    a.send({ type: 'SUBMIT' });
    expect(a.getSnapshot().context.errors).toEqual({ claimCode: SIGN_UP_MESSAGES.claimCodeRequired });
  });

  it('editing a field clears only that field’s error, and RESET empties the form', () => {
    const a = start('add');
    a.send({ type: 'CHANGE', field: 'serial', value: 'nothex' });
    a.send({ type: 'SUBMIT' });
    expect(a.getSnapshot().context.errors.serial).toBe(SIGN_UP_MESSAGES.serialInvalid);
    a.send({ type: 'CHANGE', field: 'claimCode', value: 'x' });
    expect(a.getSnapshot().context.errors.serial).toBe(SIGN_UP_MESSAGES.serialInvalid);
    a.send({ type: 'CHANGE', field: 'serial', value: 'A3B4C5' });
    expect(a.getSnapshot().context.errors).toEqual({});
    a.send({ type: 'RESET' });
    expect(a.getSnapshot().context).toMatchObject({ serial: '', claimCode: '', errors: {}, mode: 'add' });
  });
});
