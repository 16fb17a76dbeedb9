import { fromCallback, fromPromise } from 'xstate';
import { z } from 'zod';
import type { LiveSubscribe } from '../../contract/live.schema';
import type { Organisation } from '../../contract/organisation.schema';
import type { Sensor } from '../../contract/sensor.schema';
import { clockOffset } from '../../domain/clock-offset';
import { api } from '../../shared/api';
import { chartMachine, type ChartEvent, type ExportInput, type LoadInput, type ViewInput } from '../../../machines/chart.machine';
import type { DataWorkerApi, LoadProgress, LoadResult, SeriesTarget, ViewResult } from '../../../workers/data-api';

const serverTimeSchema = z.object({ millis: z.number() });

export interface ChartEdgeDeps {
  worker: Pick<DataWorkerApi, 'load' | 'view' | 'exportCsv' | 'append'>;
  liveSubscribe: LiveSubscribe;
  /** The sensor as it is now (its conversion and display info may be edited while the chart is open). */
  sensor: () => Sensor;
  org: () => Organisation;
  download: (file: { filename: string; csv: string }) => void;
}

/** The chart machine with its real edges: the data worker, the gateway's server time and live data. */
export function provideChart(deps: ChartEdgeDeps) {
  const shape = () => {
    const s = deps.sensor();
    return { offsetMm: s.displayInfo.offsetMeasurement ?? null, conversion: s.conversionConfigs[0] ?? null, unit: deps.org().measurementUnit };
  };
  const view = (input: ViewInput) => {
    const s = deps.sensor();
    return deps.worker.view({ orgId: s.organisationId, sensorId: s.id, ...input, ...shape() });
  };
  return chartMachine.provide({
    actors: {
      serverTime: fromPromise<number>(async () => {
        const sentAt = Date.now();
        const { millis } = await api.get('/tools/server-time', { schema: serverTimeSchema });
        const receivedAt = Date.now();
        return receivedAt + clockOffset(millis, sentAt, receivedAt);
      }),
      load: fromPromise<LoadResult, LoadInput>(({ input }) =>
        deps.worker.load({ ...input.target, startTime: input.startTime, endTime: input.endTime, refresh: input.refresh }, (p: LoadProgress) => input.onProgress(p)),
      ),
      view: fromPromise<ViewResult, ViewInput>(({ input }) => view(input)),
      heldView: fromPromise<ViewResult, ViewInput>(({ input }) => view(input)),
      exportCsv: fromPromise<{ filename: string; csv: string }, ExportInput>(({ input }) => {
        const s = deps.sensor();
        const org = deps.org();
        return deps.worker.exportCsv({ orgId: org.id, sensorId: s.id, ...input, ...shape(), timeZone: org.locale.timezone, sensorName: s.name, serial: s.serial });
      }),
      liveSubscription: fromCallback<ChartEvent, { target: SeriesTarget }>(({ input, sendBack }) =>
        deps.liveSubscribe(
          input.target,
          (msg) => {
            if (msg.sensorId !== input.target.sensorId || msg.measurements.length === 0) return;
            deps.worker.append(input.target, msg.measurements.map((m) => ({ time: m.time, rawDistance: m.rawDistance })));
            let last = 0;
            for (const m of msg.measurements) if (m.time > last) last = m.time;
            sendBack({ type: 'LIVE_DATA', lastTime: last });
          },
          () => sendBack({ type: 'LIVE_FAILED' }),
        ),
      ),
    },
    actions: { saveFile: (_, file) => deps.download(file) },
  });
}

/** Saves a CSV the way a browser download does. */
export function downloadCsv(file: { filename: string; csv: string }) {
  const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
