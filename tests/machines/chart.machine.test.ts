import { describe, expect, it } from 'vitest';
import { createTestModel } from 'xstate/graph';
import { assign, or, setup, stateIn, type SnapshotFrom } from 'xstate';
import { CHART_MESSAGES, LIVE_WINDOW_MS, type ChartEvent, type ChartInput } from '../../machines/chart.machine';
import type { DataMode } from '../../workers/data-api';
import { presetRange } from '../../src/domain/date-presets';
import { flush, startChart, viewOf, type ChartHarness } from './chart-harness';
import { documentedPaths, essentialPaths } from './model-kit';


const NOW = Date.UTC(2026, 2, 15, 0, 0); // 13:00 in Auckland
const TZ = 'Pacific/Auckland';
const target = { orgId: 'org-1', sensorId: 'sensor-1' };
const input: ChartInput = { target, timeZone: TZ, liveModeFeature: true, modes: ['flow', 'level'], widthPx: 800, now: () => NOW };

type ModelEvent =
  | ChartEvent
  | { type: 'SERVER_TIME' | 'SERVER_TIME_FAILED' | 'LOAD_DONE' | 'LOAD_FAILED' | 'VIEW_DONE' | 'VIEW_EMPTY' | 'VIEW_FAILED' | 'HELD_DRAWN' | 'HELD_EMPTY' | 'HELD_FAILED' | 'EXPORT_DONE' | 'EXPORT_FAILED' | 'COOLDOWN_OVER' };

/**
 * The chart as the spec describes it, written independently of the machine under test: a flow
 * sensor (Flow Rate first, Water Level offered) in an organisation with the liveMode feature.
 * Events in capitals without a user behind them are what the worker, the gateway or time do.
 */
