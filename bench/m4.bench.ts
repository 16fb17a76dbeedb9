// Benchmarks 1 and 2: WASM M4 against the same algorithm in TypeScript, against the fastest exact
// per-column kernel (each column's first minimum and maximum, its ends given) at a year, against
// the streaming floor (the fastest pass over exactly the bytes M4 streams), and against the
// downsample package's LTTB. Why each baseline is a floor: bench/README.md.
import { LTTB } from 'downsample';
import { loadCore } from '../wasm-core/core';
import { refM4 } from '../wasm-core/reference/m4';
import { compare, interleaved, makeSeries, RUNS, type BenchRow } from './bench-kit';
import { columnEnds, EXACT_KERNELS, loadKernels, stageKernels } from './m4-kernels-kit';

const WIDTH = 1000; // plot width in device pixels

export async function run(): Promise<BenchRow[]> {
  const core = await loadCore();
  const x = core.x;
  const rows: BenchRow[] = [];
  for (const n of [525_600, 10_000_000]) {
    const { time, value } = makeSeries(n);
    const t0 = time[0];
    const t1 = time[n - 1];
    // the series lives in core memory, as the store holds it
    const tp = x.alloc(n * 8);
    const vp = x.alloc(n * 4);
    new Float64Array(x.memory.buffer, tp, n).set(time);
    new Float32Array(x.memory.buffer, vp, n).set(value);
    const room = 4 * (WIDTH + 1);
    const ot = x.alloc(room * 8);
    const ov = x.alloc(room * 8);
    const label = n.toLocaleString('en-GB');
    const wasm = () => x.m4(tp, vp, n, t0, t1, WIDTH, ot, ov);
    // the same points, times and values on both sides before timing
    const k = wasm();
    const timeReads = x.m4TimeReads();
    const ref = refM4(time, value, t0, t1, WIDTH);
    const gotT = new Float64Array(x.memory.buffer, ot, k);
    const gotV = new Float64Array(x.memory.buffer, ov, k);
    if (k !== ref.time.length || ref.time.some((t, i) => t !== gotT[i]) || ref.value.some((v, i) => v !== gotV[i]))
      throw new Error(`WASM M4 and the reference disagree (${k} vs ${ref.time.length} points)`);

    // V8 compiles WebAssembly with a baseline compiler first and optimises hot functions later:
    // enough calls that the timed ones run the optimised code, as a chart that redraws does
    for (let i = 0; i < 50; i++) wasm();
    const vsTs = await compare(wasm, () => refM4(time, value, t0, t1, WIDTH));
    rows.push({ bench: '1 M4', what: `WASM M4 vs TS M4, ${label} points -> ${WIDTH} px`, ...vsTs, target: { kind: 'speedup', value: 1.0 } });

    // M4 streams the value column (4 B a point) and gallops on the time column (timeReads reads
    // of 8 B); the floor streams the same values and one time per pixel column.
    const step = Math.max(1, Math.floor(n / WIDTH));
    const m4Bytes = 4 + (8 * timeReads) / n;
    const floorBytes = 4 + (8 * Math.ceil(n / step)) / n;
    const floor = () => x.streamFloor(tp, vp, n, step);
    const vsFloor = await compare(wasm, floor);
    // A year sits in cache, where M4 is bound by its per-column work, not by memory: its target is
    // against the fastest exact per-column kernel, and the streaming floor is reported. Ten million
    // points stream from memory: there the floor is the target's baseline.
    const inCache = n === 525_600;
    rows.push({
      bench: '1 M4',
      what: `WASM M4 vs the fastest pass over the bytes it streams (SIMD, 8 accumulators), ${label} points`,
      ...vsFloor,
      target: inCache ? null : { kind: 'cost', value: 1.5 },
      reportAs: 'cost',
      note: `bytes a point: M4 ${m4Bytes.toFixed(3)} (${timeReads.toLocaleString('en-GB')} time reads), floor ${floorBytes.toFixed(3)}`,
    });
    if (inCache) rows.push(await vsFastestKernel(wasm, time, value, label));

    if (n === 525_600) {
      // LTTB (downsample 1.4) takes [x, y] tuples; building them is not timed. Same output budget.
      const tuples = Array.from(time, (t, i) => [t, value[i]] as [number, number]);
      const lttb = await compare(wasm, () => LTTB(tuples, room), { runs: 15, warmup: 1 });
      rows.push({ bench: '2 M4 vs LTTB', what: `WASM M4 vs downsample LTTB (${room} points out), ${label} points`, ...lttb, target: null });
    }
    for (const p of [tp, vp, ot, ov]) x.free(p);
  }
  return rows;
}

/**
 * M4 against the fastest of the exact per-column kernels: each finds every pixel column's first
 * minimum and first maximum with the column ends handed to it, a strict part of M4's work done
 * the ways bench-kernels.ts knows. All of them and M4 run in the same interleaved rounds.
 */
async function vsFastestKernel(wasm: () => unknown, time: Float64Array, value: Float32Array, label: string): Promise<BenchRow> {
  const kernels = stageKernels(await loadKernels(), value, columnEnds(time, WIDTH)).calls;
  const med = await interleaved({ m4: wasm, ...kernels }, { runs: Math.max(RUNS, 201), warmup: 60 });
  const fastest = EXACT_KERNELS.reduce((a, b) => (med[b] < med[a] ? b : a));
  const others = EXACT_KERNELS.filter((k) => k !== fastest).map((k) => `${k} ${(med[k] * 1000).toFixed(1)}`);
  return {
    bench: '1 M4',
    what: `WASM M4 vs the fastest exact per-column kernel (column extremes and first indices, ends given), ${label} points`,
    ours: med.m4,
    baseline: med[fastest],
    target: { kind: 'cost', value: 1.5 },
    note: `fastest: ${fastest}; others, µs: ${others.join(', ')}`,
  };
}
