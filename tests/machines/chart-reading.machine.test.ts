import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { assign, setup, type SnapshotFrom } from 'xstate';
import { stepCursor, type ChartEvent, type ChartInput } from '../../machines/chart.machine';
import type { ViewResult } from '../../workers/data-api';
import { flush, startChart, type ChartHarness } from './chart-harness';
import { coveringPaths, essentialPaths, documentedPaths } from './model-kit';

const NOW = Date.UTC(2026, 2, 15, 0, 0);
const input: ChartInput = { target: { orgId: 'org-1', sensorId: 'sensor-1' }, timeZone: 'Pacific/Auckland', liveModeFeature: false, modes: ['level'], widthPx: 800, now: () => NOW };

// the drawn points: 30, two hours apart (a day is 12 points), levels 1.00 to 1.29
const N = 30;
const STEP_S = 7_200;
const T0 = NOW / 1000 - N * STEP_S;
const points: ViewResult = {
  time: Float64Array.from({ length: N }, (_, i) => T0 + i * STEP_S),
  value: Float64Array.from({ length: N }, (_, i) => 1 + i / 100),
  min: 1,
  max: 1 + (N - 1) / 100,
  rawPoints: N * 120,
};
const PER_DAY = 86_400 / STEP_S;

type ModelEvent = ChartEvent | { type: 'LOADED' | 'VIEW_DONE' | 'VIEW_EMPTY' };

/**
 * Issue 16's reading modes, written from the issue (not from the machine): the chart is read drawn
 * or as a table of the drawn points, in the organisation's zone or the viewer's, and with a
 * keyboard cursor that steps through the drawn points: arrows one point, Home/End the ends,
 * Page Down/Up a day. The cursor exists only while points are drawn; a redraw (zoom, resize)
 * replaces them and the cursor goes off. The data side is reduced to what the cursor depends on.
 */