const chartModel = setup({
  types: { context: {} as { mode: DataMode; zoomed: boolean; yZoom: boolean; yZoomBeforeLive: boolean; heldShown: boolean; progressShown: boolean }, events: {} as ModelEvent },
  guards: {
    otherOfferedMode: ({ context, event }) => event.type === 'SET_DATA_MODE' && event.mode !== context.mode && input.modes.includes(event.mode),
    toLive: ({ context, event }) => event.type === 'SET_VIEW_MODE' && event.mode === 'live' && input.liveModeFeature && context.mode === 'level',
    toNormal: ({ event }) => event.type === 'SET_VIEW_MODE' && event.mode === 'normal',
    zoomed: ({ context }) => context.zoomed,
    chunkLanded: ({ event }) => event.type === 'PROGRESS' && event.progress.chunksDone > 0,
  },
  actions: { unzoom: assign({ zoomed: false }), progressShown: assign({ progressShown: true }) },
}).createMachine({
  id: 'model',
  type: 'parallel',
  context: { mode: input.modes[0], zoomed: false, yZoom: false, yZoomBeforeLive: false, heldShown: false, progressShown: false },
  on: { TOGGLE_Y_ZOOM: { actions: assign({ yZoom: ({ context }) => !context.yZoom }) } },
  states: {
    data: {
      initial: 'clock',
      states: {
        clock: { on: { SERVER_TIME: 'normal', SERVER_TIME_FAILED: 'normal' } },
        normal: {
          initial: 'loading',
          on: {
            REFRESH: { target: '.loading', actions: 'unzoom' },
            SET_PRESET: { target: '.loading', actions: 'unzoom' },
            SET_RANGE: { target: '.loading', actions: 'unzoom' },
            SET_DATA_MODE: { guard: 'otherOfferedMode', target: '.loading', actions: ['unzoom', assign({ mode: ({ event }) => (event as { mode: DataMode }).mode })] },
            SET_VIEW_MODE: { guard: 'toLive', target: 'live' },
          },
          states: {
            // issue 34: a range is drawn as its chunks land (what is held so far, one drawing at a time)
            loading: {
              initial: 'fetching',
              entry: assign({ heldShown: false, progressShown: false }),
              on: { LOAD_DONE: 'drawing', LOAD_FAILED: 'failed' },
              states: {
                // a report before any chunk landed shows the progress, and nothing to draw yet
                fetching: { on: { PROGRESS: [{ guard: 'chunkLanded', target: 'drawingHeld', actions: 'progressShown' }, { actions: 'progressShown' }] } },
                drawingHeld: { on: { PROGRESS: {}, HELD_DRAWN: { target: 'showingHeld', actions: assign({ heldShown: true }) }, HELD_EMPTY: 'showingHeld', HELD_FAILED: 'fetching' } },
                showingHeld: { on: { PROGRESS: 'drawingHeld' } },
              },
            },
            drawing: { on: { VIEW_DONE: 'ready', VIEW_EMPTY: 'empty', VIEW_FAILED: 'failed' }, exit: assign({ heldShown: false }) },
            ready: {
              on: {
                ZOOM: { target: 'drawing', actions: assign({ zoomed: true }) },
                RESET_ZOOM: { guard: 'zoomed', target: 'drawing', actions: 'unzoom' },
                RESIZE: 'drawing',
              },
            },
            empty: {},
            failed: { entry: assign({ heldShown: false }) },
          },
        },
        live: {
          initial: 'loading',
          // issue 36 item 11: live mode starts with the Y-axis zoomed to the window's data; the toggle stays
          // (normal mode's own choice comes back when live ends)
          entry: ['unzoom', assign({ yZoomBeforeLive: ({ context }) => context.yZoom, yZoom: true })],
          exit: assign({ yZoom: ({ context }) => context.yZoomBeforeLive }),
          on: {
            REFRESH: '.loading',
            SET_VIEW_MODE: { guard: 'toNormal', target: 'normal' },
            SET_DATA_MODE: { guard: 'otherOfferedMode', target: 'normal', actions: assign({ mode: ({ event }) => (event as { mode: DataMode }).mode }) },
            SET_PRESET: 'normal',
            SET_RANGE: 'normal',
          },
          states: {
            loading: { entry: assign({ heldShown: false }), on: { PROGRESS: {}, LOAD_DONE: 'streaming', LOAD_FAILED: 'failed' } },
            streaming: {
              initial: 'drawing',
              on: { LIVE_DATA: '.drawing', LIVE_FAILED: 'failed' },
              states: {
                drawing: { on: { VIEW_DONE: 'ready', VIEW_EMPTY: 'waiting', VIEW_FAILED: '#model.data.live.failed' } },
                ready: { on: { RESIZE: 'drawing' } },
                waiting: {},
              },
            },
            failed: {},
          },
        },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: { on: { EXPORT: { guard: or([stateIn({ data: { normal: 'ready' } }), stateIn({ data: { live: { streaming: 'ready' } } })]), target: 'exporting' } } },
        exporting: { on: { EXPORT_DONE: 'cooldown', EXPORT_FAILED: 'cooldown' } },
        cooldown: { on: { COOLDOWN_OVER: 'idle' } },
      },
    },
  },
});
type ModelSnap = SnapshotFrom<typeof chartModel>;

// payloads for the user's events; the model offers each event where it is handled
const userEvents: ChartEvent[] = [
  ...(['today', 'last3Days', 'last30Days', 'thisMonth', 'lastMonth'] as const).map((preset) => ({ type: 'SET_PRESET' as const, preset })),
  { type: 'SET_RANGE', range: { start: NOW - 10 * 86_400_000, end: NOW - 9 * 86_400_000 } },
  { type: 'SET_DATA_MODE', mode: 'level' },
  { type: 'SET_DATA_MODE', mode: 'flow' },
  { type: 'SET_DATA_MODE', mode: 'volume' }, // not offered by this sensor: ignored
  { type: 'SET_VIEW_MODE', mode: 'live' },
  { type: 'SET_VIEW_MODE', mode: 'normal' },
  { type: 'ZOOM', window: { start: NOW - 7_200_000, end: NOW - 7_000_000 } },
  { type: 'RESIZE', widthPx: 640 },
  { type: 'EXPORT', format: 'ISO8601 UTC' },
  { type: 'LIVE_DATA', lastTime: NOW + 30_000 },
  { type: 'PROGRESS', progress: { chunksDone: 1, chunksTotal: 2, points: 4320 } },
  { type: 'PROGRESS', progress: { chunksDone: 0, chunksTotal: 2, points: 0 } }, // a fetch starting: nothing held yet
];

