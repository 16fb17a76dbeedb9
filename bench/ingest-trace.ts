// BENCH_INGEST_TRACE=<dir>: where an ack-latency spike comes from. Each process of the ingest
// benchmark (the server, the generator) records, on the wall clock (performance.timeOrigin +
// performance.now(), so the processes' records line up), its own garbage collections and every
// time its event loop came back late, and writes them as JSON into <dir> when it ends; the server
// also records each group-commit batch and each uplink's submit and commit, the generator each
// uplink's due, sent and ack times. bench/ingest-trace-report.ts lines them up. Diagnostic only:
// off unless the variable is set.
import { PerformanceObserver } from 'node:perf_hooks';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRACE_DIR = process.env.BENCH_INGEST_TRACE || '';
export const wall = () => performance.timeOrigin + performance.now();

export interface ProcessTrace {
  /** [start (wall ms), duration ms, kind] of each GC pause on the main thread. */
  gc: [number, number, number][];
  /** [when the loop came back (wall ms), how late ms] for every check more than LAG_MS late. */
  lag: [number, number][];
}

const LAG_MS = 8;
const CHECK_MS = 2;

/** Starts recording this process's GC pauses and late event-loop turns. */
export function traceProcess(): ProcessTrace & { stop(): void } {
  const t: ProcessTrace = { gc: [], lag: [] };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) t.gc.push([performance.timeOrigin + e.startTime, e.duration, ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0)]);
  });
  obs.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - CHECK_MS > LAG_MS) t.lag.push([performance.timeOrigin + now, now - last - CHECK_MS]);
    last = now;
  }, CHECK_MS);
  timer.unref();
  return Object.assign(t, {
    stop() {
      obs.disconnect();
      clearInterval(timer);
    },
  });
}

export function writeTrace(name: string, data: unknown) {
  mkdirSync(TRACE_DIR, { recursive: true });
  const file = join(TRACE_DIR, `${name}-${process.pid}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(data));
  process.stderr.write(`  trace written: ${file}\n`);
}
