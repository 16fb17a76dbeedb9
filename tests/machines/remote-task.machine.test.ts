import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { remoteTaskMachine, rowControls } from '../../machines/remote-task.machine';
import { statusDisplay, TASK_MESSAGES } from '../../src/domain/remote-tasks';
import { controlledActors, flush } from './auth-model-kit';
import { documentedPaths } from './model-kit';

/**
 * A remote task's row, written from sensor-setup 2, 4 and 8 (not from the machine): Created shows
 * an enabled Cancel that asks Yes/No; Dispatched shows 'Executing...' with Cancel disabled; the
 * device's report ends it as Success, Failed (Error) or Timeout; Yes cancels ('Remote task
 * canceled.' or 'Failed to cancel remote task...'). Live messages move the status at any time; a
 * cancel that loses to the device's uplink fails and the row shows the task executing.
 */
interface M {
  status: string;
  notice: string | null;
  dispatchedMeanwhile: boolean;
}
const live = (status: string) => ({ type: 'live' as const, params: { status } });
const rowModel = setup({
  types: { context: {} as M },
  actions: { live: assign((_, p: { status: string }) => ({ status: p.status })) },
}).createMachine({
  id: 'row',
  context: { status: 'Created', notice: null, dispatchedMeanwhile: false },
  initial: 'created',
  states: {
    created: { on: { CANCEL: 'confirm', LIVE_DISPATCHED: { target: 'dispatched', actions: live('Dispatched') }, LIVE_CANCELED: { target: 'canceled', actions: live('Canceled') } } },
    confirm: { on: { YES: 'cancelCall', NO: 'created', LIVE_DISPATCHED: { target: 'dispatched', actions: live('Dispatched') } } },
    cancelCall: {
      on: {
        LIVE_DISPATCHED: { actions: assign({ dispatchedMeanwhile: true, status: 'Dispatched' }) },
        CANCEL_OK: { target: 'canceled', actions: assign({ status: 'Canceled', notice: TASK_MESSAGES.canceled }) },
        CANCEL_FAIL: [
          { guard: ({ context }) => context.dispatchedMeanwhile, target: 'dispatched', actions: assign({ notice: TASK_MESSAGES.cancelFailed }) },
          { target: 'created', actions: assign({ notice: TASK_MESSAGES.cancelFailed }) },
        ],
      },
    },
    dispatched: {
      on: {
        LIVE_SUCCESS: { target: 'success', actions: live('Success') },
        LIVE_ERROR: { target: 'failed', actions: live('Error') },
        LIVE_TIMEOUT: { target: 'timedOut', actions: live('Timeout') },
      },
    },
    success: {},
    failed: {},
    timedOut: {},
    canceled: {},
  },
});
type ModelSnap = SnapshotFrom<typeof rowModel>;

const LABEL: Record<string, string> = { Created: 'Queued', Dispatched: 'Executing...', Success: 'Success', Error: 'Failed', Timeout: 'Timeout', Canceled: 'Canceled' };
const STATUS_OF: Record<string, string> = { LIVE_DISPATCHED: 'Dispatched', LIVE_SUCCESS: 'Success', LIVE_ERROR: 'Error', LIVE_TIMEOUT: 'Timeout', LIVE_CANCELED: 'Canceled' };

const model = createTestModel(rowModel);

function start() {
  const { actors, take, calls } = controlledActors(['cancel']);
  const actor = createActor(remoteTaskMachine.provide({ actors }), { input: { status: 'Created' } }).start();
  return { actor, take, calls };
}

async function drive(h: ReturnType<typeof start>, type: string) {
  if (STATUS_OF[type]) h.actor.send({ type: 'STATUS', status: STATUS_OF[type] as never });
  else if (type === 'CANCEL_OK') h.take('cancel').resolve({});
  else if (type === 'CANCEL_FAIL') h.take('cancel').reject({ status: 409, code: 'TASK_NOT_CANCELABLE' });
  else h.actor.send({ type } as never);
  await flush();
}

function check(h: ReturnType<typeof start>, expected: ModelSnap) {
  const s = h.actor.getSnapshot();
  const c = rowControls(s);
  const where = String(expected.value);
  expect(statusDisplay(s.context.status).label, where).toBe(LABEL[expected.context.status]);
  expect(c.cancelShown, `${where}: Cancel shown`).toBe(['created', 'confirm', 'cancelCall', 'dispatched'].includes(where));
  expect(c.cancelEnabled, `${where}: Cancel enabled`).toBe(where === 'created');
  expect(c.confirmOpen, `${where}: Yes/No open`).toBe(where === 'confirm');
  expect(c.canceling, `${where}: cancelling`).toBe(where === 'cancelCall');
  expect(s.context.notice?.text ?? null).toBe(expected.context.notice);
  expect(h.calls.filter((x) => x.src === 'cancel'), 'one cancel call while cancelling, none otherwise').toHaveLength(where === 'cancelCall' ? 1 : 0);
}

describe('remote task row machine against its model (sensor-setup 2, 4, 8): every shortest path', () => {
  const paths = documentedPaths('remote-task', model.getShortestPaths());
  const events = ['CANCEL', 'YES', 'NO', 'CANCEL_OK', 'CANCEL_FAIL', ...Object.keys(STATUS_OF)];

  it('reaches every state of the model', () => {
    const reached = new Set(paths.flatMap((p) => p.steps.map((st) => String((st.state as ModelSnap).value))));
    expect([...reached].sort()).toEqual(['cancelCall', 'canceled', 'confirm', 'created', 'dispatched', 'failed', 'success', 'timedOut']);
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = start();
    await path.test({
      events: Object.fromEntries(events.map((t) => [t, () => drive(h, t)])) as never,
      states: { '*': (state) => check(h, state as ModelSnap) },
    });
    h.actor.stop();
  });

  it('starts where the status says: every status, and N/A for any other', () => {
    for (const [status, label] of Object.entries(LABEL)) {
      const a = createActor(remoteTaskMachine, { input: { status: status as never } }).start();
      expect(statusDisplay(a.getSnapshot().context.status).label).toBe(label);
      expect(rowControls(a.getSnapshot()).cancelShown).toBe(status === 'Created' || status === 'Dispatched');
    }
    expect(statusDisplay('Unknown').label).toBe('N/A');
  });
});
