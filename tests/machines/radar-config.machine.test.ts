import { describe, expect, it } from 'vitest';
import { assign, createActor, setup, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { radarConfigMachine } from '../../machines/radar-config.machine';
import { TASK_MESSAGES } from '../../src/domain/remote-tasks';
import { FULL_RADAR_DEFAULTS } from '../../src/domain/task-params';
import type { FullRadarParams, RadarSettings } from '../../src/contract/downlink-task.schema';
import { controlledActors, coveringPaths, flush, machineCoverage, modelUncovered, documentedPaths } from './model-kit';

/**
 * The Radar Config section, written from sensor-setup 2 (radar: full radar configuration, site
 * admins), 3 (FullRadarConfig), 7 (the radar form sends type FullRadarConfig), 8 ('Something went
 * wrong' on failure; success 'Radar settings downlink created.'), 9 (one RadarConfig-kind task
 * queued at most) and the issue: the section shows the sensor's current radar settings.
 * It opens loading; a failed load shows the task-load failure text with Retry. Loaded, it shows
 * the settings (or that none are known) and, unless a full radar task is already queued, lets the
 * admin send the form. A send that succeeds says so and reloads (the task is now queued, so a
 * second send is refused until it runs); one that fails says 'Something went wrong' and keeps
 * the form. A task change (live, or the poll) reloads while nothing is being sent.
 */
interface M {
  settings: 'none' | 'known';
  queued: boolean;
  notice: string | null;
  error: string | null;
  loaded: boolean;
}
const model = setup({ types: { context: {} as M } }).createMachine({
  id: 'radar',
  context: { settings: 'none', queued: false, notice: null, error: null, loaded: false },
  initial: 'loading',
  states: {
    loading: {
      on: {
        LOADED_EMPTY: { target: 'shown', actions: assign({ settings: 'none', queued: false, loaded: true }) },
        LOADED_QUEUED: { target: 'shown', actions: assign({ settings: 'known', queued: true, loaded: true }) },
        LOAD_FAILS: 'failed',
      },
    },
    failed: { on: { RETRY: 'loading', TASK_CHANGED: 'loading' } },
    shown: {
      on: {
        SEND: { guard: ({ context }) => !context.queued, target: 'sending', actions: assign({ notice: null, error: null }) },
        TASK_CHANGED: 'loading',
      },
    },
    sending: {
      on: {
        SENT: { target: 'loading', actions: assign({ notice: TASK_MESSAGES.radarCreated, queued: true }) },
        SEND_FAILS: { target: 'shown', actions: assign({ error: TASK_MESSAGES.somethingWrong }) },
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof model>;
type ModelEvent = EventObject;
const events = ['LOADED_EMPTY', 'LOADED_QUEUED', 'LOAD_FAILS', 'RETRY', 'TASK_CHANGED', 'SEND', 'SENT', 'SEND_FAILS'].map((type) => ({ type }));

const KNOWN: RadarSettings = { settings: { ...FULL_RADAR_DEFAULTS, gain: 0.5, length: 3.3 }, source: 'task', taskId: 't-1', updatedAt: 1 };
const PARAMS: FullRadarParams = { ...FULL_RADAR_DEFAULTS, gain: 0.4, length: 3.3 };

function start(inspect: ReturnType<typeof machineCoverage>['inspect']) {
  const ctl = controlledActors(['load', 'create']);
  const actor = createActor(radarConfigMachine.provide({ actors: ctl.actors }), { inspect }).start();
  return { actor, ctl };
}

async function drive(h: ReturnType<typeof start>, e: ModelEvent) {
  const send = (x: unknown) => h.actor.send(x as never);
  switch (e.type) {
    case 'LOADED_EMPTY':
      h.ctl.take('load').resolve({ settings: null, queued: false });
      break;
    case 'LOADED_QUEUED':
      h.ctl.take('load').resolve({ settings: KNOWN, queued: true });
      break;
    case 'LOAD_FAILS':
      h.ctl.take('load').reject({ status: 0, code: 'NETWORK_ERROR' });
      break;
    case 'SENT':
      h.ctl.take('create').resolve({ task: {} });
      break;
    case 'SEND_FAILS':
      h.ctl.take('create').reject({ status: 500, code: 'INTERNAL_ERROR' });
      break;
    case 'SEND':
      send({ type: 'SUBMIT', params: PARAMS });
      break;
    case 'TASK_CHANGED':
      send({ type: 'REFRESH' });
      break;
    default:
      send({ type: e.type });
  }
  await flush();
}

function check(h: ReturnType<typeof start>, expected: ModelSnap) {
  const s = h.actor.getSnapshot();
  const where = String(expected.value);
  const c = expected.context;
  expect(s.matches('loading'), `${where}: loading`).toBe(where === 'loading');
  expect(s.matches('loadFailed'), `${where}: load failure with Retry`).toBe(where === 'failed');
  expect(s.matches('ready'), `${where}: settings and form shown`).toBe(where === 'shown');
  expect(s.matches('submitting'), `${where}: sending`).toBe(where === 'sending');
  expect(s.context.loaded, `${where}: loaded once`).toBe(c.loaded);
  if (c.loaded) {
    expect(s.context.settings, `${where}: current settings`).toEqual(c.settings === 'known' ? KNOWN : null);
    expect(s.context.queued, `${where}: a full radar task queued`).toBe(c.queued);
  }
  expect(s.context.notice, `${where}: notice`).toBe(c.notice);
  expect(s.context.error, `${where}: error`).toBe(c.error);
  const pending = h.ctl.calls.map((x) => x.src);
  expect(pending, `${where}: calls in flight`).toEqual(where === 'loading' ? ['load'] : where === 'sending' ? ['create'] : []);
  if (where === 'sending') expect(h.ctl.calls[0].input, 'the form is sent as is').toEqual(PARAMS);
}

describe('radar config machine against its model (sensor-setup 2, 3, 7, 8, 9)', () => {
  const paths = documentedPaths('radar-config', coveringPaths(createTestModel(model, { events })));
  const coverage = machineCoverage(radarConfigMachine);

  it('the paths reach every state and take every transition of the model', () => {
    expect(modelUncovered(model, paths)).toEqual({ states: [], transitions: [] });
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = start(coverage.inspect);
    await path.test({
      events: Object.fromEntries(events.map((e) => [e.type, ({ event }: { event: EventObject }) => drive(h, event)])) as never,
      states: { '*': (s) => check(h, s as ModelSnap) },
    });
    h.actor.stop();
  });

  // runs after the paths (tests run in order): they went through all of the real machine
  it('the paths exercised every state and transition of the real machine', () => {
    expect(coverage.uncovered()).toEqual({ states: [], transitions: [] });
  });
});
