import type { ConversionParams } from './conversion';
import type { DayUse, Fill, Forecast, VolumeAnalysis } from './reference/usage';

/** The raw exports of build/core.wasm (pointers and counts are numbers). */
export interface CoreExports {
  memory: WebAssembly.Memory;
  _start(): void;
  coreVersion(): number;
  alloc(size: number): number;
  free(ptr: number): void;
  sortChunk(t: number, v: number, n: number): number;
  storeNew(): number;
  storeFree(s: number): void;
  storeLength(s: number): number;
  storeSegments(s: number): number;
  storeLowerBound(s: number, t: number): number;
  storeUpperBound(s: number, t: number): number;
  storeRead(s: number, from: number, count: number, outT: number, outV: number): number;
  storeMerge(s: number, t: number, v: number, n: number): number;
  m4(t: number, v: number, n: number, t0: number, t1: number, width: number, outT: number, outV: number): number;
  storeView(s: number, t0: number, t1: number, width: number, outT: number, outV: number, edges: number): number;
  viewRawPoints(): number;
  viewMin(): number;
  viewMax(): number;
  setConversion(kind: number, offsetMm: number, inches: number, a: number, b: number, c: number): void;
  convertValue(raw: number): number;
  setTimeZone(tp: number, op: number, n: number): void;
  csvRows(s: number, from: number, count: number, fmt: number, decimals: number, out: number): number;
  sumColumns(t: number, v: number, n: number): number;
  streamFloor(t: number, v: number, n: number, step: number): bigint;
  m4TimeReads(): number;
  copyBytes(dst: number, src: number, n: number): void;
  councilRoom(n: number, textBytes: number): number;
  councilResultRows(n: number, text: number, nums: number, zt: number, zo: number, zn: number, rowsBefore: number, out: number): number;
  councilCsvRows(n: number, text: number, nums: number, zt: number, zo: number, zn: number, mode: number, out: number): number;
  usageVolume(t: number, r: number, n: number, bounds: number, nd: number, floor: number, fillsOut: number, room: number, daysOut: number): number;
  usageFlow(t: number, r: number, n: number, bounds: number, nd: number, daysOut: number): number;
  usageDayRows(days: number, bounds: number, nd: number, stride: number, out: number): number;
  usageFillRows(fills: number, n: number, fmt: number, out: number): number;
  usageSigma(): number;
  usageNow(): number;
  usageLastTime(): number;
  usageFills(): number;
  usagePoints(): number;
  forecastDays(days: number, first: number, last: number, window: number, minDays: number, now: number, target: number, z: number): number;
  forecastRate(): number;
  forecastSpread(): number;
  forecastDaysUsed(): number;
  forecastEarly(): number;
  forecastLate(): number;
}

/** Host functions the core imports: Math.pow and Math.acos, so that it agrees bit for bit with the reference. */
export function coreImports(): WebAssembly.Imports {
  return {
    env: {
      abort(_msg: number, _file: number, line: number, col: number) {
        throw new Error(`wasm-core aborted at ${line}:${col}`);
      },
      pow: Math.pow,
      acos: Math.acos,
    },
  };
}

const wasmUrl = () => new URL('./build/core.wasm', import.meta.url);

/** Instantiates the core: from bytes when given, else from build/core.wasm (file in Node, fetch in a browser or worker). */
export async function loadCore(bytes?: BufferSource): Promise<Core> {
  if (!bytes) {
    const url = wasmUrl();
    if (url.protocol === 'file:') {
      // hidden from bundlers: this branch runs only in Node (tests, benchmarks)
      const fsModule = 'node:fs/promises';
      const { readFile } = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
      bytes = await readFile(url).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'ENOENT' ? new Error('wasm-core/build/core.wasm is missing: run `npm run build:wasm` first.') : err;
      });
    } else {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`Could not load the data core (${res.status}).`);
      bytes = await res.arrayBuffer();
    }
  }
  const { instance } = await WebAssembly.instantiate(bytes, coreImports());
  const x = instance.exports as unknown as CoreExports;
  x._start();
  return new Core(x);
}

