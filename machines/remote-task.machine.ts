import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { TaskStatus } from '../src/contract/downlink-task.schema';
import { TASK_MESSAGES } from '../src/domain/remote-tasks';

/**
 * One remote task as the Remote Tasks screen sees it (sensor-setup 2, 4, 8): queued (Created, with
 * its estimate and an enabled Cancel), executing (Dispatched: 'Executing...', Cancel disabled),
 * then completed as success, failed (Error), timedOut or canceled. Cancel asks Yes/No first; the
 * status moves on live messages (STATUS) whatever the screen is doing, and a cancel that lost the
 * race to the device's uplink lands where the server says the task is.
 */

export interface RemoteTaskContext {
  status: TaskStatus;
  notice: { kind: 'success' | 'error'; text: string } | null;
}

export type RemoteTaskEvent = { type: 'STATUS'; status: TaskStatus } | { type: 'CANCEL' } | { type: 'YES' } | { type: 'NO' };

export const remoteTaskMachine = setup({
  types: { context: {} as RemoteTaskContext, events: {} as RemoteTaskEvent, input: {} as { status: TaskStatus } },
  actors: {
    /** PATCH .../downlink-tasks/{taskId} { status: 'Canceled' } */
    cancel: fromPromise<unknown, void>(async () => {
      throw new Error('cancel not provided');
    }),
  },
  guards: {
    isCreated: ({ context }) => context.status === 'Created',
    stillCreated: ({ event }) => event.type === 'STATUS' && event.status === 'Created',
    isDispatched: ({ context }) => context.status === 'Dispatched',
    isSuccess: ({ context }) => context.status === 'Success',
    isError: ({ context }) => context.status === 'Error',
    isTimeout: ({ context }) => context.status === 'Timeout',
    isCanceled: ({ context }) => context.status === 'Canceled',
  },
  actions: {
    record: assign({ status: ({ event }) => (event.type === 'STATUS' ? event.status : 'Created') }),
  },
}).createMachine({
  id: 'remoteTask',
  context: ({ input }) => ({ status: input.status, notice: null }),
  initial: 'routing',
  states: {
    // where the task's status says it is (start, a status message, a settled cancel)
    routing: {
      always: [
        { guard: 'isCreated', target: 'queued' },
        { guard: 'isDispatched', target: 'executing' },
        { guard: 'isSuccess', target: 'completed.success' },
        { guard: 'isError', target: 'completed.failed' },
        { guard: 'isTimeout', target: 'completed.timedOut' },
        { guard: 'isCanceled', target: 'completed.canceled' },
        { target: 'completed.unknown' },
      ],
    },
    queued: {
      initial: 'idle',
      // a repeat of Created keeps an open dialog open
      on: { STATUS: [{ guard: 'stillCreated', actions: 'record' }, { target: 'routing', actions: 'record' }] },
      states: {
        idle: { on: { CANCEL: 'confirming' } },
        confirming: { on: { YES: '#remoteTask.canceling', NO: 'idle' } },
      },
    },
    executing: { on: { STATUS: { target: 'routing', actions: 'record' } } },
    canceling: {
      // a status arriving meanwhile is kept; the call's answer decides
      on: { STATUS: { actions: 'record' } },
      invoke: {
        id: 'cancel',
        src: 'cancel',
        onDone: { target: 'completed.canceled', actions: assign({ status: 'Canceled', notice: { kind: 'success', text: TASK_MESSAGES.canceled } }) },
        // a new object each time, so a second failure is announced again
        onError: { target: 'routing', actions: assign({ notice: () => ({ kind: 'error' as const, text: TASK_MESSAGES.cancelFailed }) }) },
      },
    },
    completed: {
      initial: 'unknown',
      states: { success: {}, failed: {}, timedOut: {}, canceled: {}, unknown: {} },
    },
  },
});

export type RemoteTaskSnapshot = SnapshotFrom<typeof remoteTaskMachine>;

/** What the row shows in a state: Cancel button shown / enabled, and whether the Yes/No dialog is open. */
export function rowControls(s: RemoteTaskSnapshot) {
  const queued = s.matches('queued');
  const busy = s.matches('canceling');
  return {
    cancelShown: queued || s.matches('executing') || busy,
    cancelEnabled: s.matches({ queued: 'idle' }),
    confirmOpen: s.matches({ queued: 'confirming' }),
    canceling: busy,
  };
}
