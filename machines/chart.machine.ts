import { and, assign, fromCallback, fromPromise, not, or, setup, stateIn } from 'xstate';
import type { DataMode, LoadProgress, LoadResult, SeriesTarget, ViewResult } from '../workers/data-api';
import { DEFAULT_PRESET, parseDateQuery, presetRange, type DatePreset, type TimeRange } from '../src/domain/date-presets';

export type ViewMode = 'normal' | 'live';
export type ExportFormat = 'Default' | 'DD/MM/YYYY HH:mm:ss' | 'ISO8601 local' | 'ISO8601 UTC';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['Default', 'DD/MM/YYYY HH:mm:ss', 'ISO8601 local', 'ISO8601 UTC'];

/** Minimum chart zoom (monitoring-client 9). */
export const MIN_ZOOM_MS = 1_800_000;
/** Live mode shows the last hour (sensor-setup 9). */
export const LIVE_WINDOW_MS = 3_600_000;
/** A server clock offset under 5 s is ignored (monitoring-client 7, 9). */
export const SERVER_TIME_MIN_OFFSET_MS = 5_000;
/** The Export button is disabled for 2 s after a click. */
export const EXPORT_COOLDOWN_MS = 2_000;

/** What the chart says; the spec gives only the load failure text, the rest are ours. */
export const CHART_MESSAGES = {
  loadFailed: 'Loading data failed. Please check your internet connection and try again.',
  noData: 'No measurements in this date range.',
  viewFailed: 'The chart could not be drawn. Press Refresh to try again.',
  liveWaiting: 'No measurements in the last hour yet. New ones appear here as the sensor sends them.',
  liveFailed: 'Live updates stopped. Please check your internet connection and press Refresh.',
  exportFailed: 'The export failed. Please try again.',
} as const;

/**
 * A drag-selected window, widened about its centre to at least 30 minutes and kept inside the
 * range; null when it covers the whole range (no zoom).
 */
export function zoomWindow(range: TimeRange, wanted: TimeRange): TimeRange | null {
  const rangeSpan = range.end - range.start;
  if (rangeSpan <= MIN_ZOOM_MS) return null;
  let start = Math.min(wanted.start, wanted.end);
  let end = Math.max(wanted.start, wanted.end);
  if (end - start < MIN_ZOOM_MS) {
    const mid = (start + end) / 2;
    start = Math.round(mid - MIN_ZOOM_MS / 2);
    end = start + MIN_ZOOM_MS;
  }
  if (start < range.start) [start, end] = [range.start, Math.min(range.end, range.start + (end - start))];
  if (end > range.end) [start, end] = [Math.max(range.start, range.end - (end - start)), range.end];
  return start <= range.start && end >= range.end ? null : { start, end };
}

/** A day, the Page Up / Page Down step of the keyboard cursor (issue 16). */
export const CURSOR_DAY_MS = 86_400_000;
/** The keyboard cursor's moves: arrows, Home/End, Page Up/Down (a day). */
export type CursorStep = 'next' | 'prev' | 'first' | 'last' | 'dayNext' | 'dayPrev';
/** How the chart is read: drawn, or as a table of the drawn points. */
export type ChartDisplay = 'chart' | 'table';
/** Whose clock the times are in: the organisation's zone, or the viewer's own. */
export type ZoneChoice = 'organisation' | 'viewer';

/**
 * Where the keyboard cursor goes among the drawn points (x in epoch seconds, ascending). From no
 * cursor, a backward move or End starts at the latest point, anything else at the first; a day
 * step goes to the first point at least a day later (the last point when none is), or the last
 * point at least a day earlier (the first when none is).
 */
export function stepCursor(time: ArrayLike<number>, at: number | null, step: CursorStep): number {
  const n = time.length;
  if (n === 0) return -1;
  const last = n - 1;
  if (at === null || at < 0 || at > last) return step === 'prev' || step === 'last' || step === 'dayPrev' ? last : 0;
  switch (step) {
    case 'first': return 0;
    case 'last': return last;
    case 'next': return Math.min(last, at + 1);
    case 'prev': return Math.max(0, at - 1);
    case 'dayNext': {
      const want = time[at]! + CURSOR_DAY_MS / 1000;
      for (let i = at + 1; i < n; i++) if (time[i]! >= want) return i;
      return last;
    }
    case 'dayPrev': {
      const want = time[at]! - CURSOR_DAY_MS / 1000;
      for (let i = at - 1; i >= 0; i--) if (time[i]! <= want) return i;
      return 0;
    }
  }
}