const readingModel = setup({
  types: { context: {} as { at: number | null }, events: {} as ModelEvent },
  guards: {
    toTable: ({ event }) => event.type === 'SHOW' && event.display === 'table',
    toChart: ({ event }) => event.type === 'SHOW' && event.display === 'chart',
    toViewer: ({ event }) => event.type === 'USE_ZONE' && event.zone === 'viewer',
    toOrganisation: ({ event }) => event.type === 'USE_ZONE' && event.zone === 'organisation',
  },
  actions: {
    off: assign({ at: null }),
    move: assign({
      at: ({ context, event }) => {
        if (event.type !== 'CURSOR') return context.at;
        const last = N - 1;
        if (context.at === null) return ['prev', 'last', 'dayPrev'].includes(event.step) ? last : 0;
        const at = context.at;
        return { next: Math.min(last, at + 1), prev: Math.max(0, at - 1), first: 0, last, dayNext: Math.min(last, at + PER_DAY), dayPrev: Math.max(0, at - PER_DAY) }[event.step];
      },
    }),
  },
}).createMachine({
  id: 'reading',
  type: 'parallel',
  context: { at: null },
  states: {
    data: {
      initial: 'loading',
      states: {
        loading: { on: { LOADED: 'drawing' } },
        drawing: { entry: 'off', on: { VIEW_DONE: 'ready', VIEW_EMPTY: 'empty' } },
        ready: {
          on: {
            CURSOR: { actions: 'move' },
            CURSOR_OFF: { actions: 'off' },
            ZOOM: 'drawing',
            RESIZE: 'drawing',
          },
        },
        empty: { on: { REFRESH: 'loading' } },
      },
    },
    display: {
      initial: 'chart',
      states: { chart: { on: { SHOW: { guard: 'toTable', target: 'table' } } }, table: { on: { SHOW: { guard: 'toChart', target: 'chart' } } } },
    },
    zone: {
      initial: 'organisation',
      states: {
        organisation: { on: { USE_ZONE: { guard: 'toViewer', target: 'viewer' } } },
        viewer: { on: { USE_ZONE: { guard: 'toOrganisation', target: 'organisation' } } },
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof readingModel>;

const steps = ['next', 'prev', 'first', 'last', 'dayNext', 'dayPrev'] as const;
const userEvents: ModelEvent[] = [
  ...steps.map((step) => ({ type: 'CURSOR' as const, step })),
  { type: 'CURSOR_OFF' },
  { type: 'SHOW', display: 'table' },
  { type: 'SHOW', display: 'chart' },
  { type: 'USE_ZONE', zone: 'viewer' },
  { type: 'USE_ZONE', zone: 'organisation' },
  { type: 'ZOOM', window: { start: NOW - 20 * 3_600_000, end: NOW - 10 * 3_600_000 } },
  { type: 'RESIZE', widthPx: 640 },
];
// cursor events are offered in every state (a key pressed while loading must do nothing)
const model = createTestModel(readingModel, { events: userEvents });

async function drive(h: ChartHarness, event: ModelEvent) {
  switch (event.type) {
    case 'LOADED':
      h.serverTime?.resolve(NOW);
      await flush();
      h.load!.resolve({ points: N * 120, firstTime: NOW - 3 * 86_400_000, lastTime: NOW });
      break;
    case 'VIEW_DONE': h.view!.resolve(points); break;
    case 'VIEW_EMPTY': h.view!.resolve({ ...points, time: new Float64Array(0), value: new Float64Array(0), rawPoints: 0 }); break;
    default: h.actor.send(event);
  }
  await flush();
}

function check(h: ChartHarness, expected: ModelSnap) {
  const got = h.actor.getSnapshot();
  const reading = (got.value as { reading: { display: string; zone: string; cursor: string } }).reading;
  expect(reading.display).toBe(expected.value.display);
  expect(reading.zone).toBe(expected.value.zone);
  expect(got.context.cursor, 'cursor index').toBe(expected.context.at);
  expect(reading.cursor).toBe(expected.context.at === null ? 'off' : 'on');
  const data = expected.value.data;
  if (data === 'ready') expect(got.matches({ data: { normal: 'ready' } })).toBe(true);
  if (data === 'drawing') expect(got.matches({ data: { normal: 'drawing' } })).toBe(true);
  if (data === 'empty') expect(got.matches({ data: { normal: 'empty' } })).toBe(true);
  if (data === 'loading') expect(got.matches({ data: 'clock' }) || got.matches({ data: { normal: 'loading' } })).toBe(true);
}

describe('chart reading modes against their model (issue 16): table, time zone, keyboard cursor', () => {
  // the shortest path to every model state, extended so that every event is taken from every state
  const paths = documentedPaths('chart-reading', essentialPaths(readingModel, coveringPaths(model)));

  it('the paths reach every state of the model and take every kind of event', () => {
    const values = new Set(paths.map((p) => JSON.stringify((p.state as ModelSnap).value)));
    for (const data of ['loading', 'drawing', 'ready', 'empty']) for (const display of ['chart', 'table']) for (const zone of ['organisation', 'viewer']) expect(values.has(JSON.stringify({ data, display, zone })), `${data}/${display}/${zone}`).toBe(true);
    const at = new Set(paths.map((p) => (p.state as ModelSnap).context.at));
    for (let i = 0; i < N; i++) expect(at.has(i), `cursor on point ${i}`).toBe(true);
    const taken = new Set(paths.flatMap((p) => p.steps.map((s) => `${s.event.type}${'step' in s.event ? `:${s.event.step}` : ''}`)));
    for (const e of ['LOADED', 'VIEW_DONE', 'VIEW_EMPTY', 'REFRESH', 'ZOOM', 'RESIZE', 'SHOW', 'USE_ZONE', 'CURSOR_OFF', ...steps.map((s) => `CURSOR:${s}`)]) expect(taken.has(e), e).toBe(true);
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = startChart(input);
    await flush();
    await path.test({
      events: Object.fromEntries(['LOADED', 'VIEW_DONE', 'VIEW_EMPTY', 'REFRESH', ...userEvents.map((e) => e.type)].map((t) => [t, (step: { event: ModelEvent }) => drive(h, step.event)])) as never,
      states: { '*': (state) => check(h, state as ModelSnap) },
    });
    h.actor.stop();
  });
});

describe('stepCursor', () => {
  const irregular = [0, 60, 3_600, 86_400, 86_460, 200_000];
  it('starts at the latest point for backward moves and End, at the first otherwise', () => {
    for (const s of ['prev', 'last', 'dayPrev'] as const) expect(stepCursor(irregular, null, s)).toBe(5);
    for (const s of ['next', 'first', 'dayNext'] as const) expect(stepCursor(irregular, null, s)).toBe(0);
  });
  it('steps a day to the first point at least a day on, or the last at least a day back', () => {
    expect(stepCursor(irregular, 0, 'dayNext')).toBe(3);
    expect(stepCursor(irregular, 1, 'dayNext')).toBe(4);
    expect(stepCursor(irregular, 4, 'dayNext')).toBe(5);
    expect(stepCursor(irregular, 5, 'dayPrev')).toBe(4);
    expect(stepCursor(irregular, 2, 'dayPrev')).toBe(0);
  });
  it('stops at the ends and has nothing to step through without points', () => {
    expect(stepCursor(irregular, 5, 'next')).toBe(5);
    expect(stepCursor(irregular, 0, 'prev')).toBe(0);
    expect(stepCursor([], null, 'next')).toBe(-1);
  });
});