export const EXPORT_FORMATS = ['Default', 'DD/MM/YYYY HH:mm:ss', 'ISO8601 local', 'ISO8601 UTC'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Offset table for a time zone: from at[i] (UTC ms) on, local = UTC + offset[i] ms. */
export interface ZoneOffsets {
  at: Float64Array;
  offset: Float64Array;
}

export interface M4Out {
  time: Float64Array;
  value: Float64Array;
}

export interface ViewOut extends M4Out {
  min: number;
  max: number;
  rawPoints: number;
}

const CSV_ROW_MAX = 64;
const CSV_BLOCK = 65_536;

/**
 * Typed access to the core. A store is a number (its address); it lives until freeStore.
 * Views on memory are made after each call, because a call may grow (and so detach) the buffer.
 */
export class Core {
  constructor(readonly x: CoreExports) {}

  get version(): number {
    return this.x.coreVersion();
  }

  /** Current bytes of linear memory (for diagnostics). */
  get memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }

  newStore(): number {
    return this.x.storeNew();
  }

  freeStore(s: number): void {
    this.x.storeFree(s);
  }

  length(s: number): number {
    return this.x.storeLength(s);
  }

  segments(s: number): number {
    return this.x.storeSegments(s);
  }

  lowerBound(s: number, t: number): number {
    return this.x.storeLowerBound(s, t);
  }

  upperBound(s: number, t: number): number {
    return this.x.storeUpperBound(s, t);
  }

  /** Copies a chunk into core memory and merges it; returns the points held. Times must be finite. */
  merge(s: number, time: ArrayLike<number>, value: ArrayLike<number>): number {
    const n = time.length;
    if (value.length !== n) throw new Error('time and value columns differ in length');
    const t = this.x.alloc(n * 8);
    const v = this.x.alloc(n * 4);
    const buf = this.x.memory.buffer;
    new Float64Array(buf, t, n).set(time);
    new Float32Array(buf, v, n).set(value);
    return this.x.storeMerge(s, t, v, n);
  }

  /** Copies points [from, from + count) out of the store. */
  read(s: number, from = 0, count = this.length(s) - from): { time: Float64Array; value: Float32Array } {
    count = Math.max(0, Math.min(count, this.length(s) - from));
    const t = this.x.alloc(count * 8);
    const v = this.x.alloc(count * 4);
    this.x.storeRead(s, from, count, t, v);
    const buf = this.x.memory.buffer;
    const out = { time: new Float64Array(buf, t, count).slice(), value: new Float32Array(buf, v, count).slice() };
    this.x.free(t);
    this.x.free(v);
    return out;
  }

  /** Sorts and de-duplicates one chunk (later point wins); returns copies. */
  sortChunk(time: ArrayLike<number>, value: ArrayLike<number>): { time: Float64Array; value: Float32Array } {
    const n = time.length;
    const t = this.x.alloc(n * 8);
    const v = this.x.alloc(n * 4);
    let buf = this.x.memory.buffer;
    new Float64Array(buf, t, n).set(time);
    new Float32Array(buf, v, n).set(value);
    const m = this.x.sortChunk(t, v, n);
    buf = this.x.memory.buffer;
    const out = { time: new Float64Array(buf, t, m).slice(), value: new Float32Array(buf, v, m).slice() };
    this.x.free(t);
    this.x.free(v);
    return out;
  }

  /** M4 of sorted columns (times ms) inside [t0, t1] to width pixels; copies in and out. */
  m4(time: Float64Array, value: Float32Array, t0: number, t1: number, width: number): M4Out {
    const n = time.length;
    const room = 4 * (width + 1);
    const t = this.x.alloc(n * 8);
    const v = this.x.alloc(n * 4);
    const ot = this.x.alloc(room * 8);
    const ov = this.x.alloc(room * 8);
    let buf = this.x.memory.buffer;
    new Float64Array(buf, t, n).set(time);
    new Float32Array(buf, v, n).set(value);
    const k = this.x.m4(t, v, n, t0, t1, width, ot, ov);
    buf = this.x.memory.buffer;
    const out = { time: new Float64Array(buf, ot, k).slice(), value: new Float64Array(buf, ov, k).slice() };
    for (const p of [t, v, ot, ov]) this.x.free(p);
    return out;
  }

  setConversion(p: ConversionParams): void {
    this.x.setConversion(p.kind, p.offsetMm, p.inches ? 1 : 0, p.a, p.b, p.c);
  }

  convert(p: ConversionParams, raw: number): number {
    this.setConversion(p);
    return this.x.convertValue(raw);
  }

  /** The chart's view: M4 of [t0, t1] at width pixels, converted, times in epoch seconds, edges included. */
  view(s: number, t0: number, t1: number, width: number, p: ConversionParams, edges = true): ViewOut {
    const w = Math.max(1, Math.round(width));
    const room = 4 * (w + 1) + 2;
    const ot = this.x.alloc(room * 8);
    const ov = this.x.alloc(room * 8);
    this.setConversion(p);
    const k = this.x.storeView(s, t0, t1, w, ot, ov, edges ? 1 : 0);
    const buf = this.x.memory.buffer;
    const out = {
      time: new Float64Array(buf, ot, k).slice(),
      value: new Float64Array(buf, ov, k).slice(),
      min: this.x.viewMin(),
      max: this.x.viewMax(),
      rawPoints: this.x.viewRawPoints(),
    };
    this.x.free(ot);
    this.x.free(ov);
    return out;
  }

  /**
   * CSV rows ("time,value\r\n") for points [from, from + count) of the store, times in the
   * zone given by the offset table, values converted with `decimals` decimals. Written in
   * blocks so that memory stays small; the string pieces are joined once.
   */
  csvRows(s: number, from: number, count: number, format: ExportFormat, decimals: number, p: ConversionParams, zone: ZoneOffsets): string {
    const fmt = EXPORT_FORMATS.indexOf(format);
    if (fmt < 0) throw new Error(`Unknown export format ${format}`);
    const zn = zone.at.length;
    const zt = this.x.alloc(zn * 8);
    const zo = this.x.alloc(zn * 8);
    const block = Math.min(CSV_BLOCK, Math.max(count, 1));
    const out = this.x.alloc(block * CSV_ROW_MAX);
    new Float64Array(this.x.memory.buffer, zt, zn).set(zone.at);
    new Float64Array(this.x.memory.buffer, zo, zn).set(zone.offset);
    this.x.setTimeZone(zt, zo, zn);
    this.setConversion(p);
    const decoder = new TextDecoder();
    const parts: string[] = [];
    for (let done = 0; done < count; done += block) {
      const bytes = this.x.csvRows(s, from + done, Math.min(block, count - done), fmt, decimals, out);
      parts.push(decoder.decode(new Uint8Array(this.x.memory.buffer, out, bytes)));
    }
    this.x.setTimeZone(0, 0, 0);
    for (const q of [zt, zo, out]) this.x.free(q);
    return parts.join('');
  }

  /** Copies columns into core memory, or reads points [from, from + count) of a store there (no copy through JavaScript). */
  private columnsIn(src: { time: ArrayLike<number>; raw: ArrayLike<number> } | { store: number; from: number; count: number }): { t: number; r: number; n: number } {
    if ('store' in src) {
      const n = Math.max(0, Math.min(src.count, this.length(src.store) - src.from));
      const t = this.x.alloc(Math.max(1, n) * 8);
      const r = this.x.alloc(Math.max(1, n) * 4);
      this.x.storeRead(src.store, src.from, n, t, r);
      return { t, r, n };
    }
    const n = src.time.length;
    if (src.raw.length !== n) throw new Error('time and value columns differ in length');
    const t = this.x.alloc(Math.max(1, n) * 8);
    const r = this.x.alloc(Math.max(1, n) * 4);
    new Float64Array(this.x.memory.buffer, t, n).set(src.time);
    new Float32Array(this.x.memory.buffer, r, n).set(src.raw);
    return { t, r, n };
  }

  /**
   * Fills and daily use of a tank (assembly/usage.ts): sorted columns or a store's points,
   * converted to litres by `p`; `bounds` are the nd + 1 UTC instants of local midnights;
   * `floor` the least noise deviation in litres.
   */
  usageVolume(src: { time: ArrayLike<number>; raw: ArrayLike<number> } | { store: number; from: number; count: number }, p: ConversionParams, bounds: ArrayLike<number>, floor: number): VolumeAnalysis {
    const { t, r, n } = this.columnsIn(src);
    const nd = Math.max(0, bounds.length - 1);
    const b = this.x.alloc(Math.max(1, bounds.length) * 8);
    new Float64Array(this.x.memory.buffer, b, bounds.length).set(bounds);
    const days = this.x.alloc(Math.max(1, nd) * 32);
    this.setConversion(p);
    let room = 256;
    for (;;) {
      const fo = this.x.alloc(room * 40);
      const k = this.x.usageVolume(t, r, n, b, nd, floor, fo, room, days);
      const total = this.x.usageFills();
      if (total > room) {
        this.x.free(fo);
        room = total;
        continue;
      }
      const buf = this.x.memory.buffer;
      const f = new Float64Array(buf, fo, k * 5);
      const fills: Fill[] = [];
      for (let i = 0; i < k; i++) fills.push({ start: f[i * 5], end: f[i * 5 + 1], volume: f[i * 5 + 2], before: f[i * 5 + 3], after: f[i * 5 + 4] });
      const out: VolumeAnalysis = {
        fills,
        days: dayTable(new Float64Array(buf, days, nd * 4), nd),
        sigma: this.x.usageSigma(),
        now: this.x.usageNow(),
        lastTime: this.x.usageLastTime(),
        points: this.x.usagePoints(),
      };
      for (const q of [fo, days, b, t, r]) this.x.free(q);
      return out;
    }
  }

  /** Daily flow totals (m³) and covered time of a weir or flume (assembly/usage.ts). */
  usageFlow(src: { time: ArrayLike<number>; raw: ArrayLike<number> } | { store: number; from: number; count: number }, p: ConversionParams, bounds: ArrayLike<number>): { days: DayUse[]; points: number; now: number; lastTime: number } {
    const { t, r, n } = this.columnsIn(src);
    const nd = Math.max(0, bounds.length - 1);
    const b = this.x.alloc(Math.max(1, bounds.length) * 8);
    new Float64Array(this.x.memory.buffer, b, bounds.length).set(bounds);
    const days = this.x.alloc(Math.max(1, nd) * 16);
    this.setConversion(p);
    const points = this.x.usageFlow(t, r, n, b, nd, days);
    const col = new Float64Array(this.x.memory.buffer, days, nd * 2);
    const out = { days: Array.from({ length: nd }, (_, i) => ({ use: col[i * 2], covered: col[i * 2 + 1], fills: 0, filled: 0 })), points, now: this.x.usageNow(), lastTime: this.x.usageLastTime() };
    for (const q of [days, b, t, r]) this.x.free(q);
    return out;
  }

  /** The forecast over days [first, last) of a daily table (assembly/usage.ts forecastDays). */
  forecast(days: readonly DayUse[], first: number, last: number, window: number, minDays: number, now: number, target: number, z: number): Forecast {
    const nd = days.length;
    const p = this.x.alloc(Math.max(1, nd) * 32);
    const col = new Float64Array(this.x.memory.buffer, p, nd * 4);
    days.forEach((d, i) => col.set([d.use, d.covered, d.fills, d.filled], i * 4));
    const out: Forecast = { days: this.x.forecastDays(p, first, last, window, minDays, now, target, z), early: 0, late: 0, rate: 0, spread: 0, daysUsed: 0 };
    out.early = this.x.forecastEarly();
    out.late = this.x.forecastLate();
    out.rate = this.x.forecastRate();
    out.spread = this.x.forecastSpread();
    out.daysUsed = this.x.forecastDaysUsed();
    this.x.free(p);
    return out;
  }

  /** Usage CSV rows (assembly/csv.ts usageDayRows, usageFillRows): daily rows of a tank or a flow, then fill rows in `format`. */
  usageCsvRows(days: readonly DayUse[], bounds: ArrayLike<number>, tank: boolean, fills: readonly Fill[], format: ExportFormat, zone: ZoneOffsets): { days: string; fills: string } {
    const fmt = EXPORT_FORMATS.indexOf(format);
    if (fmt < 0) throw new Error(`Unknown export format ${format}`);
    const nd = days.length;
    const stride = tank ? 4 : 2;
    const zn = zone.at.length;
    const zt = this.x.alloc(Math.max(1, zn) * 8);
    const zo = this.x.alloc(Math.max(1, zn) * 8);
    const dp = this.x.alloc(Math.max(1, nd) * stride * 8);
    const bp = this.x.alloc(Math.max(1, nd) * 8);
    const fp = this.x.alloc(Math.max(1, fills.length) * 40);
    const out = this.x.alloc(Math.max(1, nd + 2 * fills.length) * CSV_ROW_MAX);
    const buf = this.x.memory.buffer;
    new Float64Array(buf, zt, zn).set(zone.at);
    new Float64Array(buf, zo, zn).set(zone.offset);
    const dcol = new Float64Array(buf, dp, nd * stride);
    days.forEach((d, i) => dcol.set(tank ? [d.use, d.covered, d.fills, d.filled] : [d.use, d.covered], i * stride));
    new Float64Array(buf, bp, nd).set(Array.from({ length: nd }, (_, i) => bounds[i]));
    const fcol = new Float64Array(buf, fp, fills.length * 5);
    fills.forEach((f, i) => fcol.set([f.start, f.end, f.volume, f.before, f.after], i * 5));
    this.x.setTimeZone(zt, zo, zn);
    const decoder = new TextDecoder();
    const dn = this.x.usageDayRows(dp, bp, nd, stride, out);
    const dayText = decoder.decode(new Uint8Array(this.x.memory.buffer, out, dn));
    const fn = this.x.usageFillRows(fp, fills.length, fmt, out);
    const fillText = decoder.decode(new Uint8Array(this.x.memory.buffer, out, fn));
    this.x.setTimeZone(0, 0, 0);
    for (const q of [zt, zo, dp, bp, fp, out]) this.x.free(q);
    return { days: dayText, fills: fillText };
  }
}

function dayTable(col: Float64Array, nd: number): DayUse[] {
  const out: DayUse[] = [];
  for (let i = 0; i < nd; i++) out.push({ use: col[i * 4], covered: col[i * 4 + 1], fills: col[i * 4 + 2], filled: col[i * 4 + 3] });
  return out;
}