export interface ChartInput {
  target: SeriesTarget;
  /** Organisation time zone: presets' day and month boundaries. */
  timeZone: string;
  /** The organisation's liveMode feature. */
  liveModeFeature: boolean;
  /** Data modes the sensor's first conversion config supports; the first is the default. */
  modes: DataMode[];
  widthPx: number;
  /** URL query start and end (ms); valid values give a Custom range. */
  query?: { start?: string | null; end?: string | null };
  /** Local clock; the server-time offset is added to it. */
  now?: () => number;
}

export interface ChartContext {
  target: SeriesTarget;
  timeZone: string;
  liveModeFeature: boolean;
  modes: DataMode[];
  dataMode: DataMode;
  viewMode: ViewMode;
  preset: DatePreset;
  range: TimeRange;
  zoom: TimeRange | null;
  yZoom: boolean;
  /** The Y-axis zoom chosen in normal mode, given back when live mode ends (live starts zoomed to its hour). */
  normalYZoom: boolean;
  widthPx: number;
  query: { start?: string | null; end?: string | null };
  localNow: () => number;
  clockOffset: number;
  progress: LoadProgress | null;
  /** The drawn data and the window it covers (typed arrays straight from the worker). */
  view: ViewResult | null;
  /** The view is what a load still running holds so far (drawn as its chunks land), not its whole range. */
  held: boolean;
  shown: TimeRange | null;
  liveEnd: number;
  message: string | null;
  exportError: string | null;
  exportClickedAt: number;
  refreshNext: boolean;
  /** The keyboard cursor: an index into view (null while off). */
  cursor: number | null;
}

export type ChartEvent =
  | { type: 'SET_PRESET'; preset: Exclude<DatePreset, 'custom'> }
  | { type: 'SET_RANGE'; range: TimeRange }
  | { type: 'SET_DATA_MODE'; mode: DataMode }
  | { type: 'SET_VIEW_MODE'; mode: ViewMode }
  | { type: 'REFRESH' }
  | { type: 'ZOOM'; window: TimeRange }
  | { type: 'RESET_ZOOM' }
  | { type: 'TOGGLE_Y_ZOOM' }
  | { type: 'RESIZE'; widthPx: number }
  | { type: 'EXPORT'; format: ExportFormat }
  | { type: 'PROGRESS'; progress: LoadProgress }
  | { type: 'LIVE_DATA'; lastTime: number }
  | { type: 'LIVE_FAILED' }
  | { type: 'SHOW'; display: ChartDisplay }
  | { type: 'USE_ZONE'; zone: ZoneChoice }
  | { type: 'CURSOR'; step: CursorStep }
  | { type: 'CURSOR_OFF' };

export interface LoadInput {
  target: SeriesTarget;
  startTime: number;
  endTime: number;
  /** Refresh asks the server again for chunks the worker already holds. */
  refresh: boolean;
  onProgress: (p: LoadProgress) => void;
}
export interface ViewInput {
  startTime: number;
  endTime: number;
  widthPx: number;
  mode: DataMode;
}
export interface ExportInput {
  startTime: number;
  endTime: number;
  mode: DataMode;
  format: ExportFormat;
}

const now = (c: ChartContext) => c.localNow() + c.clockOffset;
const visible = (c: ChartContext): TimeRange => c.zoom ?? c.range;
const liveWindow = (c: ChartContext): TimeRange => ({ start: c.liveEnd - LIVE_WINDOW_MS, end: c.liveEnd });
const notProvided = (name: string) => () => Promise.reject(new Error(`chart machine: the ${name} actor is supplied with .provide()`));

/**
 * The chart (monitoring-client 2.6, 4, 7, 9): range and presets, data mode, Normal and Live view
 * modes, zoom, Y-axis zoom, export. Every side effect is a named actor supplied at the edge:
 * serverTime, load (worker fetch), view (worker M4 downsample), exportCsv (worker), liveSubscription.
 */
