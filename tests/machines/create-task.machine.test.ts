import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { createTaskMachine } from '../../machines/create-task.machine';
import { TASK_MESSAGES } from '../../src/domain/remote-tasks';
import type { CreateTaskRequest } from '../../src/contract/downlink-task.schema';
import { controlledActors, flush } from './auth-model-kit';
import { documentedPaths } from './model-kit';

/**
 * The Create Remote Task modal, written from sensor-setup 2 and 8: opening it with no type left
 * shows 'You cannot create more remote tasks. Please cancel some queued tasks.'; otherwise a
 * type select (first allowed type chosen, only allowed types selectable) and that type's form.
 * Submitting sends that type's task; success closes with 'Remote task created.'; failure stays
 * with 'The state of the sensor is changed, please reload the page.' (duplicate or conflict),
 * the UNCHANGED text, or 'Failed to submit the changes...'.
 */
interface M {
  type: string | null;
  error: string | null;
  notice: string | null;
}
const fail = (error: string) => ({ target: 'form', actions: { type: 'fail' as const, params: { error } } });
const modalModel = setup({
  types: { context: {} as M },
  actions: { fail: assign((_, p: { error: string }) => ({ error: p.error })) },
}).createMachine({
  id: 'modal',
  context: { type: null, error: null, notice: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_SOME: { target: 'form', actions: assign({ type: 'SensorConfig', error: null, notice: null }) },
        OPEN_NONE: { target: 'noneLeft', actions: assign({ type: null, error: null, notice: null }) },
      },
    },
    noneLeft: { on: { CLOSE: 'closed' } },
    form: {
      on: {
        CLOSE: 'closed',
        PICK_ALARM: { actions: assign({ type: 'AlarmConfig', error: null }) },
        PICK_FIRMWARE: {}, // not among the allowed types: nothing changes
        SUBMIT_SCHEDULE: { guard: ({ context }) => context.type === 'SensorConfig', target: 'sending' },
        SUBMIT_ALARM: { guard: ({ context }) => context.type === 'AlarmConfig', target: 'sending' },
      },
    },
    sending: {
      on: {
        OK: { target: 'closed', actions: assign({ notice: TASK_MESSAGES.created, error: null }) },
        FAIL_CONFLICT: fail(TASK_MESSAGES.stateChanged),
        FAIL_DUPLICATE: fail(TASK_MESSAGES.stateChanged),
        FAIL_UNCHANGED: fail(TASK_MESSAGES.unchanged),
        FAIL_NETWORK: fail(TASK_MESSAGES.createFailed),
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof modalModel>;

const schedule: CreateTaskRequest = { type: 'SensorConfig', params: { measurementInterval: 15, measurementsPerTransmission: 4, maxGradient: 150, deltaCompressionEnabled: false } };
const alarm: CreateTaskRequest = { type: 'AlarmConfig', params: { index: 0, value: { type: 'THRESHOLD_INCREASING', threshold: 1000, enabled: true }, original: null } };
const FAILURES: Record<string, unknown> = {
  FAIL_CONFLICT: { status: 409, code: 'ALARM_SETTINGS_CONFLICT' },
  FAIL_DUPLICATE: { status: 409, code: 'DUPLICATE_ALARM_CONFIG_TASK' },
  FAIL_UNCHANGED: { status: 400, code: 'UNCHANGED' },
  FAIL_NETWORK: { status: 0, code: 'NETWORK_ERROR' },
};

function start() {
  const { actors, take, calls } = controlledActors(['create']);
  const actor = createActor(createTaskMachine.provide({ actors })).start();
  return { actor, take, calls, sent: [] as CreateTaskRequest[] };
}

async function drive(h: ReturnType<typeof start>, type: string) {
  const send = (e: unknown) => h.actor.send(e as never);
  if (type === 'OPEN_SOME') send({ type: 'OPEN', allowed: ['SensorConfig', 'AlarmConfig'] });
  else if (type === 'OPEN_NONE') send({ type: 'OPEN', allowed: [] });
  else if (type === 'PICK_ALARM') send({ type: 'SELECT_TYPE', taskType: 'AlarmConfig' });
  else if (type === 'PICK_FIRMWARE') send({ type: 'SELECT_TYPE', taskType: 'FirmwareDownload' });
  else if (type === 'SUBMIT_SCHEDULE' || type === 'SUBMIT_ALARM') {
    const request = type === 'SUBMIT_SCHEDULE' ? schedule : alarm;
    send({ type: 'SUBMIT', request });
    const call = h.calls.find((c) => c.src === 'create');
    if (call) h.sent.push(call.input as CreateTaskRequest);
  } else if (type === 'OK') h.take('create').resolve({ task: {} });
  else if (FAILURES[type]) h.take('create').reject(FAILURES[type]);
  else send({ type });
  await flush();
}

function check(h: ReturnType<typeof start>, expected: ModelSnap) {
  const s = h.actor.getSnapshot();
  const where = String(expected.value);
  const open = !s.matches('closed');
  expect(open, `${where}: modal open`).toBe(where !== 'closed');
  expect(s.matches('noTypes'), `${where}: no-types message`).toBe(where === 'noneLeft');
  expect(s.matches('submitting'), `${where}: submitting`).toBe(where === 'sending');
  if (where === 'form' || where === 'sending') expect(s.context.taskType).toBe(expected.context.type);
  expect(s.context.formError).toBe(where === 'form' || where === 'sending' ? expected.context.error : s.context.formError);
  if (where === 'closed') expect(s.context.notice).toBe(expected.context.notice);
  if (where === 'sending') expect(h.sent.at(-1)?.type).toBe(expected.context.type);
  expect(h.calls.filter((c) => c.src === 'create')).toHaveLength(where === 'sending' ? 1 : 0);
}

describe('create remote task machine against its model (sensor-setup 2, 8): every shortest path', () => {
  const model = createTestModel(modalModel);
  const paths = documentedPaths('create-task', model.getShortestPaths());
  const events = ['OPEN_SOME', 'OPEN_NONE', 'CLOSE', 'PICK_ALARM', 'PICK_FIRMWARE', 'SUBMIT_SCHEDULE', 'SUBMIT_ALARM', 'OK', ...Object.keys(FAILURES)];

  it('reaches every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => String((st.state as ModelSnap).value))));
    expect([...reached].sort()).toEqual(['closed', 'form', 'noneLeft', 'sending']);
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