const model = createTestModel(chartModel, { events: userEvents as ModelEvent[] });

/** Makes the real machine take the model's step: resolve what it waits for, or send what the user did. */
async function drive(h: ChartHarness, event: ModelEvent) {
  switch (event.type) {
    case 'SERVER_TIME': h.serverTime!.resolve(NOW + 60_000); break;
    case 'SERVER_TIME_FAILED': h.serverTime!.reject(new Error('Failed to fetch')); break;
    case 'LOAD_DONE': h.load!.resolve({ points: 4320, firstTime: NOW - 3 * 86_400_000, lastTime: NOW }); break;
    case 'LOAD_FAILED': h.load!.reject(new Error('Failed to fetch')); break;
    case 'PROGRESS': h.load!.input.onProgress(event.progress); break;
    case 'VIEW_DONE': h.view!.resolve(viewOf(50)); break;
    case 'VIEW_EMPTY': h.view!.resolve(viewOf(0)); break;
    case 'VIEW_FAILED': h.view!.reject(new Error('worker crashed')); break;
    case 'HELD_DRAWN': h.heldView!.resolve(viewOf(20)); break;
    case 'HELD_EMPTY': h.heldView!.resolve(viewOf(0)); break;
    case 'HELD_FAILED': h.heldView!.reject(new Error('worker crashed')); break;
    case 'EXPORT_DONE': h.exportCsv!.resolve({ filename: 'Weir_3C4D5E6F.csv', csv: 'time,flow\n' }); break;
    case 'EXPORT_FAILED': h.exportCsv!.reject(new Error('worker crashed')); break;
    case 'COOLDOWN_OVER': h.clock.increment(2_000); break;
    case 'LIVE_DATA': case 'LIVE_FAILED': h.live!.sendBack(event); break;
    default: h.actor.send(event);
  }
  await flush();
}

const LOAD_OR_DRAW = /Loading data failed|could not be drawn/;

