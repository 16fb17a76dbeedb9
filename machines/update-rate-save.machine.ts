import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CreateTaskRequest, PendingConfig } from '../src/contract/downlink-task.schema';
import { TASK_MESSAGES } from '../src/domain/remote-tasks';

/**
 * The update-rate save flow (sensor-setup 2, 7, 8; DESIGN.md pendingConfig): SAVE with queued
 * SensorConfig or ExtendedConfig tasks asks 'Update changes' or 'Close' first; confirming cancels
 * those tasks, then the save PUTs pendingConfig and creates the new tasks. 'Sensor updated.' or
 * 'Something went wrong'. The pending-changes banner's Cancel asks 'Yes, cancel changes' / 'No,
 * keep changes'; yes DELETEs pendingConfig (the server cancels its queued tasks).
 */

export interface SaveRequest {
  pending: PendingConfig;
  tasks: CreateTaskRequest[];
}

export interface UpdateRateContext {
  request: SaveRequest | null;
  /** Queued SensorConfig / ExtendedConfig task ids when SAVE was pressed. */
  pendingTaskIds: string[];
  notice: { kind: 'success' | 'error'; text: string } | null;
}

export type UpdateRateEvent =
  | { type: 'SAVE'; request: SaveRequest; pendingTaskIds: string[] }
  | { type: 'UPDATE_CHANGES' }
  | { type: 'CLOSE' }
  | { type: 'DISCARD' }
  | { type: 'YES' }
  | { type: 'NO' };

export const updateRateSaveMachine = setup({
  types: { context: {} as UpdateRateContext, events: {} as UpdateRateEvent },
  actors: {
    /** PATCH each task to Canceled. */
    cancelTasks: fromPromise<unknown, string[]>(async () => {
      throw new Error('cancelTasks not provided');
    }),
    /** PUT .../pending-config, then POST each task. */
    save: fromPromise<unknown, SaveRequest>(async () => {
      throw new Error('save not provided');
    }),
    /** DELETE .../pending-config */
    discard: fromPromise<unknown, void>(async () => {
      throw new Error('discard not provided');
    }),
  },
  actions: {
    failed: assign({ notice: { kind: 'error' as const, text: TASK_MESSAGES.somethingWrong } }),
  },
  guards: {
    hasPendingTasks: ({ event }) => event.type === 'SAVE' && event.pendingTaskIds.length > 0,
  },
}).createMachine({
  id: 'updateRateSave',
  context: { request: null, pendingTaskIds: [], notice: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SAVE: [
          { guard: 'hasPendingTasks', target: 'confirming', actions: assign(({ event }) => ({ request: event.request, pendingTaskIds: event.pendingTaskIds, notice: null })) },
          { target: 'saving', actions: assign(({ event }) => ({ request: event.request, pendingTaskIds: [], notice: null })) },
        ],
        DISCARD: { target: 'confirmingDiscard', actions: assign({ notice: null }) },
      },
    },
    confirming: { on: { UPDATE_CHANGES: 'cancelingOld', CLOSE: 'idle' } },
    cancelingOld: {
      invoke: {
        id: 'cancelTasks',
        src: 'cancelTasks',
        input: ({ context }) => context.pendingTaskIds,
        onDone: 'saving',
        onError: { target: 'idle', actions: 'failed' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.request!,
        onDone: { target: 'idle', actions: assign({ notice: { kind: 'success', text: TASK_MESSAGES.sensorUpdated } }) },
        onError: { target: 'idle', actions: 'failed' },
      },
    },
    confirmingDiscard: { on: { YES: 'discarding', NO: 'idle' } },
    discarding: {
      invoke: {
        id: 'discard',
        src: 'discard',
        onDone: 'idle',
        onError: { target: 'idle', actions: 'failed' },
      },
    },
  },
});

export type UpdateRateSaveSnapshot = SnapshotFrom<typeof updateRateSaveMachine>;
export const isBusy = (s: UpdateRateSaveSnapshot) => s.matches('cancelingOld') || s.matches('saving') || s.matches('discarding');
