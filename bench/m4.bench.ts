// Benchmarks 1 and 2 (issue 5): WASM M4 against the same algorithm in TypeScript and against
// the memory floor (a sequential sum over the same bytes), and against the downsample package's LTTB.
import { LTTB } from 'downsample';
import { loadCore } from '../wasm-core/core';
import { refM4 } from '../wasm-core/reference/m4';
import { compare, makeSeries, type BenchRow } from './bench-kit';

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
    // same answer on both sides before timing
    const k = wasm();
    const ref = refM4(time, value, t0, t1, WIDTH);
    if (k !== ref.time.length) throw new Error(`M4 sides disagree: ${k} vs ${ref.time.length} points`);

    const vsTs = await compare(wasm, () => refM4(time, value, t0, t1, WIDTH));
    rows.push({ bench: '1 M4', what: `WASM M4 vs TS M4, ${label} points -> ${WIDTH} px`, ...vsTs, target: { kind: 'speedup', value: 1.0 } });

    const vsFloor = await compare(wasm, () => x.sumColumns(tp, vp, n));
    rows.push({
      bench: '1 M4',
      what: `WASM M4 vs sequential sum of the same bytes (${((n * 12) / 1e6).toFixed(1)} MB), ${label} points`,
      ...vsFloor,
      target: { kind: 'cost', value: 1.5 },
    });

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
