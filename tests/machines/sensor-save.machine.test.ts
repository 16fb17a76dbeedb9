import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine, type EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { sensorSaveMachine, updateLabel, type SensorSaveSnapshot } from '../../machines/sensor-save.machine';
import { controlledActors, coveringPaths, flush } from './auth-model-kit';
import { documentedPaths } from './model-kit';

/**
 * The save flow of a setup section, modelled by hand from sensor-setup 2, 4 and 8 (not from the
 * machine): Update with a broken rule shows the errors and sends nothing; otherwise the form
 * locks and the button reads 'Updating' until the server answers; success shows the section's
 * notice, failure its failure notice and keeps what was typed; shown errors follow each edit.
 */
type Typed = 'good' | 'bad';
interface ModelContext {
  typed: Typed;
  errorsShown: boolean;
  notice: null | 'success' | 'failure';
}

const model = createMachine({
  id: 'saveModel',
  types: {} as { context: ModelContext; events: { type: 'TYPE_GOOD' } | { type: 'TYPE_BAD' } | { type: 'UPDATE' } | { type: 'SERVER_OK' } | { type: 'SERVER_FAILS' } },
  context: { typed: 'good', errorsShown: false, notice: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        TYPE_GOOD: { actions: assign({ typed: 'good' }) },
        TYPE_BAD: { actions: assign({ typed: 'bad' }) },
        UPDATE: [{ guard: ({ context }) => context.typed === 'bad', actions: assign({ errorsShown: true }) }, { target: 'saving' }],
      },
    },
    // the form is locked while saving: typing and Update do nothing
    saving: {
      on: {
        TYPE_GOOD: {},
        TYPE_BAD: {},
        UPDATE: {},
        SERVER_OK: { target: 'editing', actions: assign({ notice: 'success', errorsShown: false }) },
        SERVER_FAILS: { target: 'editing', actions: assign({ notice: 'failure' }) },
      },
    },
  },
});

const SUCCESS = 'Display settings updated.';
const FAILURE = 'Something went wrong';
const ERRORS = { name: 'The name should not be empty' };
const check = (v: string) => ({ body: { name: v }, errors: v === 'bad' ? ERRORS : {} });
const valuesOf = (saved: { name: string }) => saved.name;

export function runSavePaths(machine: typeof sensorSaveMachine) {
  const testModel = createTestModel(model);
  const paths = documentedPaths('sensor-save', coveringPaths(testModel));
  return paths.map((path) => ({
    description: path.description,
    async run() {
      const { actors, take, calls } = controlledActors(['save']);
      const actor = createActor(machine.provide({ actors }), { input: { values: 'good', check, valuesOf, successMessage: SUCCESS, failureMessage: () => FAILURE } }).start();
      const send = (e: EventObject) => actor.send(e as never);
      await path.test({
        events: {
          TYPE_GOOD: () => send({ type: 'EDIT', update: () => 'good' } as never),
          TYPE_BAD: () => send({ type: 'EDIT', update: () => 'bad' } as never),
          UPDATE: () => send({ type: 'SUBMIT' }),
          SERVER_OK: async () => {
            take('save').resolve({ name: 'good' });
            await flush();
          },
          SERVER_FAILS: async () => {
            take('save').reject(Object.assign(new Error('boom'), { code: 'INTERNAL_ERROR' }));
            await flush();
          },
        },
        states: {
          '*': (expected) => {
            const m = expected.context as ModelContext;
            const real = actor.getSnapshot() as SensorSaveSnapshot;
            const saving = expected.matches('saving');
            expect(real.matches('saving')).toBe(saving);
            expect(updateLabel(real.matches('saving'))).toBe(saving ? 'Updating' : 'Update');
            // what the user typed is kept through every outcome
            expect(real.context.values).toBe(m.typed);
            expect(real.context.errors).toEqual(m.errorsShown && m.typed === 'bad' ? ERRORS : {});
            expect(real.context.notice ? { kind: real.context.notice.kind, message: real.context.notice.message } : null).toEqual(
              m.notice === 'success' ? { kind: 'success', message: SUCCESS } : m.notice === 'failure' ? { kind: 'error', message: FAILURE } : null,
            );
            // one save call per Update that passed the rules, carrying the typed values
            if (saving) expect(calls.filter((c) => c.src === 'save').map((c) => c.input)).toEqual([{ name: m.typed }]);
          },
        },
      });
      actor.stop();
    },
  }));
}

describe('sensor save machine (sensor-setup 2, 4, 8), model-tested', () => {
  const paths = runSavePaths(sensorSaveMachine);
  it('covers the model with several paths', () => expect(paths.length).toBeGreaterThan(5));
  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, p) => p.run());
});
