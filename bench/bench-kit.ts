// Shared by every bench/*.bench.ts: timing (warm-up, then a median of interleaved runs) and
// the row each benchmark reports. run.ts prints the rows as one table.

/** A target: "speedup" = baseline time / ours >= value; "cost" = ours / baseline <= value. */
export type Target = { kind: 'speedup'; value: number } | { kind: 'cost'; value: number } | null;

export interface BenchRow {
  bench: string; // e.g. "1 M4"
  what: string; // e.g. "WASM M4 vs TS M4, 525,600 points"
  ours: number; // median ms
  baseline: number; // median ms
  target: Target;
  /** how a row without a target shows its ratio: ours / baseline ("cost") or baseline / ours (the default) */
  reportAs?: 'cost';
  note?: string;
}

export interface BenchFile {
  run(): Promise<BenchRow[]>;
}

export const RUNS = Number(process.env.BENCH_RUNS ?? 15);

/**
 * vite's build() of a page's bundle for a benchmark. Vite sets `process.env.NODE_ENV` to
 * 'production' for the rest of the process when it builds; the groups after it in `npm run bench`
 * fork their servers with this process's environment, and a server in production mode seeds no
 * demo world (benchmark 6 found no sensor after chart-draw had built). The variable is put back.
 */
export async function viteBuild(config: import('vite').InlineConfig): ReturnType<typeof import('vite').build> {
  const before = process.env.NODE_ENV;
  try {
    return await (await import('vite')).build(config);
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/** BENCH_SERVER_NODE_ARGS: extra Node flags for a benchmark's server process (say --trace-gc). */
export const serverNodeArgs = (): string[] => process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Times two functions in one process, warmed up, alternating A B A B so that both see the same
 * machine state, and returns the medians in ms. `before` and `after` run untimed around each call (set-up, clean-up).
 */
export async function compare(
  ours: () => unknown,
  baseline: () => unknown,
  opts: { runs?: number; warmup?: number; before?: () => void; after?: () => void } = {},
): Promise<{ ours: number; baseline: number }> {
  const runs = Math.max(opts.runs ?? RUNS, 15);
  const time = (fn: () => unknown) => {
    opts.before?.();
    const t = performance.now();
    fn();
    const d = performance.now() - t;
    opts.after?.();
    return d;
  };
  for (let i = 0; i < (opts.warmup ?? WARMUP); i++) {
    time(ours);
    time(baseline);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(time(ours));
    b.push(time(baseline));
    // let a collection happen between pairs rather than inside a timed call
    await new Promise((r) => setImmediate(r));
  }
  return { ours: median(a), baseline: median(b) };
}

/**
 * Times several functions in one process, warmed up, in interleaved rounds (each round calls every
 * function once, in order), and returns each one's median in ms.
 */
export async function interleaved<K extends string>(fns: Record<K, () => unknown>, opts: { runs: number; warmup: number }): Promise<Record<K, number>> {
  const keys = Object.keys(fns) as K[];
  for (let i = 0; i < opts.warmup; i++) for (const k of keys) fns[k]();
  const times = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < opts.runs; i++) {
    for (const k of keys) {
      const t = performance.now();
      fns[k]();
      times[k].push(performance.now() - t);
    }
    // let a collection happen between rounds rather than inside a timed call
    await new Promise((r) => setImmediate(r));
  }
  return Object.fromEntries(keys.map((k) => [k, median(times[k])])) as Record<K, number>;
}

/** The figure compared with the target: a speedup (baseline/ours) or a cost (ours/baseline). */
export function ratioOf(row: BenchRow): number {
  const cost = row.target ? row.target.kind === 'cost' : row.reportAs === 'cost';
  return cost ? row.ours / row.baseline : row.baseline / row.ours;
}

export function passes(row: BenchRow): boolean | null {
  if (!row.target) return null;
  const r = ratioOf(row);
  return row.target.kind === 'speedup' ? r >= row.target.value : r <= row.target.value;
}

/** A year of 1-minute levels (or any count): times in ms, a tide-like wave plus noise, as f32. */
export function makeSeries(n: number, start = Date.UTC(2025, 0, 1)): { time: Float64Array; value: Float32Array } {
  const time = new Float64Array(n);
  const value = new Float32Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    time[i] = start + i * 60_000;
    value[i] = 2000 + 800 * Math.sin(i / 745) + ((x >>> 16) % 50);
  }
  return { time, value };
}