export const chartMachine = setup({
  types: { context: {} as ChartContext, events: {} as ChartEvent, input: {} as ChartInput },
  actors: {
    serverTime: fromPromise<number>(notProvided('serverTime')),
    load: fromPromise<LoadResult, LoadInput>(notProvided('load')),
    view: fromPromise<ViewResult, ViewInput>(notProvided('view')),
    /** The same worker call as view, over what a running load holds so far. */
    heldView: fromPromise<ViewResult, ViewInput>(notProvided('heldView')),
    exportCsv: fromPromise<{ filename: string; csv: string }, ExportInput>(notProvided('exportCsv')),
    liveSubscription: fromCallback<ChartEvent, { target: SeriesTarget }>(() => {
      throw new Error('chart machine: the liveSubscription actor is supplied with .provide()');
    }),
  },
  guards: {
    canGoLive: ({ context }) => context.liveModeFeature && context.dataMode === 'level',
    isOtherMode: ({ context, event }) => event.type === 'SET_DATA_MODE' && event.mode !== context.dataMode && context.modes.includes(event.mode),
    isZoomed: ({ context }) => context.zoom !== null,
    hasPoints: ({ event }) => 'output' in event && (event.output as ViewResult).time.length > 0,
    /** A progress report after a chunk landed, or with chunks held from before: there is something to draw. */
    somethingHeld: ({ event }) => event.type === 'PROGRESS' && event.progress.chunksDone > 0,
    /** Points are drawn and the data is not being replaced: the cursor has something to step through. */
    pointsDrawn: or([stateIn('#normalReady'), stateIn('#liveReady')]),
  },
  actions: {
    /** Saves the CSV the worker made (a download in the browser). */
    saveFile: (_, _file: { filename: string; csv: string }) => {},
    applyClock: assign({
      clockOffset: ({ context, event }) => {
        const offset = 'output' in event ? (event.output as number) - context.localNow() : 0;
        return Math.abs(offset) < SERVER_TIME_MIN_OFFSET_MS ? 0 : offset;
      },
    }),
    applyInitialRange: assign(({ context }) => {
      const q = parseDateQuery(context.query.start, context.query.end, now(context), context.timeZone);
      return q ? { preset: 'custom' as const, range: q } : { preset: DEFAULT_PRESET, range: presetRange(DEFAULT_PRESET, now(context), context.timeZone) };
    }),
    /** Refresh brings a preset up to now; a custom range stays as picked. */
    refreshRange: assign({
      range: ({ context }) => (context.preset === 'custom' ? context.range : presetRange(context.preset, now(context), context.timeZone)),
      zoom: null,
    }),
    startLoad: assign({ progress: null, message: null, held: false }),
    setProgress: assign({ progress: ({ event }) => (event.type === 'PROGRESS' ? event.progress : null) }),
    loadStarted: assign({ refreshNext: false }),
    setLiveEnd: assign({ liveEnd: ({ context }) => now(context) }),
  },
  delays: {
    exportCooldown: ({ context }) => Math.max(0, EXPORT_COOLDOWN_MS - (now(context) - context.exportClickedAt)),
  },
}).createMachine({
  id: 'chart',
  type: 'parallel',
  context: ({ input }) => ({
    target: input.target,
    timeZone: input.timeZone,
    liveModeFeature: input.liveModeFeature,
    modes: input.modes.length ? input.modes : ['level'],
    dataMode: input.modes[0] ?? 'level',
    viewMode: 'normal',
    preset: DEFAULT_PRESET,
    range: { start: 0, end: 0 },
    zoom: null,
    yZoom: false,
    normalYZoom: false,
    widthPx: input.widthPx,
    query: input.query ?? {},
    localNow: input.now ?? Date.now,
    clockOffset: 0,
    progress: null,
    view: null,
    held: false,
    shown: null,
    liveEnd: 0,
    message: null,
    exportError: null,
    exportClickedAt: 0,
    refreshNext: false,
    cursor: null,
  }),
  on: {
    TOGGLE_Y_ZOOM: { actions: assign({ yZoom: ({ context }) => !context.yZoom }) },
    RESIZE: { actions: assign({ widthPx: ({ event }) => event.widthPx }) },
  },
  states: {
    data: {
      initial: 'clock',
      states: {
        clock: {
          invoke: {
            id: 'serverTime',
            src: 'serverTime',
            onDone: { target: 'normal', actions: ['applyClock', 'applyInitialRange'] },
            onError: { target: 'normal', actions: 'applyInitialRange' },
          },
        },
        normal: {
          id: 'normal',
          initial: 'loading',
          entry: assign({ viewMode: 'normal' }),
          on: {
            REFRESH: { target: '.loading', actions: ['refreshRange', assign({ refreshNext: true })] },
            SET_PRESET: {
              target: '.loading',
              actions: assign(({ context, event }) => ({ preset: event.preset, range: presetRange(event.preset, now(context), context.timeZone), zoom: null })),
            },
            SET_RANGE: { target: '.loading', actions: assign({ preset: 'custom', range: ({ event }) => event.range, zoom: null }) },
            SET_DATA_MODE: { guard: 'isOtherMode', target: '.loading', actions: assign({ dataMode: ({ event }) => event.mode, zoom: null }) },
            SET_VIEW_MODE: { guard: and(['canGoLive', ({ event }) => event.mode === 'live']), target: '#live' },
          },
          states: {
            // A year is 25 chunks: each report after a chunk landed draws what is held so far, over the
            // picked range (the axis fixed to it, missing chunks left as gaps), one drawing at a time;
            // the progress indicator stays until the load's own drawing replaces it.
            loading: {
              entry: 'startLoad',
              exit: 'loadStarted',
              initial: 'fetching',
              invoke: {
                id: 'load',
                src: 'load',
                input: ({ context, self }) => ({
                  target: context.target,
                  startTime: context.range.start,
                  endTime: context.range.end,
                  refresh: context.refreshNext,
                  onProgress: (progress: LoadProgress) => self.send({ type: 'PROGRESS', progress }),
                }),
                onDone: 'drawing',
                onError: { target: 'failed', actions: assign({ message: CHART_MESSAGES.loadFailed }) },
              },
              states: {
                fetching: {
                  on: { PROGRESS: [{ guard: 'somethingHeld', target: 'drawingHeld', actions: 'setProgress' }, { actions: 'setProgress' }] },
                },
                drawingHeld: {
                  on: { PROGRESS: { actions: 'setProgress' } },
                  invoke: {
                    id: 'heldView',
                    src: 'heldView',
                    input: ({ context }) => ({ startTime: context.range.start, endTime: context.range.end, widthPx: context.widthPx, mode: context.dataMode }),
                    onDone: [
                      { guard: 'hasPoints', target: 'showingHeld', actions: assign({ view: ({ event }) => event.output, shown: ({ context }) => context.range, held: true }) },
                      { target: 'showingHeld' },
                    ],
                    // the load's own drawing follows: a failed early drawing only waits for the next chunk
                    onError: 'fetching',
                  },
                },
                showingHeld: {
                  on: { PROGRESS: { target: 'drawingHeld', actions: 'setProgress' } },
                },
              },
            },
            drawing: {
              invoke: {
                id: 'view',
                src: 'view',
                input: ({ context }) => ({ startTime: visible(context).start, endTime: visible(context).end, widthPx: context.widthPx, mode: context.dataMode }),
                onDone: [
                  { guard: 'hasPoints', target: 'ready', actions: assign({ view: ({ event }) => event.output, held: false, shown: ({ context }) => visible(context), message: null, progress: null }) },
                  { target: 'empty', actions: assign({ view: null, held: false, shown: ({ context }) => visible(context), message: CHART_MESSAGES.noData, progress: null }) },
                ],
                onError: { target: 'failed', actions: assign({ message: CHART_MESSAGES.viewFailed }) },
              },
            },
            ready: {
              id: 'normalReady',
              on: {
                ZOOM: { target: 'drawing', actions: assign({ zoom: ({ context, event }) => zoomWindow(context.range, event.window) }) },
                RESET_ZOOM: { guard: 'isZoomed', target: 'drawing', actions: assign({ zoom: null }) },
                RESIZE: { target: 'drawing', actions: assign({ widthPx: ({ event }) => event.widthPx }) },
              },
            },
            empty: {},
            // what a failed load held so far is not shown as the range
            failed: { entry: assign({ held: false }) },
          },
        },
        live: {
          id: 'live',
          initial: 'loading',
          // an hour of a reservoir at full scale is a flat line: live starts with the Y-axis fitted to the
          // window's data (the toggle still there); leaving live gives back normal mode's choice
          entry: ['setLiveEnd', assign({ zoom: null, viewMode: 'live', normalYZoom: ({ context }) => context.yZoom, yZoom: true })],
          exit: assign({ yZoom: ({ context }) => context.normalYZoom }),
          on: {
            REFRESH: { target: '.loading', actions: ['setLiveEnd', assign({ refreshNext: true })] },
            SET_VIEW_MODE: { guard: ({ event }) => event.mode === 'normal', target: '#normal', actions: 'refreshRange' },
            SET_DATA_MODE: { guard: 'isOtherMode', target: '#normal', actions: [assign({ dataMode: ({ event }) => event.mode }), 'refreshRange'] },
            SET_PRESET: {
              target: '#normal',
              actions: assign(({ context, event }) => ({ preset: event.preset, range: presetRange(event.preset, now(context), context.timeZone) })),
            },
            SET_RANGE: { target: '#normal', actions: assign({ preset: 'custom', range: ({ event }) => event.range }) },
          },
          states: {
            loading: {
              entry: 'startLoad',
              exit: 'loadStarted',
              on: { PROGRESS: { actions: assign({ progress: ({ event }) => event.progress }) } },
              invoke: {
                id: 'load',
                src: 'load',
                input: ({ context, self }) => ({
                  target: context.target,
                  startTime: liveWindow(context).start,
                  endTime: liveWindow(context).end,
                  refresh: context.refreshNext,
                  onProgress: (progress: LoadProgress) => self.send({ type: 'PROGRESS', progress }),
                }),
                onDone: 'streaming',
                onError: { target: 'failed', actions: assign({ message: CHART_MESSAGES.loadFailed }) },
              },
            },
            streaming: {
              invoke: { id: 'liveSubscription', src: 'liveSubscription', input: ({ context }) => ({ target: context.target }), onError: { target: 'failed', actions: assign({ message: CHART_MESSAGES.liveFailed }) } },
              on: {
                LIVE_FAILED: { target: 'failed', actions: assign({ message: CHART_MESSAGES.liveFailed }) },
                LIVE_DATA: { target: '.drawing', actions: assign({ liveEnd: ({ context, event }) => Math.max(now(context), event.lastTime) }) },
              },
              initial: 'drawing',
              states: {
                drawing: {
                  invoke: {
                    id: 'view',
                    src: 'view',
                    input: ({ context }) => ({ startTime: liveWindow(context).start, endTime: liveWindow(context).end, widthPx: context.widthPx, mode: context.dataMode }),
                    onDone: [
                      { guard: 'hasPoints', target: 'ready', actions: assign({ view: ({ event }) => event.output, held: false, shown: ({ context }) => liveWindow(context), message: null, progress: null }) },
                      { target: 'waiting', actions: assign({ view: null, shown: ({ context }) => liveWindow(context), message: CHART_MESSAGES.liveWaiting, progress: null }) },
                    ],
                    onError: { target: '#live.failed', actions: assign({ message: CHART_MESSAGES.viewFailed }) },
                  },
                },
                ready: { id: 'liveReady', on: { RESIZE: { target: 'drawing', actions: assign({ widthPx: ({ event }) => event.widthPx }) } } },
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
        idle: {
          on: {
            EXPORT: {
              guard: or([stateIn('#normalReady'), stateIn('#liveReady')]),
              target: 'exporting',
              actions: assign({ exportClickedAt: ({ context }) => now(context), exportError: null }),
            },
          },
        },
        exporting: {
          invoke: {
            id: 'exportCsv',
            src: 'exportCsv',
            input: ({ context, event }) => {
              // the picked range at full resolution (not the zoom); in Live the last hour
              const w = context.viewMode === 'live' ? liveWindow(context) : context.range;
              return { startTime: w.start, endTime: w.end, mode: context.dataMode, format: event.type === 'EXPORT' ? event.format : 'Default' };
            },
            onDone: { target: 'cooldown', actions: { type: 'saveFile', params: ({ event }) => event.output } },
            onError: { target: 'cooldown', actions: assign({ exportError: CHART_MESSAGES.exportFailed }) },
          },
        },
        // the Export button stays disabled for 2 s after a click (issue 5)
        cooldown: { after: { exportCooldown: 'idle' } },
      },
    },
    // How the chart is read (issue 16): drawn or as a table, in whose time zone, and the keyboard
    // cursor that steps through the drawn points. A redraw replaces the points: the cursor goes off.
    reading: {
      type: 'parallel',
      states: {
        display: {
          initial: 'chart',
          states: {
            chart: { on: { SHOW: { guard: ({ event }) => event.display === 'table', target: 'table' } } },
            table: { on: { SHOW: { guard: ({ event }) => event.display === 'chart', target: 'chart' } } },
          },
        },
        zone: {
          initial: 'organisation',
          states: {
            organisation: { on: { USE_ZONE: { guard: ({ event }) => event.zone === 'viewer', target: 'viewer' } } },
            viewer: { on: { USE_ZONE: { guard: ({ event }) => event.zone === 'organisation', target: 'organisation' } } },
          },
        },
        cursor: {
          initial: 'off',
          states: {
            off: {
              entry: assign({ cursor: null }),
              on: {
                CURSOR: {
                  guard: 'pointsDrawn',
                  target: 'on',
                  actions: assign({ cursor: ({ context, event }) => stepCursor(context.view!.time, null, event.step) }),
                },
              },
            },
            on: {
              always: { guard: not('pointsDrawn'), target: 'off' },
              on: {
                CURSOR: { actions: assign({ cursor: ({ context, event }) => stepCursor(context.view!.time, context.cursor, event.step) }) },
                CURSOR_OFF: 'off',
              },
            },
          },
        },
      },
    },
  },
});