/** What a user sees and what the edges were asked for, in the state the model says we are in. */
function check(h: ChartHarness, expected: ModelSnap) {
  const got = h.actor.getSnapshot();
  // the reading modes (table, zone, keyboard cursor) have their own model: chart-reading.machine.test.ts
  const { data, export: exp } = got.value as Record<string, unknown>;
  expect({ data, export: exp }).toEqual(expected.value);
  const c = got.context;
  expect(c.dataMode).toBe(expected.context.mode);
  expect(c.zoom !== null, 'zoomed').toBe(expected.context.zoomed);
  expect(c.yZoom, 'Y-axis zoom').toBe(expected.context.yZoom);
  expect(c.viewMode).toBe(expected.matches({ data: 'live' }) ? 'live' : 'normal');
  expect(h.live?.active ?? false, 'subscribed only while streaming').toBe(expected.matches({ data: { live: 'streaming' } }));
  if (expected.matches({ data: { normal: 'loading' } })) expect(h.load!.input).toMatchObject({ target, startTime: c.range.start, endTime: c.range.end });
  if (expected.matches({ data: { live: 'loading' } })) expect(h.load!.input).toMatchObject({ target, startTime: c.liveEnd - LIVE_WINDOW_MS, endTime: c.liveEnd });
  if (expected.matches({ data: { normal: 'loading' } })) expect(c.progress !== null, 'progress shown').toBe(expected.context.progressShown);
  if (expected.matches({ data: { normal: { loading: 'drawingHeld' } } })) expect(h.heldView!.input).toEqual({ startTime: c.range.start, endTime: c.range.end, widthPx: c.widthPx, mode: c.dataMode });
  // what the load holds so far is drawn over the whole picked range, until the load's own drawing replaces it
  expect(c.held, 'a held drawing').toBe(expected.context.heldShown);
  if (expected.context.heldShown) {
    expect(c.view!.time.length).toBe(20);
    expect(c.shown).toEqual(c.range);
    expect(c.progress, 'the progress stays while the range arrives').not.toBeNull();
  }
  if (expected.matches({ data: { normal: 'drawing' } })) expect(h.view!.input).toEqual({ startTime: (c.zoom ?? c.range).start, endTime: (c.zoom ?? c.range).end, widthPx: c.widthPx, mode: c.dataMode });
  if (expected.matches({ data: { normal: 'ready' } }) || expected.matches({ data: { live: { streaming: 'ready' } } })) {
    expect(c.view!.time.length).toBeGreaterThan(0);
    expect(c.message).toBeNull();
    expect(c.progress, 'the progress bar gives way to the drawn chart').toBeNull();
  }
  if (expected.matches({ data: { normal: 'empty' } })) expect(c.message).toBe(CHART_MESSAGES.noData);
  if (expected.matches({ data: { live: { streaming: 'waiting' } } })) expect(c.message).toBe(CHART_MESSAGES.liveWaiting);
  if (expected.matches({ data: { normal: 'failed' } })) expect(c.message).toMatch(LOAD_OR_DRAW);
  if (expected.matches({ data: { live: 'failed' } })) expect(c.message).toMatch(/Loading data failed|could not be drawn|Live updates stopped/);
  if (expected.matches({ export: 'exporting' })) expect(h.exportCsv!.input).toMatchObject({ format: 'ISO8601 UTC' });
  if (c.zoom) expect(c.zoom.end - c.zoom.start).toBeGreaterThanOrEqual(1_800_000);
  if (c.clockOffset) expect(c.clockOffset).toBe(60_000);
}

