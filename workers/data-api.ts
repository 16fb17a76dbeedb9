import type { ConversionConfig } from '../src/contract/sensor.schema';
import type { ExportFile, ExportReading, ExportTask } from '../wasm-core/council-file';
import type { Usage } from '../wasm-core/usage';
import type { CouncilFileEncoding } from '../src/contract/organisation.schema';
import type { RouteFile, RouteFilesResult, RouteImportOptions } from './route-import';
import type { SpecialFile, SpecialFilesResult } from './special-route-import';
import type { FleetApi } from './fleet';
import type { FleetLiveApi } from './fleet-live';

export type { ExportFile, ExportReading, ExportTask, RouteFile, RouteFilesResult, RouteImportOptions, SpecialFile, SpecialFilesResult };

/**
 * The data worker's interface (Comlink). The main thread never parses measurement JSON: the
 * worker fetches, parses, stores (WASM linear memory), converts and downsamples, and hands back
 * typed arrays as transferables.
 */
export type DataMode = 'level' | 'flow' | 'volume';

export interface SeriesTarget {
  orgId: string;
  sensorId: string;
}

export interface LoadRequest extends SeriesTarget {
  startTime: number; // epoch ms
  endTime: number; // epoch ms
  /** Refetch every chunk; by default chunks already held and older than a day before they were fetched are not asked for again. */
  refresh?: boolean;
}

export interface LoadProgress {
  chunksDone: number;
  chunksTotal: number;
  points: number;
}

export interface LoadResult {
  points: number; // points held for the sensor in the requested range
  firstTime: number | null;
  lastTime: number | null;
}

export interface ViewRequest extends SeriesTarget {
  startTime: number;
  endTime: number;
  widthPx: number; // chart plot width in CSS pixels (M4 buckets)
  /** Device pixel ratio: buckets are widthPx * pxRatio device pixels (uPlot draws in device pixels). Default 1. */
  pxRatio?: number;
  mode: DataMode;
  offsetMm: number | null; // displayInfo.offsetMeasurement; level (m) = (offset - distance) / 1000
  conversion: ConversionConfig | null;
  unit: 'Metres' | 'Inches';
}

export interface ViewResult {
  time: Float64Array; // epoch seconds (uPlot's x)
  value: Float64Array; // metres / inches, l/s or l
  min: number; // over the points inside the window; NaN when there are none
  max: number;
  rawPoints: number; // full-resolution points inside the window
}

export interface ExportRequest extends SeriesTarget {
  startTime: number;
  endTime: number;
  mode: DataMode;
  offsetMm: number | null;
  conversion: ConversionConfig | null;
  unit: 'Metres' | 'Inches';
  format: 'Default' | 'DD/MM/YYYY HH:mm:ss' | 'ISO8601 local' | 'ISO8601 UTC';
  timeZone: string; // organisation time zone, e.g. Pacific/Auckland
  sensorName: string;
  /** The sensor's serial, for the file name (spec: named from sensor name, serial and timestamp). */
  serial?: string;
}

/** Usage of a sensor over a range (issue 38): the worker fetches the 13 weeks before it too. */
export interface UsageRequest extends SeriesTarget {
  startTime: number;
  endTime: number;
  timeZone: string;
  offsetMm: number | null;
  conversionConfigs: ConversionConfig[];
  alarms: Record<string, { type: string; threshold: number; enabled: boolean }>;
  maxLevel?: number | null;
  /** A level (mm of displayed level) to forecast besides empty and the alarm thresholds. */
  levelMm?: number;
}

export type UsageResult = Usage | { kind: 'none' };

/** The usage export: the same analysis, as CSV rows written by the core. */
export interface UsageExportRequest extends UsageRequest {
  sensorName: string;
  serial?: string;
  format: 'Default' | 'DD/MM/YYYY HH:mm:ss' | 'ISO8601 local' | 'ISO8601 UTC';
}

/** One task's readings to a council download (organisation-and-routes 7.3); times in the organisation's zone. */
export interface TaskExportRequest {
  task: ExportTask;
  readings: ExportReading[];
  timeZone: string;
}

/** The council results file: its text encoded as the organisation chose (UTF-8 when absent). */
export interface ResultsFileRequest extends TaskExportRequest {
  encoding?: CouncilFileEncoding;
}

/** The council results file's bytes, and how many characters the encoding could not hold ('?'). */
export interface EncodedExportFile extends ExportFile {
  bytes: Uint8Array;
  replaced: number;
}

/** Several tasks to one CSV: all readings, or exceptions only (the Export options dialog). */
export interface MultiTaskExportRequest {
  tasks: { task: ExportTask; readings: ExportReading[] }[];
  exceptionsOnly: boolean;
  timeZone: string;
}

export interface DataWorkerApi extends FleetApi, FleetLiveApi {
  /** apiBase e.g. http://localhost:8080/api; the token is refreshed by the caller via setToken. */
  configure(opts: { apiBase: string; token: string }): void;
  setToken(token: string): void;
  /** Fetches the range in ~15-day chunks (6 in flight), merging into the sensor's store. */
  load(req: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<LoadResult>;
  /** Appends live points (from MQTT) to the store. */
  append(target: SeriesTarget, points: { time: number; rawDistance: number }[]): void;
  /** Downsampled, converted view of a window of what is held (no refetch). */
  view(req: ViewRequest): Promise<ViewResult>;
  /** CSV of the full-resolution range, formatted in the worker. */
  exportCsv(req: ExportRequest): Promise<{ filename: string; csv: string }>;
  clear(target?: SeriesTarget): void;
  /** Fills, daily use and forecasts of a tank, or flow totals, computed by the core from the held store (missing chunks fetched first). */
  usage(req: UsageRequest): Promise<UsageResult>;
  /** The usage CSV (daily rows, then fills) of a sensor with a volume or flow conversion. */
  exportUsageCsv(req: UsageExportRequest): Promise<{ filename: string; csv: string }>;
  // ---- meter-reading service routes (issue 14): files parsed and formatted off the main thread
  /** Council .txt (16 fields) / .asc (18 fields) files to import payloads, one per file; `payloads` is empty when any file has a problem. */
  parseRouteFiles(files: RouteFile[], opts: RouteImportOptions): Promise<RouteFilesResult>;
  /** .xlsx workbooks to one special-route payload (all their meters), or the spec's row and file messages. */
  parseSpecialRouteFiles(files: SpecialFile[], opts: { group: string; organisationId?: string }): Promise<SpecialFilesResult>;
  /** The council results file TCC_DCOL_{routeName}_{iteration_}IMP.TXT (completed readings), formatted by the core. */
  formatResultsFile(req: ResultsFileRequest): Promise<EncodedExportFile>;
  /** The exceptions file ..._IMP_exceptions.csv of one task. */
  formatExceptionsFile(req: TaskExportRequest): Promise<ExportFile>;
  /** The selection CSV WW_{route}_{iteration}.csv of the readings given. */
  formatSelectionCsv(req: TaskExportRequest): Promise<ExportFile>;
  /** WW_ALL_READINGS_/WW_EXCEPTIONS_{DDMMYYYY_HHmmss}.csv over several tasks. */
  formatMultiTaskCsv(req: MultiTaskExportRequest): Promise<ExportFile>;
}
