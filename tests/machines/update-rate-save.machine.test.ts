import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { isBusy, updateRateSaveMachine, type SaveRequest } from '../../machines/update-rate-save.machine';
import { TASK_MESSAGES } from '../../src/domain/remote-tasks';
import { controlledActors, flush } from './auth-model-kit';
import { documentedPaths } from './model-kit';

/**
 * The update-rate save flow, written from sensor-setup 2, 7, 8 and DESIGN.md: with pending
 * SensorConfig or ExtendedConfig tasks a dialog asks 'Update changes' or 'Close'; confirming cancels
 * those tasks and then saves (pendingConfig PUT, new tasks created); without, it saves at once.
 * 'Sensor updated.' on success, 'Something went wrong' on any failure. The pending-changes banner's
 * Cancel asks 'Yes, cancel changes' / 'No, keep changes'; yes deletes pendingConfig.
 */
interface M {
  notice: string | null;
}
const wrong = { target: 'idle', actions: 'wrong' as const };
const saveModel = setup({
  types: { context: {} as M },
  actions: { wrong: assign({ notice: TASK_MESSAGES.somethingWrong }) },
}).createMachine({
  id: 'save',
  context: { notice: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SAVE_NOTHING_PENDING: { target: 'saving', actions: assign({ notice: null }) },
        SAVE_WITH_PENDING: { target: 'askUpdate', actions: assign({ notice: null }) },
        BANNER_CANCEL: { target: 'askDiscard', actions: assign({ notice: null }) },
      },
    },
    askUpdate: { on: { UPDATE_CHANGES: 'cancelingOld', CLOSE: 'idle' } },
    cancelingOld: { on: { CANCEL_OK: 'saving', CANCEL_FAIL: wrong } },
    saving: { on: { SAVE_OK: { target: 'idle', actions: assign({ notice: TASK_MESSAGES.sensorUpdated }) }, SAVE_FAIL: wrong } },
    askDiscard: { on: { YES: 'discarding', NO: 'idle' } },
    discarding: { on: { DISCARD_OK: 'idle', DISCARD_FAIL: wrong } },
  },
});
type ModelSnap = SnapshotFrom<typeof saveModel>;

const request: SaveRequest = {
  pending: { measurementInterval: 15, transmissionInterval: 60 },
  tasks: [{ type: 'SensorConfig', params: { measurementInterval: 15, measurementsPerTransmission: 4, maxGradient: 150, deltaCompressionEnabled: false } }],
};
const PENDING = ['t-1', 't-2'];
const SETTLE: Record<string, [string, boolean]> = {
  CANCEL_OK: ['cancelTasks', true],
  CANCEL_FAIL: ['cancelTasks', false],
  SAVE_OK: ['save', true],
  SAVE_FAIL: ['save', false],
  DISCARD_OK: ['discard', true],
  DISCARD_FAIL: ['discard', false],
};

function start() {
  const { actors, take, calls } = controlledActors(['cancelTasks', 'save', 'discard']);
  return { actor: createActor(updateRateSaveMachine.provide({ actors })).start(), take, calls };
}

async function drive(h: ReturnType<typeof start>, type: string) {
  const send = (e: unknown) => h.actor.send(e as never);
  if (type === 'SAVE_NOTHING_PENDING') send({ type: 'SAVE', request, pendingTaskIds: [] });
  else if (type === 'SAVE_WITH_PENDING') send({ type: 'SAVE', request, pendingTaskIds: PENDING });
  else if (type === 'BANNER_CANCEL') send({ type: 'DISCARD' });
  else if (SETTLE[type]) {
    const [src, ok] = SETTLE[type];
    const call = h.take(src);
    if (ok) call.resolve({});
    else call.reject({ status: 500, code: 'INTERNAL_ERROR' });
  } else send({ type });
  await flush();
}

function check(h: ReturnType<typeof start>, expected: ModelSnap) {
  const s = h.actor.getSnapshot();
  const where = String(expected.value);
  expect(s.matches('confirming'), `${where}: 'Update changes' dialog`).toBe(where === 'askUpdate');
  expect(s.matches('confirmingDiscard'), `${where}: 'Yes, cancel changes' dialog`).toBe(where === 'askDiscard');
  expect(isBusy(s), `${where}: busy (Save disabled)`).toBe(['cancelingOld', 'saving', 'discarding'].includes(where));
  expect(s.context.notice?.text ?? null).toBe(expected.context.notice);
  const pending = h.calls.map((c) => c.src);
  expect(pending).toEqual(where === 'cancelingOld' ? ['cancelTasks'] : where === 'saving' ? ['save'] : where === 'discarding' ? ['discard'] : []);
  if (where === 'cancelingOld') expect(h.calls[0].input).toEqual(PENDING);
  if (where === 'saving') expect(h.calls[0].input).toEqual(request);
}

describe('update-rate save machine against its model (sensor-setup 2, 7, 8): every shortest path', () => {
  const model = createTestModel(saveModel);
  const paths = documentedPaths('update-rate-save', model.getShortestPaths());
  const events = ['SAVE_NOTHING_PENDING', 'SAVE_WITH_PENDING', 'BANNER_CANCEL', 'UPDATE_CHANGES', 'CLOSE', 'YES', 'NO', ...Object.keys(SETTLE)];

  it('reaches every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => String((st.state as ModelSnap).value))));
    expect([...reached].sort()).toEqual(['askDiscard', 'askUpdate', 'cancelingOld', 'discarding', 'idle', 'saving']);
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = start();
    await path.test({
      events: Object.fromEntries(events.map((t) => [t, () => drive(h, t)])) as never,
      states: { '*': (state) => check(h, state as ModelSnap) },
    });
    h.actor.stop();
  });
});