describe('chart machine against its model (monitoring-client 2.6, 4, 7, 9): shortest paths to every state, transition and context change', () => {
  const paths = documentedPaths('chart', essentialPaths(chartModel, model.getShortestPaths()));

  it('the paths reach every state and take every transition of the model', () => {
    const leaves = chartModel.root.states.data.states;
    const stateIds = new Set(paths.flatMap((p) => p.steps.flatMap((s) => (s.state as ModelSnap)._nodes.map((n) => n.id))));
    for (const node of [...Object.values(leaves), ...Object.values(leaves.normal.states), ...Object.values(leaves.normal.states.loading.states), ...Object.values(leaves.live.states), ...Object.values(leaves.live.states.streaming.states)]) {
      expect(stateIds.has(node.id), node.id).toBe(true);
    }
    const taken = new Set<string>(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
    for (const e of ['SERVER_TIME', 'SERVER_TIME_FAILED', 'LOAD_DONE', 'LOAD_FAILED', 'VIEW_DONE', 'VIEW_EMPTY', 'VIEW_FAILED', 'HELD_DRAWN', 'HELD_EMPTY', 'HELD_FAILED', 'PROGRESS', 'EXPORT_DONE', 'EXPORT_FAILED', 'COOLDOWN_OVER', 'REFRESH', 'SET_PRESET', 'SET_RANGE', 'SET_DATA_MODE', 'SET_VIEW_MODE', 'ZOOM', 'RESET_ZOOM', 'TOGGLE_Y_ZOOM', 'RESIZE', 'EXPORT', 'LIVE_DATA', 'LIVE_FAILED']) {
      expect(taken.has(e), e).toBe(true);
    }
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, path) => {
    const h = startChart(input);
    await flush();
    await path.test({
      events: Object.fromEntries(
        ['SERVER_TIME', 'SERVER_TIME_FAILED', 'LOAD_DONE', 'LOAD_FAILED', 'PROGRESS', 'VIEW_DONE', 'VIEW_EMPTY', 'VIEW_FAILED', 'HELD_DRAWN', 'HELD_EMPTY', 'HELD_FAILED', 'EXPORT_DONE', 'EXPORT_FAILED', 'COOLDOWN_OVER',
          ...userEvents.map((e) => e.type), 'REFRESH', 'RESET_ZOOM', 'TOGGLE_Y_ZOOM', 'LIVE_FAILED'].map((t) => [t, (step: { event: ModelEvent }) => drive(h, step.event)]),
      ) as never,
      states: { '*': (state) => check(h, state as ModelSnap) },
    });
    h.actor.stop();
  });
});

describe('chart machine rules', () => {
  async function ready(over: Partial<ChartInput> = {}, serverMillis = NOW) {
    const h = startChart({ ...input, ...over });
    h.serverTime!.resolve(serverMillis);
    await flush();
    h.load!.resolve({ points: 10, firstTime: 0, lastTime: 0 });
    await flush();
    h.view!.resolve(viewOf(10));
    await flush();
    return h;
  }

  it("keeps a fetching load's progress through its drawing, and drops it once drawn", async () => {
    const h = startChart(input);
    h.serverTime!.resolve(NOW);
    await flush();
    h.load!.input.onProgress({ chunksDone: 0, chunksTotal: 2, points: 0 });
    await flush();
    h.load!.resolve({ points: 10, firstTime: 0, lastTime: 0 });
    await flush();
    expect(h.actor.getSnapshot().matches({ data: { normal: 'drawing' } })).toBe(true);
    expect(h.actor.getSnapshot().context.progress).toEqual({ chunksDone: 0, chunksTotal: 2, points: 0 });
    h.view!.resolve(viewOf(10));
    await flush();
    expect(h.actor.getSnapshot().matches({ data: { normal: 'ready' } })).toBe(true);
    expect(h.actor.getSnapshot().context.progress).toBeNull();
    h.actor.stop();
  });

  it('starts on Last 3 Days in the organisation zone', async () => {
    const h = await ready();
    expect(h.actor.getSnapshot().context.preset).toBe('last3Days');
    expect(h.loads[0]).toMatchObject({ startTime: presetRange('last3Days', NOW, TZ).start, endTime: NOW });
  });

  it('Refresh asks the server again (refresh: true); other loads may use what the worker holds', async () => {
    const h = await ready();
    expect(h.loads[0].refresh).toBe(false);
    h.actor.send({ type: 'REFRESH' });
    await flush();
    expect(h.loads[1]).toMatchObject({ refresh: true, endTime: NOW });
    h.actor.send({ type: 'SET_PRESET', preset: 'today' });
    await flush();
    expect(h.loads[2].refresh).toBe(false);
  });

  it('valid URL start and end give Custom; invalid ones fall back to the default preset', async () => {
    const h = await ready({ query: { start: String(NOW - 86_400_000), end: String(NOW - 3_600_000) } });
    expect(h.actor.getSnapshot().context).toMatchObject({ preset: 'custom', range: { start: NOW - 86_400_000, end: NOW - 3_600_000 } });
    const bad = await ready({ query: { start: String(NOW + 3_600_000), end: String(NOW + 7_200_000) } });
    expect(bad.actor.getSnapshot().context.preset).toBe('last3Days');
  });

  it('corrects the clock by the server time offset, ignoring offsets under 5 s', async () => {
    const ahead = await ready({}, NOW + 3_600_000);
    expect(ahead.loads[0].endTime).toBe(NOW + 3_600_000);
    const close = await ready({}, NOW + 4_999);
    expect(close.loads[0].endTime).toBe(NOW);
  });

  it('zoom never goes below 30 minutes and stays inside the range; reset returns to the range', async () => {
    const h = await ready();
    h.actor.send({ type: 'ZOOM', window: { start: NOW - 60_000, end: NOW } });
    await flush();
    expect(h.views.at(-1)).toMatchObject({ startTime: NOW - 1_800_000, endTime: NOW });
    expect(h.loads).toHaveLength(1); // zoom re-downsamples, it does not refetch
    h.view!.resolve(viewOf(30));
    await flush();
    h.actor.send({ type: 'RESET_ZOOM' });
    await flush();
    const r = h.actor.getSnapshot().context.range;
    expect(h.views.at(-1)).toMatchObject({ startTime: r.start, endTime: r.end });
  });

  it('offers Live only with the liveMode feature and only for Water Level', async () => {
    const noFeature = await ready({ liveModeFeature: false, modes: ['level'] });
    noFeature.actor.send({ type: 'SET_VIEW_MODE', mode: 'live' });
    expect(noFeature.actor.getSnapshot().context.viewMode).toBe('normal');
    const flow = await ready({ modes: ['flow', 'level'] });
    flow.actor.send({ type: 'SET_VIEW_MODE', mode: 'live' });
    expect(flow.actor.getSnapshot().context.viewMode).toBe('normal');
  });

  it('Live loads the last hour, then subscribes; a data-mode change returns to Normal and refreshes', async () => {
    const h = await ready({ modes: ['level', 'flow'] });
    h.actor.send({ type: 'SET_VIEW_MODE', mode: 'live' });
    await flush();
    expect(h.loads.at(-1)).toMatchObject({ startTime: NOW - LIVE_WINDOW_MS, endTime: NOW });
    expect(h.live).toBeNull();
    h.load!.resolve({ points: 1, firstTime: NOW, lastTime: NOW });
    await flush();
    expect(h.live).toMatchObject({ target, active: true });
    h.actor.send({ type: 'SET_DATA_MODE', mode: 'flow' });
    await flush();
    expect(h.live!.active).toBe(false);
    expect(h.actor.getSnapshot().matches({ data: { normal: 'loading' } })).toBe(true);
    expect(h.loads).toHaveLength(3);
    expect(h.actor.getSnapshot().context.dataMode).toBe('flow');
  });

  it('a live subscription that cannot start shows the live failure message', async () => {
    const h = startChart(input, { liveThrows: true });
    h.serverTime!.resolve(NOW);
    await flush();
    h.actor.send({ type: 'SET_DATA_MODE', mode: 'level' });
    h.load!.resolve({ points: 1, firstTime: NOW, lastTime: NOW });
    await flush();
    h.view!.resolve(viewOf(1));
    await flush();
    h.actor.send({ type: 'SET_VIEW_MODE', mode: 'live' });
    h.load!.resolve({ points: 1, firstTime: NOW, lastTime: NOW });
    await flush();
    expect(h.actor.getSnapshot().matches({ data: { live: 'failed' } })).toBe(true);
    expect(h.actor.getSnapshot().context.message).toBe(CHART_MESSAGES.liveFailed);
  });

  it('Export downloads the CSV of the picked range and stays disabled for 2 s after the click', async () => {
    const h = await ready();
    h.actor.send({ type: 'EXPORT', format: 'DD/MM/YYYY HH:mm:ss' });
    expect(h.actor.getSnapshot().matches({ export: 'exporting' })).toBe(true);
    expect(h.exportCsv!.input).toMatchObject({ startTime: h.actor.getSnapshot().context.range.start, format: 'DD/MM/YYYY HH:mm:ss' });
    h.exportCsv!.resolve({ filename: 'a.csv', csv: 'x' });
    await flush();
    expect(h.saved).toEqual([{ filename: 'a.csv', csv: 'x' }]);
    h.actor.send({ type: 'EXPORT', format: 'Default' });
    expect(h.actor.getSnapshot().matches({ export: 'cooldown' })).toBe(true);
    h.clock.increment(1_999);
    expect(h.actor.getSnapshot().matches({ export: 'cooldown' })).toBe(true);
    h.clock.increment(1);
    expect(h.actor.getSnapshot().matches({ export: 'idle' })).toBe(true);
  });
});
