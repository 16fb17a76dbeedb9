import { createActor, fromCallback, fromPromise, SimulatedClock, type Actor } from 'xstate';
import { chartMachine, type ChartEvent, type ChartInput, type ExportInput, type LoadInput, type ViewInput } from '../../machines/chart.machine';
import type { LoadResult, ViewResult } from '../../workers/data-api';

interface Pending<I, O> {
  input: I;
  resolve(v: O): void;
  reject(e: Error): void;
}

function pending<I, O>(input: I, slot: (p: Pending<I, O>) => void): Promise<O> {
  return new Promise<O>((resolve, reject) => slot({ input, resolve, reject }));
}

/** Lets resolved promises and the actor's reactions run. */
export const flush = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * The chart machine running for real with fake edges: every actor call is recorded and left
 * pending until the test resolves it, as the worker, the gateway or MQTT would.
 */
export function startChart(input: ChartInput, opts: { liveThrows?: boolean } = {}) {
  const h = {
    serverTime: null as Pending<void, number> | null,
    load: null as Pending<LoadInput, LoadResult> | null,
    view: null as Pending<ViewInput, ViewResult> | null,
    heldView: null as Pending<ViewInput, ViewResult> | null,
    exportCsv: null as Pending<ExportInput, { filename: string; csv: string }> | null,
    live: null as { target: { orgId: string; sensorId: string }; sendBack: (e: ChartEvent) => void; active: boolean } | null,
    saved: [] as { filename: string; csv: string }[],
    loads: [] as LoadInput[],
    views: [] as ViewInput[],
    clock: new SimulatedClock(),
    actor: null as unknown as Actor<typeof chartMachine>,
  };
  const machine = chartMachine.provide({
    actors: {
      serverTime: fromPromise(() => pending<void, number>(undefined, (p) => (h.serverTime = p))),
      load: fromPromise<LoadResult, LoadInput>(({ input }) => {
        h.loads.push(input);
        return pending(input, (p) => (h.load = p));
      }),
      view: fromPromise<ViewResult, ViewInput>(({ input }) => {
        h.views.push(input);
        return pending(input, (p) => (h.view = p));
      }),
      heldView: fromPromise<ViewResult, ViewInput>(({ input }) => pending(input, (p) => (h.heldView = p))),
      exportCsv: fromPromise<{ filename: string; csv: string }, ExportInput>(({ input }) => pending(input, (p) => (h.exportCsv = p))),
      liveSubscription: fromCallback<ChartEvent, { target: { orgId: string; sensorId: string } }>(({ input, sendBack }) => {
        if (opts.liveThrows) throw new Error('MQTT is not connected');
        const sub = { target: input.target, sendBack, active: true };
        h.live = sub;
        return () => {
          sub.active = false;
        };
      }),
    },
    actions: { saveFile: (_, file) => void h.saved.push(file) },
  });
  h.actor = createActor(machine, { input, clock: h.clock });
  h.actor.start();
  return h;
}
export type ChartHarness = ReturnType<typeof startChart>;

export const viewOf = (n: number, t0 = 1_700_000_000): ViewResult => ({
  time: Float64Array.from({ length: n }, (_, i) => t0 + i * 60),
  value: Float64Array.from({ length: n }, (_, i) => 1 + i / 100),
  min: 1,
  max: 1 + (n - 1) / 100,
  rawPoints: n,
});
