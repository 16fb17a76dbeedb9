import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FullRadarParams, RadarSettings } from '../src/contract/downlink-task.schema';
import { TASK_MESSAGES } from '../src/domain/remote-tasks';

/**
 * The Radar Config section's calls (sensor-setup 2, 3, 8; site admins): it loads the sensor's
 * current radar settings (GET .../radar-settings) with whether a FullRadarConfig task is already
 * queued (GET .../downlink-tasks); a failed load shows the load-failure text and offers Retry.
 * Ready, SUBMIT sends the full radar configuration as a FullRadarConfig task (POST
 * .../downlink-tasks) unless one is queued (limit 1): success says 'Radar settings downlink
 * created.' and reloads (the new task is now queued); failure says 'Something went wrong' and
 * keeps the form. REFRESH (a live task message, or the poll while live is down) reloads when idle.
 */

export interface RadarLoad {
  settings: RadarSettings | null;
  /** A FullRadarConfig task is Created or Dispatched: another cannot be created. */
  queued: boolean;
}

export interface RadarConfigContext {
  settings: RadarSettings | null;
  queued: boolean;
  /** The last submission's outcome, shown once. */
  notice: string | null;
  error: string | null;
  /** Bumped on each submission result, so the screen shows a repeated message again. */
  results: number;
  /** Loaded once: a reload keeps the screen (no spinner). */
  loaded: boolean;
}

export type RadarConfigEvent = { type: 'SUBMIT'; params: FullRadarParams } | { type: 'RETRY' } | { type: 'REFRESH' };

export const radarConfigMachine = setup({
  types: { context: {} as RadarConfigContext, events: {} as RadarConfigEvent },
  actors: {
    /** GET .../radar-settings and GET .../downlink-tasks */
    load: fromPromise<RadarLoad>(async () => {
      throw new Error('load not provided');
    }),
    /** POST .../downlink-tasks with type FullRadarConfig */
    create: fromPromise<unknown, FullRadarParams>(async () => {
      throw new Error('create not provided');
    }),
  },
  guards: {
    nothingQueued: ({ context }) => !context.queued,
  },
}).createMachine({
  id: 'radarConfig',
  context: { settings: null, queued: false, notice: null, error: null, results: 0, loaded: false },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign(({ event }) => ({ settings: event.output.settings, queued: event.output.queued, loaded: true })) },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: { on: { RETRY: 'loading', REFRESH: 'loading' } },
    ready: {
      on: {
        SUBMIT: { guard: 'nothingQueued', target: 'submitting', actions: assign({ notice: null, error: null }) },
        REFRESH: 'loading',
      },
    },
    submitting: {
      invoke: {
        id: 'create',
        src: 'create',
        input: ({ event }) => (event as Extract<RadarConfigEvent, { type: 'SUBMIT' }>).params,
        onDone: { target: 'loading', actions: assign({ notice: TASK_MESSAGES.radarCreated, queued: true, results: ({ context }) => context.results + 1 }) },
        onError: { target: 'ready', actions: assign({ error: TASK_MESSAGES.somethingWrong, results: ({ context }) => context.results + 1 }) },
      },
    },
  },
});

export type RadarConfigSnapshot = SnapshotFrom<typeof radarConfigMachine>;
