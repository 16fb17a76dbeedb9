import type { MeterReading, RouteImport, RouteTask, SpecialMeter } from '../../contract/route.schema';
import { createDataWorker, type DataWorkerClient } from '../../../workers/data-client';
import { gatewayEndpoint, getIdToken, heldIdToken } from '../../shared/api';
import { councilTextMime, type CouncilFileEncoding } from '../../domain/council-encoding';

let client: DataWorkerClient | undefined;
/** The data worker, started on the first file parsed or formatted. */
function dataWorker(): DataWorkerClient['api'] {
  client ??= createDataWorker({ apiBase: gatewayEndpoint(), getIdToken, heldIdToken });
  return client.api;
}

/**
 * The council files of the service-route screens, parsed and formatted off the main thread by
 * the tab's data worker (workers/route-import.ts, workers/special-route-import.ts and the WASM
 * core's council formatter). The screens see only this interface, so tests can stand in for it.
 */
export interface ParsedRouteFile {
  name: string;
  /** The file's import payload (one POST each), or the file's error. */
  payloads: RouteImport[];
  error: string | null;
  detail?: string;
}
export interface ParsedSpecialFile {
  name: string;
  meters: SpecialMeter[];
  /** Per-row messages ("The 'Trans Id' of row N is missing"), or one file-level "Invalid xlsx file {name}: ..." */
  errors: string[];
}
export interface FormattedFile {
  filename: string;
  /** The text (saved as UTF-8), or the bytes already encoded (the council results file). */
  body: string | Uint8Array;
  mime: string;
  /** Characters the council file's encoding could not hold, written as '?'. */
  replaced?: number;
}
export type ExportMode = 'all' | 'exceptions';

export interface RouteFiles {
  parseCouncilFiles(files: File[], timeZone: string, encoding: CouncilFileEncoding): Promise<ParsedRouteFile[]>;
  parseSpecialFiles(files: File[]): Promise<ParsedSpecialFile[]>;
  /** TCC_DCOL_{routeName}_{iteration_}IMP.TXT (all) or ..._IMP_exceptions.csv (exceptions only). */
  resultsFile(task: RouteTask, readings: MeterReading[], mode: ExportMode, timeZone: string, encoding: CouncilFileEncoding): Promise<FormattedFile>;
  /** WW_{route}_{iteration}.csv of the selected readings. */
  selectionCsv(task: RouteTask, readings: MeterReading[], timeZone: string): Promise<FormattedFile>;
  /** WW_ALL_READINGS_{DDMMYYYY_HHmmss}.csv or WW_EXCEPTIONS_... of several tasks. */
  tasksCsv(tasks: { task: RouteTask; readings: MeterReading[] }[], mode: ExportMode, timeZone: string): Promise<FormattedFile>;
}

const read = async (files: File[]) => Promise.all(files.map(async (f) => ({ name: f.name, data: await f.arrayBuffer() })));
const CSV = 'text/csv;charset=utf-8';

export const routeFiles: RouteFiles = {
  async parseCouncilFiles(files, timeZone, encoding) {
    const result = await dataWorker().parseRouteFiles(await read(files), { timeZone, encoding });
    return result.files.map((f) => ({ name: f.fileName, payloads: f.payload ? [f.payload] : [], error: f.problem?.message ?? null, detail: f.problem?.detail }));
  },
  async parseSpecialFiles(files) {
    const result = await dataWorker().parseSpecialRouteFiles(await read(files), { group: '' });
    return result.files.map((f) => ({ name: f.fileName, meters: f.meters, errors: f.errors }));
  },
  async resultsFile(task, readings, mode, timeZone, encoding) {
    const w = dataWorker();
    if (mode === 'exceptions') {
      const f = await w.formatExceptionsFile({ task, readings, timeZone });
      return { filename: f.filename, body: f.content, mime: CSV };
    }
    const f = await w.formatResultsFile({ task, readings, timeZone, encoding });
    return { filename: f.filename, body: f.bytes, mime: councilTextMime(encoding), replaced: f.replaced };
  },
  async selectionCsv(task, readings, timeZone) {
    const f = await dataWorker().formatSelectionCsv({ task, readings, timeZone });
    return { filename: f.filename, body: f.content, mime: CSV };
  },
  async tasksCsv(tasks, mode, timeZone) {
    const f = await dataWorker().formatMultiTaskCsv({ tasks, exceptionsOnly: mode === 'exceptions', timeZone });
    return { filename: f.filename, body: f.content, mime: CSV };
  },
};

/** Saves a formatted file through a temporary object URL (no data: URLs: the CSP refuses them). */
export function download(file: FormattedFile) {
  const url = URL.createObjectURL(new Blob([file.body as BlobPart], { type: file.mime }));
  const a = Object.assign(document.createElement('a'), { href: url, download: file.filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
