import { describe, expect, it } from 'vitest';
import { assign, createActor, createMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { moveSensorMachine, type MoveSensorSnapshot } from '../../machines/move-sensor.machine';
import { controlledActors, coveringPaths, flush } from './auth-model-kit';
import { documentedPaths } from './model-kit';

/**
 * The move-sensor screen, modelled by hand from sensor-setup 2, 4, 5 and 8: a click or legal typed
 * 'lat, lng' places the sensor (unsaved); illegal coordinates give the error notice and move
 * nothing; save stores the placed position ('Failed to update location' keeps it placed); cancel
 * puts the marker back where the sensor is saved. Positions: S saved at first, C a map click, T typed.
 */
type Pos = 'S' | 'C' | 'T';
interface ModelContext {
  saved: Pos;
  position: Pos;
  notice: null | 'updated' | 'failed' | 'illegal';
}
const AT: Record<Pos, { latitude: number; longitude: number }> = {
  S: { latitude: -37.6425, longitude: 176.1806 },
  C: { latitude: -41.2889, longitude: 174.7772 },
  T: { latitude: -85.05115, longitude: 180 }, // the corners of the ranges are legal
};
const TYPED_LEGAL = ' -85.05115 , 180 ';
const TYPED_ILLEGAL = '85.1, 170';

const model = createMachine({
  id: 'moveModel',
  types: {} as {
    context: ModelContext;
    events: { type: 'CLICK' } | { type: 'TYPE_LEGAL' } | { type: 'TYPE_ILLEGAL' } | { type: 'SAVE' } | { type: 'CANCEL' } | { type: 'SERVER_OK' } | { type: 'SERVER_FAILS' };
  },
  context: { saved: 'S', position: 'S', notice: null },
  initial: 'atSaved',
  states: {
    atSaved: {
      on: {
        CLICK: { target: 'unsaved', actions: assign({ position: 'C' }) },
        TYPE_LEGAL: { target: 'unsaved', actions: assign({ position: 'T' }) },
        TYPE_ILLEGAL: { actions: assign({ notice: 'illegal' }) },
        SAVE: {}, // nothing to save
        CANCEL: {},
      },
    },
    unsaved: {
      on: {
        CLICK: { actions: assign({ position: 'C' }) },
        TYPE_LEGAL: { actions: assign({ position: 'T' }) },
        TYPE_ILLEGAL: { actions: assign({ notice: 'illegal' }) },
        SAVE: 'saving',
        CANCEL: { target: 'atSaved', actions: assign({ position: ({ context }) => context.saved }) },
      },
    },
    saving: {
      on: {
        SERVER_OK: { target: 'atSaved', actions: assign({ saved: ({ context }) => context.position, notice: 'updated' }) },
        SERVER_FAILS: { target: 'unsaved', actions: assign({ notice: 'failed' }) },
      },
    },
  },
});

const NOTICE = {
  updated: { kind: 'success', message: 'Location updated.' },
  failed: { kind: 'error', message: 'Failed to update location' },
  illegal: { kind: 'error', message: 'Illegal coordinates: latitude must be from -85.05115 to 85 and longitude from -180 to 180' },
};

describe('move sensor machine (sensor-setup 2, 4, 5, 8), model-tested', () => {
  const paths = documentedPaths('move-sensor', coveringPaths(createTestModel(model)));
  it('covers the model with several paths', () => expect(paths.length).toBeGreaterThan(8));

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const { actors, take, calls } = controlledActors(['save']);
    const actor = createActor(moveSensorMachine.provide({ actors }), { input: { saved: AT.S } }).start();
    await path.test({
      events: {
        CLICK: () => actor.send({ type: 'PLACE', position: AT.C }),
        TYPE_LEGAL: () => actor.send({ type: 'TYPE', text: TYPED_LEGAL }),
        TYPE_ILLEGAL: () => actor.send({ type: 'TYPE', text: TYPED_ILLEGAL }),
        SAVE: () => actor.send({ type: 'SAVE' }),
        CANCEL: () => actor.send({ type: 'CANCEL' }),
        SERVER_OK: async () => {
          take('save').resolve({});
          await flush();
        },
        SERVER_FAILS: async () => {
          take('save').reject(new Error('Failed to fetch'));
          await flush();
        },
      },
      states: {
        '*': (expected) => {
          const m = expected.context as ModelContext;
          const real = actor.getSnapshot() as MoveSensorSnapshot;
          expect(real.matches('saving')).toBe(expected.matches('saving'));
          // 'unsaved' is the only state in which Save and Cancel are offered
          expect(real.matches('moved')).toBe(expected.matches('unsaved'));
          expect(real.context.position).toEqual(AT[m.position]);
          expect(real.context.saved).toEqual(AT[m.saved]);
          expect(real.context.notice ? { kind: real.context.notice.kind, message: real.context.notice.message } : null).toEqual(m.notice ? NOTICE[m.notice] : null);
          if (expected.matches('saving')) expect(calls.map((c) => c.input)).toEqual([AT[m.position]]);
        },
      },
    });
    actor.stop();
  });
});
